// Every shell snippet of README.md and docs/*.md runs as written, against a daemon this test
// spawns (the built CLI, in memory, on a free port; one for the file, reset before each page): each page's snippets in order, in a
// folder of their own, `localhost:16540` pointed at the daemon, `mockpoint` on PATH as the
// built CLI with MOCKPOINT_URL set. Each command must exit 0, and each HTTP answer of 400 or
// more must be one the snippet names in its text (e.g. `# 404 NO_ROUTE_MATCHED`). A snippet that
// starts a daemon of its own (`MOCKPOINT_HOSTS=… mockpoint`) gets it, on free ports put in place of
// 16540, 16541, 8081 and 8082, started in the background and ready before its next line. The snippets
// that cannot run here are listed below with the reason; TypeScript snippets are fragments of a
// test file (they use `mock`, `expect`, …): packages/vitest-plugin/test/doc-snippets.test.ts
// type-checks them all and runs the ones that are whole tests. Every page under docs/
// is covered; the snippets that need files of yours, Docker, Deno, Bun, Redis, fixed ports, a clone's
// `pnpm start` or the internet are in NOT_RUN.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { ROOT } from './build-state.mjs';

/**
 * Snippets not run, by page and the start of their first line, each with why. A snippet that
 * can run must not be here: the test fails on an entry that matches nothing.
 */
const NOT_RUN: Record<string, string> = {
  'README.md npx -y pnpm@10.34.9 start':
    'installs and starts a daemon on the fixed port (scripts/start.test.ts runs it); its second line is the whole test suite',
  'README.md mockpoint mcp ': 'its second line needs Claude Code (claude mcp add); docs/mcp.md runs the first',
  'README.md mockpoint --config mockpoint.yaml --watch': 'needs your mockpoint.yaml and OpenAPI document',
  'README.md MOCKPOINT_PROXY_ALLOW_HOSTS=api.example.com mockpoint':
    'proxies to api.example.com, which is not ours (packages/server/test/record.test.ts records a local upstream)',
  'README.md mockpoint verify --openapi openapi.yaml':
    "needs your API's OpenAPI document (examples/verify-in-ci runs verify; packages/server/test/coverage.test.ts runs coverage)",
  'README.md curl -X PUT localhost:16540/api/endpoints/order-paid/signature':
    'its send needs your receiver on port 3000 and your event.json (docs/webhooks.md runs signature checks and sends)',
  'docs/api.md MOCKPOINT_ADMIN_TOKEN=s3cret npx -y pnpm@10.34.9 start':
    "a clone's `pnpm start` (install and build: scripts/start.test.ts runs it); packages/server/test runs the token checks",
  'docs/container.md docker build -t mockpoint .': 'needs Docker and builds an image (scripts/container-test.sh)',
  'docs/container.md docker run': 'needs Docker, an image and a Redis of yours',
  'docs/container.md docker build -f Dockerfile.binary': 'needs Docker and builds an image (scripts/container-test.sh)',
  'docs/files.md mockpoint --config mockpoint.yaml': 'needs your mockpoint.yaml',
  'docs/files.md mockpoint import openapi.yaml': 'needs your openapi.yaml',
  'docs/files.md MOCKPOINT_PROXY_ALLOW_HOSTS=api.example.com mockpoint &':
    'records api.example.com, which is not ours (packages/server/test/record.test.ts)',
  'docs/grpc.md grpcurl -cacert':
    'needs grpcurl and a daemon with --https (packages/server/test/grpc-reflection.test.ts calls reflection and health)',
  'docs/har.md mockpoint import session.har': 'needs your HAR',
  'docs/https.md mockpoint --https --hosts api.github.com=github --proxy-pass-through':
    'passes registry.npmjs.org through to the internet',
  'docs/https.md mockpoint --https  ': 'runs your app.js',
  'docs/https.md mockpoint --hosts api.github.com=github':
    'its last curl fails on purpose (exit 56: the tunnel for TLS refused without --https)',
  'docs/https.md HTTPS_PROXY=': 'runs your app.js through a daemon with --https',
  'docs/verify.md mockpoint verify --openapi openapi.yaml':
    'needs your OpenAPI document and mock file (packages/server/test/verify.test.ts runs the CLI)',
  'docs/verify.md mockpoint verify --upstream':
    'needs a live API (packages/server/test/verify-live.test.ts replays against a local one)',
  'docs/verify.md curl -X POST localhost:16540/api/verify':
    'needs your openapi.json and openapi.yaml (packages/core/src/http/routes/verify.test.ts runs the API)',
  'docs/import.md mockpoint import ': 'needs your WireMock folder, stubs, HAR, Mockoon, Postman or json-server file',
  'docs/import.md mockpoint export --to wiremock --names api --out wiremock/mappings/api.json':
    'needs a running WireMock on port 8080 (packages/server/test runs WireMock 3.13.2)',
  'docs/import.md mockpoint export --to mockoon':
    'exports a name "api" that this daemon does not have (see import.md above it)',
  'docs/live.md curl -N ': 'a stream that never ends: run by the server tests',
  'docs/live.md mockpoint tail [name]': 'the synopsis, not a command',
  'docs/live.md mockpoint tail hook --url http://mocks.internal:16540': 'follows until stopped, from a daemon of yours',
  'docs/mcp.md claude mcp add': 'needs Claude Code',
  'docs/packages.md npx -y pnpm@10.34.9 tarballs': 'installs, builds and packs (scripts/check-packages.mjs in CI)',
  'docs/packages.md npm install -g': 'installs globally from the tarballs (scripts/check-packages.mjs installs them)',
  'docs/packages.md npm pkg set': 'installs from the tarballs into your project',
  'docs/replicas.md redis-server --bind':
    'starts Redis and three daemons on fixed ports (packages/server/test runs replicas)',
  'docs/replicas.md curl -X PUT': 'needs the three replicas behind nginx of the snippet above',
  'docs/runtimes.md bunx --bun': 'needs Bun and an installed package',
  'docs/runtimes.md pnpm build': 'builds and runs a test suite',
  'docs/runtimes.md npx -y pnpm@10.34.9 binaries': 'builds four executables (about 20 s each)',
  'docs/runtimes.md deno run': 'needs Deno and your server.ts',
  'docs/state.md mockpoint import db.json': 'needs your db.json',
  'docs/web.md MOCKPOINT_WRITE_SCREENSHOT=1': 'runs a browser test that rewrites docs/screenshot.png',
  'docs/webhooks.md curl -X POST localhost:16540/api/deliveries':
    'its second call takes the id the first answered (dlv_…): as written it is 404 (server tests run deliveries)',
  'docs/webhooks.md mockpoint send http://127.0.0.1:3000/webhooks':
    'needs your receiver on port 3000 and your event.json',
};

