// Files an imported input names are read inside its own folder only (core's files/read-inside.ts):
// a Mockoon `filePath`, WireMock's `bodyFileName`, an OpenAPI `$ref`, a mock file's `$file`. Real files,
// real links (to a file and to a folder out), the built CLI and a real daemon on 127.0.0.1. Files
// outside hold a marker: it never reaches a mock file, an answer, a left-out line or the daemon. The
// seeded fuzz sends random file names (random code points, ../, absolute, through links) through
// `mockpoint import --apply` and through /api/mcp (import_mock_file, apply_mock_file) while
// /api/health is asked every 200 ms (worst within the fuzz bound) and the daemon's RSS is watched.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { FUZZ_HEALTH_BOUND_MS, watchHealth } from './helpers/watch-health.js';

useDaemons();

const MARKER = 'OUTSIDE-THE-FOLDER-7f3a';

/** A folder `env/` with files inside, and beside it files and a folder holding the marker, reached by links from inside. */
async function layout(): Promise<{ dir: string; env: string; secret: string }> {
  const dir = await makeTempDir('mockpoint-confine-');
  const env = join(dir, 'env');
  mkdirSync(join(env, 'sub'), { recursive: true });
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(env, 'ok.txt'), 'inside');
  writeFileSync(join(env, 'sub', 'data.json'), '{"in":true}');
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, MARKER);
  writeFileSync(join(dir, 'out', 'x.txt'), MARKER);
  execFileSync('mkfifo', [join(dir, 'out', 'fifo')]);
  symlinkSync(secret, join(env, 'link.txt'));
  symlinkSync(join(dir, 'out'), join(env, 'dirlink'));
  symlinkSync(join(dir, 'out', 'fifo'), join(env, 'fifolink'));
  return { dir, env, secret };
}

function mockoonResponse(filePath: string): Record<string, unknown> {
  return {
    uuid: 'r',
    body: 'inline',
    latency: 0,
    statusCode: 200,
    label: '',
    headers: [],
    bodyType: 'FILE',
    filePath,
    databucketID: '',
    sendFileAsBody: true,
    rules: [],
    rulesOperator: 'OR',
    disableTemplating: true,
    fallbackTo404: false,
    default: true,
    crudKey: 'id',
    callbacks: [],
  };
}

/** A Mockoon environment with one GET route per file path (`/f0`, `/f1`, …). */
function mockoonEnvironment(filePaths: string[]): string {
  return JSON.stringify({
    uuid: 'e',
    lastMigration: 33,
    name: 'confine',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    routes: filePaths.map((filePath, i) => ({
      uuid: `u${i}`,
      type: 'http',
      documentation: '',
      method: 'get',
      endpoint: `f${i}`,
      responses: [mockoonResponse(filePath)],
      responseMode: null,
    })),
    headers: [],
    data: [],
    cors: false,
    rootChildren: filePaths.map((_, i) => ({ type: 'route', uuid: `u${i}` })),
  });
}

interface Imported {
  leftOut: { what: string; why: string }[];
  mockFile: { endpoints: { routes?: { match: { path: string }; answer: Record<string, unknown> }[] }[] };
}

