// The first half of `pnpm start` (and of `pnpm mockpoint <command>`): make the clone ready to run the daemon, quietly
// and only as far as needed, then exit so the shell can `exec` the daemon.
// - Installs only when pnpm-lock.yaml differs from the last install (build-state.mjs),
//   and then only what the daemon needs: @mockpoint/server, the workspace packages
//   it builds from (core, web) and their own dependencies, build tools included
//   (tsup, typescript, esbuild, declared by the packages that build with them), and
//   the root's (pnpm always installs those: lint and test tools), but not the
//   runtimes only the runtime contract runs on (bun, deno), the examples, nor the
//   server tests' own tools (@mockpoint/server-test, packages/server/test/package.json).
//   `pnpm test` installs the rest.
// - Builds only the packages the daemon needs whose sources changed since their
//   last build (see build-state.mjs).
// Says in one line what it does, when it does anything; the output of pnpm install
// and of the build is shown only when they fail. Node built-ins only: on a fresh
// clone this runs before anything is installed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAEMON_FILTER, DAEMON_PACKAGES, isBuilt, isInstalled, ROOT, writeInstallStamp } from './build-state.mjs';

// On stderr: `pnpm -s mockpoint export > file.json` (the same script) keeps stdout for the command.
function say(message) {
  process.stderr.write(`start: ${message}\n`);
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

/** Runs pnpm with its output kept, to be shown only if it fails. */
function runPnpm(args) {
  const [command, prefix] = pnpmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
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

const install = !isInstalled();
const stale = DAEMON_PACKAGES.filter((pkg) => install || !isBuilt(pkg.dir));
if (install || stale.length > 0) {
  const names = stale.map((pkg) => pkg.name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const why = !install
    ? 'sources changed since the last build'
    : existsSync(join(ROOT, 'node_modules'))
      ? 'pnpm-lock.yaml changed'
      : 'first run';
  say(`${install ? "installing the daemon's dependencies and building" : 'building'} ${listed} (${why}) …`);
  if (install) {
    const result = await runPnpm(['install', '--frozen-lockfile', '--filter', DAEMON_FILTER]);
    if (!result.ok) fail(`pnpm install failed (${result.code}); its output is above`, result.output);
    writeInstallStamp();
  }
  const filters = names.flatMap((name) => ['--filter', name]);
  const result = await runPnpm([...filters, 'run', 'build']);
  if (!result.ok) fail(`the build failed (${result.code}); its output is above`, result.output);
}
