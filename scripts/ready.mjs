// Makes the clone ready to run or pack a set of workspace packages, quietly and only as far
// as needed: used by `pnpm start` / `pnpm mockpoint` (scripts/start.mjs: the daemon's
// packages) and by `pnpm tarballs` (scripts/pack-packages.mjs: the published ones).
// - Installs only when pnpm-lock.yaml differs from the last install, or that install did not
//   cover these packages (build-state.mjs), and then only what they and their builds need
//   (pnpm's `--filter <package>...`, plus the root's, which pnpm always installs).
// - Builds, JavaScript only, the packages whose sources changed since their last build.
// One line for all phases on stderr (`pnpm -s mockpoint export > file.json` keeps stdout for the
// command); pnpm's and the build's output are shown only when they fail. Node built-ins
// only: on a fresh clone this runs before anything is installed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installGap, isBuilt, ROOT, writeInstallStamp } from './build-state.mjs';

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

/** How many packages node_modules holds: the entries of pnpm's virtual store (node_modules/.pnpm). */
function installedPackages() {
  try {
    return readdirSync(join(ROOT, 'node_modules', '.pnpm')).filter(
      (entry) => entry !== 'node_modules' && entry !== 'lock.yaml',
    ).length;
  } catch {
    return 0;
  }
}

function seconds(since) {
  return `${Math.round((performance.now() - since) / 1000)} s`;
}

/**
 * One line on stderr for every phase of getting ready: `start: installing … (first run) … 791
 * packages in 40 s; building @mockpoint/core, @mockpoint/server … built in 9 s; …`, each phase
 * added as it begins (a person sees what it waits for) and finished in place; `end` ends the
 * line (nothing when none began). Before, each phase start and end was a line of its own, and
 * `pnpm start` after a pull printed 6 lines before the daemon's.
 */
export function phaseLine(prefix) {
  let open = false;
  return {
    /** Begins a phase: the line's start, or `; text` after the phases before. */
    add(text) {
      process.stderr.write(open ? `; ${text}` : `${prefix}: ${text}`);
      open = true;
    },
    /** Finishes the phase in place (` 791 packages in 40 s`). */
    more(text) {
      process.stderr.write(` ${text}`);
    },
    end() {
      if (open) process.stderr.write('\n');
      open = false;
    },
  };
}

/**
 * Installs (if needed) what `filters` select and builds the stale ones of `packages`
 * ({ name, dir }, in build order), on `line` (a {@link phaseLine}). `fail` ends the line, prints
 * pnpm's output and a last line, and does not return. Returns whether it installed or built anything.
 */
export async function ready({ filters, packages, what, line, fail }) {
  const why = installGap(filters);
  const install = why !== undefined;
  const stale = packages.filter((pkg) => install || !isBuilt(pkg.dir));
  if (install) {
    line.add(`installing ${what}'s dependencies (${why}) …`);
    const started = performance.now();
    const result = await runPnpm(['install', '--frozen-lockfile', ...filters.flatMap((f) => ['--filter', f])]);
    if (!result.ok) fail(`pnpm install failed (${result.code}); its output is above`, result.output);
    writeInstallStamp(filters);
    line.more(`${installedPackages()} packages in node_modules, in ${seconds(started)}`);
  }
  if (stale.length > 0) {
    line.add(`building ${stale.map((pkg) => pkg.name).join(', ')} …`);
    const started = performance.now();
    for (const pkg of stale) {
      const result = await runPnpm(['--filter', pkg.name, 'run', 'build']);
      if (!result.ok) fail(`the build of ${pkg.name} failed (${result.code}); its output is above`, result.output);
    }
    line.more(`built in ${seconds(started)}`);
  }
  return install || stale.length > 0;
}
