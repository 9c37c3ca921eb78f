// The first half of `pnpm start`: make the clone ready to run the daemon, quietly
// and only as far as needed, then exit so the shell can `exec` the daemon.
// - Installs only when pnpm-lock.yaml differs from the last install (build-state.mjs).
// - Builds only the packages the daemon needs whose sources changed since their
//   last build (see build-state.mjs); the build's output is shown only on failure.
// Prints nothing when there is nothing to do. Node built-ins only: on a fresh clone
// this runs before anything is installed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isBuilt, isInstalled, ROOT, writeInstallStamp } from './build-state.mjs';

/** What the daemon runs from, in build order. */
const DAEMON_PACKAGES = [
  { name: '@mockpoint/core', dir: join(ROOT, 'packages', 'core') },
  { name: '@mockpoint/web', dir: join(ROOT, 'packages', 'web') },
  { name: '@mockpoint/server', dir: join(ROOT, 'packages', 'server') },
];

function say(message) {
  process.stdout.write(`start: ${message}\n`);
}

/** The pnpm running this script, or the one package.json names (through npx). */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && process.env.npm_config_user_agent?.startsWith('pnpm/') && existsSync(execPath)) {
    return /\.c?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  const manager = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).packageManager.split('+')[0];
  return ['npx', ['-y', manager]];
}

function runPnpm(args, { quiet }) {
  const [command, prefix] = pnpmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      cwd: ROOT,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ ok: code === 0, code: code ?? signal, output }));
  });
}

function fail(message, output = '') {
  if (output) process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
  process.stderr.write(`start: ${message}\n`);
  process.exit(1);
}

if (!isInstalled()) {
  say(existsSync(join(ROOT, 'node_modules')) ? 'pnpm-lock.yaml changed; installing' : 'installing dependencies');
  const result = await runPnpm(['install', '--frozen-lockfile'], { quiet: false });
  if (!result.ok) fail(`pnpm install failed (${result.code})`);
  writeInstallStamp(); // also done by the postinstall, unless scripts are off
}

const stale = DAEMON_PACKAGES.filter((pkg) => !isBuilt(pkg.dir));
if (stale.length > 0) {
  const names = stale.map((pkg) => pkg.name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  say(`building ${listed} (sources changed since the last build)`);
  const started = Date.now();
  const filters = names.flatMap((name) => ['--filter', name]);
  const result = await runPnpm([...filters, 'run', 'build'], { quiet: true });
  if (!result.ok) fail(`the build failed (${result.code}); its output is above`, result.output);
  say(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
