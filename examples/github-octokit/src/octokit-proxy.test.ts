// Octokit unchanged, with its default base URL (https://api.github.com), reaching
// the mocks through the daemon as its HTTPS proxy: the built daemon with --https
// and api.github.com mapped to endpoint `github`, and src/proxied-app.mjs run as a
// child process with HTTPS_PROXY and NODE_EXTRA_CA_CERTS (docs/https.md).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../../packages/server/dist/cli.js', import.meta.url));
const APP = fileURLToPath(new URL('./proxied-app.mjs', import.meta.url));
const run = promisify(execFile);

let daemon: ChildProcess | undefined;
let dir = '';
let url = '';
let ca = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockpoint-octokit-proxy-'));
  const args = ['--memory', '--port', '0', '--host', '127.0.0.1', '--https', '--https-port', '0'];
  const child = spawn(process.execPath, [CLI, ...args, '--hosts', 'api.github.com=github'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  daemon = child;
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`the daemon exited (${code}) before it was ready: ${out}`)));
  });
  url = /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? '';
  ca = /NODE_EXTRA_CA_CERTS=(\S+?)\)?$/m.exec(line)?.[1] ?? '';
  const put = await fetch(`${url}/api/endpoints/github/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        {
          match: { path: '/repos/:owner/:repo' },
          answer: { data: { name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}' }, template: true },
        },
      ],
    }),
  });
  expect(put.status).toBe(200);
}, 20_000);

afterAll(async () => {
  daemon?.kill();
  await rm(dir, { recursive: true, force: true });
});

it('Octokit with its default base URL, through HTTPS_PROXY, answered by the mock', async () => {
  const env = { PATH: process.env.PATH ?? '', HTTPS_PROXY: url, NODE_EXTRA_CA_CERTS: ca };
  const { stdout } = await run(process.execPath, [APP], { env, timeout: 15_000 });
  expect(JSON.parse(stdout)).toEqual({ status: 200, data: { name: 'app', full_name: 'acme/app' } });
  const journal = (await (await fetch(`${url}/api/endpoints/github/requests`)).json()) as {
    requests: { subpath: string; headers: Record<string, string> }[];
  };
  expect(journal.requests.map((entry) => [entry.subpath, entry.headers.host])).toEqual([
    ['/repos/acme/app', 'api.github.com'],
  ]);
  expect(journal.requests[0]?.headers['user-agent']).toMatch(/^octokit-rest\.js/);
});
