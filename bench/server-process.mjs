// Starting and stopping the servers a benchmark measures, each a process of its own: the
// mockpoint CLI (on Node or Bun), a bare node:http server or a bare Bun.serve. Shared by bench/run.mjs, bench/streams.mjs and bench/replicas.mjs.
import { spawn } from 'node:child_process';

/**
 * Spawns `node ...args` (with BENCH_NODE_FLAGS before them; or `command ...args`, e.g. the `bun` binary) with `env` added and resolves with `{ child, url }` once it prints
 * `listening on <url>`; rejects when it exits first (with what it printed). With `children`
 * (a Set), the child is added to it at once, so that a caller can kill what it started even
 * when a start never finishes.
 */
export function start(args, env = {}, children = undefined, command = process.execPath) {
  // BENCH_NODE_FLAGS: flags for each Node server started (`--cpu-prof --cpu-prof-dir=/tmp/prof`: its
  // profile, written when it stops; NODE_OPTIONS does not take --cpu-prof).
  const flags = command === process.execPath ? (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) : [];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...flags, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children?.add(child);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1].replace('localhost', '127.0.0.1') });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening: ${out}`)));
  });
}

/** Stops a started server with SIGTERM (by its PID) and resolves once it has exited. */
export function stop({ child }) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}
