// Before the tests: make sure the system parts they drive for real are present.
// Chromium (Debian's package) runs the web page tests. When it is missing and we
// are root with apt-get (a fresh machine or CI), it is installed; otherwise the
// run stops here with one line saying what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function fail(message) {
  console.error(`preflight: ${message}`);
  process.exit(1);
}

if (!existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version']).status === 0;
  if (!isRoot || !hasApt) {
    fail(`${chromium} not found; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  console.log('preflight: installing chromium with apt-get (browser tests need it)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch {
    fail('apt-get install chromium failed; install it by hand and run the tests again');
  }
  if (!existsSync(chromium)) fail(`chromium installed but ${chromium} is still missing; set CHROMIUM_PATH`);
}
console.log(`preflight: chromium at ${chromium}`);
