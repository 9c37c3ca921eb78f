// The published declarations type-check in a Node-only project that never touches gRPC
// (test/fixtures/node-only-types: `lib: ES2023`, `types: ["node"]`, strict, no skipLibCheck),
// importing @mockpoint/vitest/server, /plugin, @mockpoint/core and /node. Connect's declarations
// (@connectrpc/connect) name the DOM's `HeadersInit`: reached from ours, such a project failed
// with 7 × "Cannot find name 'HeadersInit'". The declarations are built as packing builds them
// (scripts/build-types.mjs), then tsc checks the fixture against them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/node-only-types/', import.meta.url));

describe('published declarations in a Node-only project', () => {
  it('type-check without the DOM lib and without skipLibCheck', { timeout: 900_000 }, () => {
    const built = spawnSync(
      process.execPath,
      [`${REPO}scripts/build-types.mjs`, 'packages/core', 'packages/vitest-plugin'],
      { cwd: REPO, encoding: 'utf8' },
    );
    expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);
    const tsc = spawnSync(process.execPath, [`${REPO}node_modules/typescript/bin/tsc`, '-p', FIXTURE], {
      cwd: FIXTURE,
      encoding: 'utf8',
    });
    expect(tsc.stdout, tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
