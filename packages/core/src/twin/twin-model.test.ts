// A path parameter the document marks `x-multi-segment` (GitHub's contents `path`, a git `ref`)
// takes one or more segments, `/` kept; an operation whose segments match one for one wins over it.
import { describe, expect, it } from 'vitest';
import { TwinModel } from './twin-model.js';
import { checkProfile } from './twin-profile.js';

const ref = { name: 'ref', in: 'path', required: true, schema: { type: 'string' }, 'x-multi-segment': true };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Git', version: '1' },
  components: { parameters: { ref } },
  paths: {
    '/git/ref/{ref}': { get: { parameters: [{ $ref: '#/components/parameters/ref' }], responses: {} } },
    '/commits/{ref}': { parameters: [ref], get: { responses: {} } },
    '/commits/{ref}/status': { get: { parameters: [ref], responses: {} } },
    '/tags/{tag}': { get: { responses: {} } },
  },
};

describe('x-multi-segment path parameters', () => {
  const model = new TwinModel(DOCUMENT, checkProfile({ name: 'git' }));
  const matched = (path: string) => {
    const found = model.match('GET', path);
    return found === undefined ? undefined : [found.op.template, found.values];
  };

  it('take the rest of the path, `/` kept, decoded once', () => {
    expect(matched('/git/ref/heads/feature/a')).toEqual(['/git/ref/{ref}', { ref: 'heads/feature/a' }]);
    expect(matched('/git/ref/heads%2Ffeature')).toEqual(['/git/ref/{ref}', { ref: 'heads/feature' }]);
    expect(matched('/git/ref/heads/a%252Fb')).toEqual(['/git/ref/{ref}', { ref: 'heads/a%2Fb' }]);
    // Declared on the path item: in the middle, the segments after it still fixed.
    expect(matched('/commits/heads/main')).toEqual(['/commits/{ref}', { ref: 'heads/main' }]);
    expect(matched('/commits/heads/main/status')).toEqual(['/commits/{ref}/status', { ref: 'heads/main' }]);
  });

  it('take no empty segment, and other parameters stay one segment', () => {
    expect(matched('/git/ref/heads//a')).toBeUndefined();
    expect(matched('/git/ref/heads/')).toBeUndefined();
    expect(matched('/tags/a/b')).toBeUndefined();
    expect(matched('/tags/a')).toEqual(['/tags/{tag}', { tag: 'a' }]);
  });
});
