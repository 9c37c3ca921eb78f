// The README's start command on this clone (installed and built): time from
// spawn to the daemon's listening line, and the lines printed before it.
// Usage: node bench/start.mjs [runs=5]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(?:npm_|pnpm_|INIT_CWD$|MOCKPOINT_PORT$)/i.test(key)),
);

function once() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mockpoint-bench-start-'));
  const started = performance.now();
  const child = spawn('npx', ['-y', 'pnpm@10.34.9', 'start', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    let ms;
    const onData = (chunk) => {
      output += chunk;
      const at = output.search(/^mockpoint \S+ listening on /m);
      if (ms === undefined && at !== -1) {
        ms = performance.now() - started;
        process.kill(-child.pid, 'SIGINT');
        resolve({ ms, lines: output.slice(0, at).split('\n').length - 1, exit: child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('close', (code, signal) => {
      rmSync(dataDir, { recursive: true, force: true });
      if (ms === undefined) reject(new Error(`start exited (${code ?? signal}) before listening:\n${output}`));
    });
  }).then(async (result) => {
    const [code, signal] = await new Promise((done) => {
      if (result.exit.exitCode !== null || result.exit.signalCode !== null)
        done([result.exit.exitCode, result.exit.signalCode]);
      else result.exit.once('exit', (c, s) => done([c, s]));
    });
    return { ms: result.ms, lines: result.lines, code, signal };
  });
}

const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
const times = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `start (npx -y pnpm@10.34.9 start, built clone), ${runs} runs, load ${loadavg()[0].toFixed(1)}: ` +
    `median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s, min ${(times[0] / 1000).toFixed(2)} s, ` +
    `max ${(times.at(-1) / 1000).toFixed(2)} s; lines before the listening line: ${[...new Set(results.map((r) => r.lines))].join('/')}; ` +
    `Ctrl-C exit: ${[...new Set(results.map((r) => r.code ?? r.signal))].join('/')}`,
);
