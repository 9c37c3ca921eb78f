// The parity ledger (docs/twins.md, docs/parity-*.md) is what scripts/parity-ledger.mjs writes from
// docs/parity/*.json and the built daemon's twins: stale pages fail here.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

it('docs/parity-*.md and the ledger in docs/twins.md are as scripts/parity-ledger.mjs writes them', () => {
  const run = spawnSync(process.execPath, [resolve(import.meta.dirname, 'parity-ledger.mjs'), '--check'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
