// #74's house number: the package's main entry keeps at most 30 runtime exports (33 before).
// Each one is a name users must be able to rely on; a constant the daemon checks on its own
// (the verify bounds) is not one of them. Types cost nothing at run time and are not counted.
import { describe, expect, it } from 'vitest';
import * as core from './index.js';

const MAX_RUNTIME_EXPORTS = 30;

describe('@mockpoint/core', () => {
  it(`exports at most ${MAX_RUNTIME_EXPORTS} runtime names`, () => {
    const names = Object.keys(core).sort();
    expect(names.length, names.join(' ')).toBeLessThanOrEqual(MAX_RUNTIME_EXPORTS);
    expect(names).toContain('createApp');
    expect(names).toContain('createClient');
  });
});
