// The first half of `pnpm start` (and of `pnpm mockpoint <command>`): make the clone ready to
// run the daemon (scripts/ready.mjs), then exit so the shell can `exec` the daemon.
// Installs only what the daemon needs: @mockpoint/server, the workspace packages it builds
// from (core, web) and their own dependencies, build tools included (tsup, typescript,
// esbuild, declared by the packages that build with them), and the root's (pnpm always
// installs those: lint and test tools), but not the runtimes only the runtime contract runs
// on (bun, deno), the examples, nor the server tests' own tools (@mockpoint/server-test,
// packages/server/test/package.json). `pnpm test` installs the rest. Builds JavaScript only:
// the daemon reads no type declaration (scripts/build-types.mjs builds them for packing).
import { join } from 'node:path';
import { DAEMON_FILTER, DAEMON_PACKAGES, ROOT } from './build-state.mjs';
import { phaseLine, ready } from './ready.mjs';

// On stderr: `pnpm -s mockpoint export > file.json` (the same script) keeps stdout for the command.
const line = phaseLine('start');

function fail(message, output = '') {
  line.end();
  if (output) process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
  process.stderr.write(`start: ${message}\n`);
  process.exit(1);
}

if (await ready({ filters: [DAEMON_FILTER], packages: DAEMON_PACKAGES, what: 'the daemon', line, fail })) {
  // Built: the CLI runs without pnpm from now on, in any folder (pnpm's script only runs inside the clone).
  line.add(`the mockpoint command, from any folder: node ${join(ROOT, 'packages', 'server', 'bin', 'mockpoint.js')}`);
  line.end();
}
