// Before the tests: make sure the system parts they drive for real are present —
// Debian's chromium (web page tests), curl (the daemon-curl example), redis-server
// (the Redis store and replicas), nginx (the README's proxy blocks) and qemu-user
// with the arm64 C and C++ libraries (the linux-arm64 single executable, run
// emulated: packages/server/test/binary-arm64.test.ts). When one
// is missing and we are root with apt-get (a fresh machine, CI), it is installed;
// otherwise the run stops here with one line saying what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const onPath = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
const missing = [];
if (!existsSync(chromium)) missing.push('chromium');
for (const bin of ['curl', 'redis-server', 'nginx']) if (!onPath(bin)) missing.push(bin);
const FILES = {
  'qemu-user': '/usr/bin/qemu-aarch64',
  'libc6-arm64-cross': '/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1',
  'libstdc++6-arm64-cross': '/usr/aarch64-linux-gnu/lib/libstdc++.so.6',
};
for (const [pkg, file] of Object.entries(FILES)) if (!existsSync(file)) missing.push(pkg);

function fail(message) {
  console.error(`preflight: ${message}`);
  process.exit(1);
}

if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    fail(`missing ${missing.join(', ')}; install Debian's package(s): apt-get install ${missing.join(' ')}`);
  }
  console.log(`preflight: installing ${missing.join(' ')} with apt-get (the tests drive them for real)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  } catch {
    fail(`apt-get install ${missing.join(' ')} failed; install it by hand and run the tests again`);
  }
  if (!existsSync(chromium)) fail(`chromium installed but ${chromium} is still missing; set CHROMIUM_PATH`);
}
console.log(
  `preflight: chromium at ${chromium}; curl, redis-server and nginx on PATH; qemu-aarch64 and the arm64 libraries`,
);
