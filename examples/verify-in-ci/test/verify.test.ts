// Runs verify.sh as CI would (the built daemon, a free port): the mocks that fit openapi.yaml pass
// (exit 0, a JUnit file with no failure); the drifted copy fails (exit 1) naming both planted drifts.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../verify.sh', import.meta.url));
const CLI = fileURLToPath(new URL('../../../packages/server/dist/cli.js', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'verify-in-ci-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `bash verify.sh <mock file> <junit file>`: its exit code and output. */
async function verify(mockFile: string, junit: string): Promise<{ code: number; output: string }> {
  const env = { ...process.env, MOCKPOINT: `${process.execPath} ${CLI}`, PORT: String(await freePort()) };
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, mockFile, junit], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), output: stdout + stderr });
    });
  });
}

describe('verify-in-ci: verify.sh', () => {
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` first`);
  });

  it('passes the mocks that fit the OpenAPI document, with a JUnit file of no failure', async () => {
    const junit = join(out, 'fit.xml');
    const run = await verify('mockpoint.yaml', junit);
    expect(run.output).toContain('mockpoint verify: 3 routes of 1 endpoint against Pets 1.0 (OpenAPI 3.0.3): no drift');
    expect(run.code, run.output).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="mockpoint verify: Pets 1.0" tests="3" failures="0" errors="0">');
  });

  it('fails the drifted mocks (exit 1), naming each planted drift in the report and the JUnit file', async () => {
    const junit = join(out, 'drifted.xml');
    const run = await verify('drifted/mockpoint.yaml', junit);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain('2 findings');
    expect(run.output).toContain('SCHEMA_MISMATCH at body/id');
    expect(run.output).toContain('MISSING_OPERATION at method: expected one of GET; found DELETE');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="3" failures="2"');
    expect(xml).toContain('<failure type="SCHEMA_MISMATCH"');
    expect(xml).toContain('<failure type="MISSING_OPERATION"');
  });
});