interface Snippet {
  page: string;
  line: number;
  text: string;
}

function snippets(page: string): Snippet[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  return [...text.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)].map((match) => ({
    page,
    line: text.slice(0, match.index).split('\n').length,
    text: match[1] as string,
  }));
}

function notRunKey(snippet: Snippet): string | undefined {
  const first = snippet.text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
  return Object.keys(NOT_RUN).find((key) => key === `${snippet.page} ${first}`.slice(0, key.length));
}

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`),
];
const temps: string[] = [];
const daemons: ChildProcess[] = [];

afterAll(() => {
  for (const daemon of daemons) if (daemon.exitCode === null) daemon.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function startDaemon(): Promise<string> {
  const daemon = spawn(
    process.execPath,
    [join(ROOT, 'packages/server/dist/cli.js'), '--port', '0', '--host', '127.0.0.1', '--memory'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  daemons.push(daemon);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    daemon.stdout.on('data', onData);
    daemon.stderr.on('data', onData);
    daemon.once('exit', () => reject(new Error(`the daemon exited:\n${output}`)));
  });
}

let shared: Promise<string> | undefined;

/**
 * The file's daemon, as a fresh start has it: one for every page (a daemon's start was most of a
 * short page), with `DELETE /api/endpoints` (every name, the journal, hosts, chaos and the clock
 * back as a fresh start has them) and every namespace deleted before each page after the first.
 */
async function freshDaemon(): Promise<string> {
  if (shared === undefined) {
    shared = startDaemon();
    return shared;
  }
  const url = await shared;
  const reset = await fetch(`${url}/api/endpoints`, { method: 'DELETE' });
  if (reset.status !== 204) throw new Error(`DELETE /api/endpoints answered ${reset.status}`);
  const { namespaces } = (await (await fetch(`${url}/api/namespaces`)).json()) as { namespaces: { name: string }[] };
  for (const { name } of namespaces) {
    const gone = await fetch(`${url}/api/namespaces/${encodeURIComponent(name)}`, { method: 'DELETE' });
    if (gone.status !== 204) throw new Error(`DELETE /api/namespaces/${name} answered ${gone.status}`);
  }
  return url;
}

/**
 * `mockpoint` as the snippets call it: a command runs as it is; the daemon (no command: no
 * argument, or flags only) starts in the background on the snippet's ports (SNIPPET_PORT,
 * SNIPPET_HTTPS_PORT) and the call returns once `/api/health` answers, as a person's next line
 * would wait for it; a daemon the snippet started before is stopped first (one port each). The
 * test stops the last one after the snippet (SNIPPET_PIDS).
 */
const MOCKPOINT_WRAPPER = (cli: string) => `#!/bin/sh
case "$1" in
  ''|-*) ;;
  *) exec ${cli} "$@" ;;