describe('mockpoint import reads only inside the input folder', () => {
  it('Mockoon: a filePath absolute, ../ out, or through a link out is left out and named; inside is read', async () => {
    const { dir, env, secret } = await layout();
    const paths = ['ok.txt', 'sub/data.json', '/etc/passwd', secret, '../secret.txt', 'link.txt', 'dirlink/x.txt'];
    writeFileSync(join(env, 'environment.json'), mockoonEnvironment(paths));
    const run = await runCli({ cwd: dir, args: ['import', 'env/environment.json', '--name', 'mo', '--json'] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(MARKER);
    expect(run.stdout).not.toContain('root:');
    const result = JSON.parse(run.stdout) as Imported;
    const bytes = (answer: Record<string, unknown>) => Buffer.from(answer.bodyBase64 as string, 'base64').toString();
    expect(result.mockFile.endpoints[0]?.routes?.map((route) => [route.match.path, bytes(route.answer)])).toEqual([
      // Mockoon's paths of literal words import as the case-insensitive regex form (#49 item 3).
      [{ matches: '(?i)/f0/?' }, 'inside'],
      [{ matches: '(?i)/f1/?' }, '{"in":true}'],
    ]);
    expect(result.leftOut.map((entry) => `${entry.what}: ${entry.why}`)).toEqual([
      expect.stringMatching(
        /^GET \/f2 response 1: its file "\/etc\/passwd" is an absolute path; names stay inside the environment's folder \(/,
      ),
      expect.stringMatching(/^GET \/f3 response 1: its file ".*secret\.txt" is an absolute path/),
      expect.stringMatching(
        /^GET \/f4 response 1: its file "\.\.\/secret\.txt" is outside the environment's folder \(.*\); names stay inside it$/,
      ),
      expect.stringMatching(
        /^GET \/f5 response 1: its file "link\.txt" leads outside the environment's folder \(.*\) through a link$/,
      ),
      expect.stringMatching(
        /^GET \/f6 response 1: its file "dirlink\/x\.txt" leads outside the environment's folder .* through a link$/,
      ),
    ]);
    // The plain run says so on standard error, one line each, and --strict refuses the import.
    const plain = await runCli({
      cwd: dir,
      args: ['import', 'env/environment.json', '--name', 'mo', '--out', 'mo.json'],
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/left out GET \/f2 response 1: its file "\/etc\/passwd" is an absolute path/);
    expect(readFileSync(join(dir, 'mo.json'), 'utf8')).not.toContain(MARKER);
  });

  it('a mock file $file and an OpenAPI $ref through a link to a folder out are refused by name', async () => {
    const { dir, env } = await layout();
    writeFileSync(join(env, 'mock.yaml'), 'version: 1\nendpoints:\n  - name: m\n    data: { $file: dirlink/x.txt }\n');
    const validate = await runCli({ cwd: dir, args: ['validate', 'env/mock.yaml'] });
    expect(validate.code).not.toBe(0);
    expect(validate.stderr).toMatch(/"dirlink\/x\.txt" leads outside the mock file's folder .* through a link/);
    expect(validate.stderr).not.toContain(MARKER);
    writeFileSync(
      join(env, 'openapi.json'),
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { get: { responses: { '200': { $ref: 'dirlink/x.txt#/r' } } } } },
      }),
    );
    const openapi = await runCli({ cwd: dir, args: ['import', 'env/openapi.json', '--name', 'oa', '--json'] });
    expect(openapi.code).not.toBe(0);
    expect(openapi.stderr).toMatch(/\$ref "dirlink\/x\.txt#\/r" leads outside the document's folder .* through a link/);
  });
});

describe('seeded fuzz: random file names never read a file outside; health answers throughout', () => {
  it('80 random Mockoon filePath values (seed 49) through `mockpoint import --apply` to a real daemon', async () => {
    const { dir, env, secret } = await layout();
    const daemon = await startDaemon({ cwd: dir, args: ['--memory'] });
    const health = await watchHealth(daemon.url, daemon.child.pid as number);
    const random = prng(49);
    const prefixes = ['../', '../../', '/', '/etc/', 'link.txt', 'dirlink/', 'fifolink', './sub/../../', '..\\', ''];
    for (let round = 0; round < 4; round++) {
      const paths = Array.from({ length: 20 }, (_, i) => {
        if (i === 0) return secret;
        if (i === 1) return `sub/../../${'../'.repeat(round)}secret.txt`;
        const prefix = prefixes[Math.floor(random() * prefixes.length)] as string;
        return `${prefix}${randomText(random, Math.floor(random() * (i % 7 === 0 ? 300 : 20)))}`;
      });
      writeFileSync(join(env, 'environment.json'), mockoonEnvironment(paths));
      const run = await runCli({
        cwd: dir,
        args: ['import', 'env/environment.json', '--name', 'fz', '--apply', '--url', daemon.url, '--json'],
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(MARKER);
      expect(JSON.parse(run.stdout)).toHaveProperty('applied');
      for (const line of run.stderr.split('\n').filter((l) => l.startsWith('mockpoint import: left out'))) {
        expect(line).toMatch(/^[\x20-\x7e]+$/);
      }
      // The routes the daemon now holds (the two inside files' and the inline ones) answer no marker.
      const stored = await (await fetch(`${daemon.url}/api/endpoints/fz/routes`)).text();
      expect(stored).not.toContain(MARKER);
      expect(stored).not.toContain(Buffer.from(MARKER).toString('base64').slice(0, 16));
      const { routes } = JSON.parse(stored) as { routes: { match: { path: string } }[] };
      for (const route of routes) {
        const answer = await fetch(`${daemon.url}/endpoint/fz${route.match.path}`);
        expect(await answer.text()).not.toContain(MARKER);
      }
    }
    const { worstMs, failed, rssPeak } = await health.stop();
    expect(failed).toBe(0);
    expect(worstMs).toBeLessThan(FUZZ_HEALTH_BOUND_MS);
    expect(rssPeak / (1024 * 1024)).toBeLessThan(400);
  });

  it('80 random file names (seed 50) through /api/mcp: import_mock_file $ref and apply_mock_file $file', async () => {
    const { dir, secret } = await layout();
    const daemon = await startDaemon({ cwd: dir, args: ['--memory'] });
    const random = prng(50);
    const prefixes = [
      '../',
      '/',
      secret,
      'secret.txt',
      'out/x.txt',
      'env/dirlink/',
      'env/link.txt',
      'env/fifolink',
      '',
    ];
    const mcp = async (id: number, name: string, args: Record<string, unknown>) => {
      const answer = await fetch(`${daemon.url}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(answer.status).toBe(200);
      return answer.text();
    };
    // The first call loads the MCP modules (seconds on a loaded machine, once): health is watched after it.
    await mcp(-1, 'export_mock_file', {});
    const health = await watchHealth(daemon.url, daemon.child.pid as number);
    for (let round = 0; round < 40; round++) {
      const prefix = prefixes[round % prefixes.length] as string;
      const name = round % 4 === 0 ? prefix : `${prefix}${randomText(random, Math.floor(random() * 30))}`;
      const doc = `{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"$ref":${jsonString(`${name}#/r`)}}}}}}}`;
      const imported = await mcp(round, 'import_mock_file', { kind: 'openapi', name: 'fz', text: doc, apply: true });
      expect(imported).not.toContain(MARKER);
      const mockFile = `{"version":1,"endpoints":[{"name":"fz","data":{"$file":${jsonString(name)}}}]}`;
      const applied = await mcp(1000 + round, 'apply_mock_file', { text: mockFile });
      expect(applied).not.toContain(MARKER);
      expect(JSON.parse(applied).result.isError, applied).toBe(true);
    }
    expect(await (await fetch(`${daemon.url}/api/endpoint/fz`)).text()).not.toContain(MARKER);
    const { worstMs, failed, rssPeak } = await health.stop();
    expect(failed).toBe(0);
    expect(worstMs).toBeLessThan(FUZZ_HEALTH_BOUND_MS);
    expect(rssPeak / (1024 * 1024)).toBeLessThan(400);
  });
});
