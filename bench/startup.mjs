// Start-up cost of mockpoint instances, from the built packages (`pnpm build` first).
//
//   node bench/startup.mjs [--runs 100] [--daemon-runs 10]
//
// 1. createMockServer() + close() in this process, memory store (the per-suite path),
//    and with a LevelDB store in a temporary directory;
// 2. the daemon's cold start: spawn `node packages/server/dist/cli.js --memory --port 0`
//    and wait for its start-up line.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100' }, 'daemon-runs': { type: 'string', default: '10' } },
});
const RUNS = Number(values.runs);
const DAEMON_RUNS = Number(values['daemon-runs']);
const LEVEL_RUNS = Math.min(RUNS, 20);

const serverEntry = fileURLToPath(new URL('../packages/vitest-plugin/dist/server.js', import.meta.url));
const cli = fileURLToPath(new URL('../packages/server/dist/cli.js', import.meta.url));
for (const file of [serverEntry, cli]) {
  if (!existsSync(file)) {
    console.error(`bench/startup: ${file} is missing; run \`pnpm build\` first`);
    process.exit(1);
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (ms) => `${ms.toFixed(2)} ms`;
  return `median ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, min ${f(sorted[0])}, max ${f(sorted.at(-1))} (n=${sorted.length})`;
}

async function inProcess(createMockServer, runs, options) {
  const total = [];
  const start = [];
  const close = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const server = await createMockServer(options);
    const t1 = performance.now();
    await server.close();
    const t2 = performance.now();
    start.push(t1 - t0);
    close.push(t2 - t1);
    total.push(t2 - t0);
  }
  return { total, start, close };
}

function daemonColdStart() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, '--memory', '--port', '0', '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the daemon printed no start-up line within 10 s:\n${out}`));
    }, 10_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('listening on')) {
        const elapsed = performance.now() - t0;
        clearTimeout(timer);
        child.once('close', () => resolve(elapsed));
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.once('error', reject);
  });
}

const importStart = performance.now();
const { createMockServer } = await import(serverEntry);
const importMs = performance.now() - importStart;

const firstStart = performance.now();
await (await createMockServer()).close();
const firstMs = performance.now() - firstStart;

await inProcess(createMockServer, 10); // warm-up, not reported
const memory = await inProcess(createMockServer, RUNS);
const level = await inProcess(createMockServer, LEVEL_RUNS, { store: 'level' });

const daemon = [];
for (let i = 0; i < DAEMON_RUNS; i++) daemon.push(await daemonColdStart());

console.log(`mockpoint start-up (node ${process.version}, ${process.platform}/${process.arch})`);
console.log(`  import @mockpoint/vitest/server (dist):        ${importMs.toFixed(1)} ms`);
console.log(`  first createMockServer() + close():            ${firstMs.toFixed(1)} ms`);
console.log(`  createMockServer() + close(), memory:          ${summary(memory.total)}`);
console.log(`    start only:                                  ${summary(memory.start)}`);
console.log(`    close only:                                  ${summary(memory.close)}`);
console.log(`  createMockServer({ store: 'level' }) + close(): ${summary(level.total)}`);
console.log(`  daemon cold start (spawn to start-up line):    ${summary(daemon)}`);