esac
for arg in "$@"; do case "$arg" in -h|--help|-v|--version) exec ${cli} "$@" ;; esac; done
if [ -z "$SNIPPET_PORT" ]; then echo "a snippet that starts a daemon must be run with SNIPPET_PORT" >&2; exit 2; fi
if [ -s "$SNIPPET_PIDS" ]; then
  old=$(cat "$SNIPPET_PIDS"); kill $old 2>/dev/null
  # Until its ports are let go (neither answers), not a fixed pause; at most 6 s.
  tries=0
  while { /usr/bin/curl -s -o /dev/null "http://127.0.0.1:$SNIPPET_PORT/api/health" || /usr/bin/curl -sk -o /dev/null "https://127.0.0.1:$SNIPPET_HTTPS_PORT/api/health"; } && [ $tries -lt 300 ]; do
    tries=$((tries + 1)); sleep 0.02
  done
fi
MOCKPOINT_PORT=$SNIPPET_PORT MOCKPOINT_HTTPS_PORT=$SNIPPET_HTTPS_PORT MOCKPOINT_HOST=127.0.0.1 ${cli} "$@" >"$SNIPPET_PIDS.log" 2>&1 &
echo $! >"$SNIPPET_PIDS"
tries=0
until /usr/bin/curl -s -o /dev/null "http://127.0.0.1:$SNIPPET_PORT/api/health"; do
  tries=$((tries + 1))
  if [ $tries -gt 300 ] || ! kill -0 $(cat "$SNIPPET_PIDS") 2>/dev/null; then cat "$SNIPPET_PIDS.log" >&2; exit 1; fi
  sleep 0.1
done
`;

/** Whether a snippet starts a daemon of its own (`mockpoint` with no command, maybe after variables or `&`). */
const STARTS_DAEMON = /^(?:[A-Z_]+=\S+ )*mockpoint(?: +-[^\n]*)?(?: *&)?(?: *#.*)?$/m;

/** The fixed ports the docs name (HTTP, HTTPS, `--serve` examples): a daemon snippet gets free ones instead. */
const FIXED_PORT = /\b(?:16540|16541|8081|8082)\b/g;

/** A free port for each fixed one, and the file the wrapper keeps its daemon's pid in. */
async function ownPorts(pids: string): Promise<{ ports: Map<string, number>; pids: string }> {
  const ports = new Map<string, number>();
  for (const port of ['16540', '16541', '8081', '8082']) ports.set(port, await freePort());
  return { ports, pids };
}

/** A free port on 127.0.0.1 (closed again at once). */
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

/** A folder with `mockpoint` (the built CLI) and `curl` (the real one, printing each answer's status on stderr). */
function binDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mockpoint-snippets-bin-'));
  temps.push(dir);
  writeFileSync(
    join(dir, 'mockpoint'),
    MOCKPOINT_WRAPPER(`"${process.execPath}" "${ROOT}packages/server/bin/mockpoint.js"`),
  );
  writeFileSync(
    join(dir, 'curl'),
    `#!/bin/sh\nexec /usr/bin/curl -sS -w '%{stderr}HTTP-STATUS %{http_code}\\n' "$@"\n`,
  );
  for (const file of ['mockpoint', 'curl']) chmodSync(join(dir, file), 0o755);
  return dir;
}

/** Stops the daemon a snippet started (its pid in `pids`), if it still runs. */
function stopDaemon(pids: string): void {
  try {
    process.kill(Number(readFileSync(pids, 'utf8').trim()), 'SIGKILL');
  } catch {
    // none started, or it has stopped
  }
}

/** Snippets that run in the clone (the README's, after `start`), not in a folder of their own. */
const IN_CLONE = ['README.md node packages/server/bin/mockpoint.js'];

function run(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the docs’ shell snippets run as written', () => {
  const all = PAGES.flatMap(snippets);

  it('every snippet not run is listed with its reason, and every listed one exists', () => {
    const used = new Set(all.map(notRunKey).filter(Boolean));
    expect(Object.keys(NOT_RUN).filter((key) => !used.has(key))).toEqual([]);
  });

  for (const page of PAGES) {
    const runnable = snippets(page).filter((snippet) => notRunKey(snippet) === undefined);
    if (runnable.length === 0) continue;
    it(`${page}: ${runnable.length} snippet(s), in order`, async () => {
      const url = await freshDaemon();
      const cwd = mkdtempSync(join(tmpdir(), 'mockpoint-snippets-'));
      temps.push(cwd);
      mkdirSync(cwd, { recursive: true });
      // The admin token a snippet passes on (`--token "$MOCKPOINT_ADMIN_TOKEN"`); the shared daemon
      // has none and takes any. A daemon a snippet starts gets none (it would require it).
      const { MOCKPOINT_ADMIN_TOKEN: _unused, ...inherited } = process.env;
      const daemonEnv = { ...inherited, PATH: `${binDir()}:${process.env.PATH}` };
      const env = { ...daemonEnv, MOCKPOINT_URL: url, MOCKPOINT_ADMIN_TOKEN: 'docs-snippet-token' };
      const host = url.slice('http://'.length);
      const failures: string[] = [];
      for (const snippet of runnable) {
        // A snippet that starts its own daemon talks to it, on ports of its own, instead.
        const own = STARTS_DAEMON.test(snippet.text) ? await ownPorts(join(cwd, `.daemon-${snippet.line}`)) : undefined;
        const script =
          own === undefined
            ? snippet.text.replace(/(?:localhost|127\.0\.0\.1):16540/g, host)
            : snippet.text.replace(FIXED_PORT, (port) => String(own.ports.get(port)));
        const snippetEnv =
          own === undefined
            ? env
            : {
                ...daemonEnv,
                MOCKPOINT_URL: `http://127.0.0.1:${own.ports.get('16540')}`,
                SNIPPET_PORT: String(own.ports.get('16540')),
                SNIPPET_HTTPS_PORT: String(own.ports.get('16541')),
                SNIPPET_PIDS: own.pids,
              };
        const started = performance.now();
        const first = snippet.text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
        const inClone = IN_CLONE.some((key) => `${snippet.page} ${first}`.startsWith(key));
        const result = await run(script, inClone ? ROOT : cwd, snippetEnv);
        if (own !== undefined) stopDaemon(own.pids);
        if (process.env.SNIPPETS_DEBUG)
          console.log(
            snippet.page,
            snippet.line,
            result.code,
            Math.round(performance.now() - started),
            result.stdout.slice(-300),
            result.stderr.slice(-300),
          );
        const statuses = [...result.stderr.matchAll(/^HTTP-STATUS (\d+)$/gm)].map((m) => Number(m[1]));
        const unnamed = statuses.filter((status) => status >= 400 && !snippet.text.includes(String(status)));
        if (result.code !== 0 || unnamed.length > 0) {
          failures.push(
            `${snippet.page}:${snippet.line}: exit ${result.code}${unnamed.length ? `, answered ${unnamed.join(', ')}` : ''}\n${result.stdout.slice(-600)}${result.stderr.slice(-600)}`,
          );
        }
      }
      expect(failures.join('\n\n')).toBe('');
    }, 600_000);
  }
});
