#!/usr/bin/env node
// stripe-node's own API tests against a Stripe twin (docs/twins-stripe.md, "Proof"):
// `test/resources/generated_examples_test.spec.js` and `test/resources/Integration.spec.js`, which
// stripe-node runs against stripe-mock, run against the built daemon's twin with `unseen:
// "examples"` and no other setting, served at the root of a port of its own (`STRIPE_MOCK_PORT`),
// and their summary printed. stripe-node is not in this repository: check it out at its tag and
// install its dependencies (the npm tarball has no tests).
//
//   git clone --branch v22.5.0 --depth 1 <stripe-node> /tmp/stripe-node
//   (cd /tmp/stripe-node && npx -y yarn@1.22.22 install --frozen-lockfile --ignore-scripts)
//   npx -y pnpm@10.34.9 build && node scripts/stripe-node-suites.mjs /tmp/stripe-node [--evidence]
//
// With `--evidence`, the operations the suites called (from the daemon's journal, each request
// matched to the document's path) are written to docs/parity/stripe-node-<version>.json, which the
// parity ledger reads (scripts/parity-ledger.mjs).
//
// The daemon listens on 127.0.0.1 and is stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.mjs';

const sdk = process.argv[2];
const SUITES = ['test/resources/generated_examples_test.spec.js', 'test/resources/Integration.spec.js'];
if (sdk === undefined || !SUITES.every((suite) => existsSync(join(sdk, suite)))) {
  console.error('usage: node scripts/stripe-node-suites.mjs <stripe-node checkout with its dependencies>');
  process.exit(2);
}
const cli = resolve(import.meta.dirname, '../packages/server/bin/mockpoint.js');

const [port, twinPort] = [await freePort(), await freePort()];
const daemon = spawn(
  process.execPath,
  [cli, '--memory', '--port', String(port), '--twin', `stripe=${twinPort}`, '--journal-size', '20000'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);

/** `METHOD /template` of the document's operation a request's path is, or `undefined`. */
function operationOf(paths, method, path) {
  const found = Object.keys(paths)
    .filter((template) => paths[template][method.toLowerCase()] !== undefined)
    .filter((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  return found[0] === undefined ? undefined : `${method} ${found[0]}`;
}

/** Writes the operations the suites called to docs/parity/stripe-node-<version>.json. */
async function writeEvidence(passing) {
  const { load } = await import('../packages/twins/dist/index.js');
  const { document } = await load('stripe');
  const journal = await (await fetch(`http://127.0.0.1:${port}/api/endpoints/stripe/requests`)).json();
  const operations = new Set();
  for (const entry of journal.requests) {
    const found = operationOf(document.paths, entry.method, entry.path.split('?')[0].replace(/^\/endpoint\/[^/]+/, ''));
    if (found !== undefined) operations.add(found);
  }
  const version = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')).version;
  const file = resolve(import.meta.dirname, `../docs/parity/stripe-node-${version}.json`);
  const evidence = {
    provider: 'stripe',
    source: `stripe-node ${version}'s generated_examples_test and Integration suites (${passing} passing)`,
    operations: [...operations].sort(),
  };
  writeFileSync(file, `${JSON.stringify(evidence, null, 2)}\n`);
  console.log(`${operations.size} operations written to ${file}`);
}
try {
  await new Promise((ready, failed) => {
    daemon.stdout.on('data', (chunk) => String(chunk).includes('listening on') && ready());
    daemon.on('exit', (code) => failed(new Error(`the daemon exited ${code}`)));
  });
  const set = await fetch(`http://127.0.0.1:${port}/api/endpoints/stripe/twin`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'stripe', unseen: 'examples' }),
  });
  if (set.status !== 200) throw new Error(`PUT …/twin answered ${set.status}: ${await set.text()}`);
  const mocha = spawnSync('npx', ['mocha', '--no-parallel', '--reporter', 'dot', ...SUITES], {
    cwd: sdk,
    encoding: 'utf8',
    env: { ...process.env, STRIPE_MOCK_PORT: String(twinPort) },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${mocha.stdout}\n${mocha.stderr}`;
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(output)?.[1] ?? 0);
  const failing = count('failing');
  console.log(`stripe-node at ${sdk}: ${count('passing')} passing, ${failing} failing, ${count('pending')} pending`);
  if (failing > 0 || mocha.status !== 0) console.log(output.slice(output.indexOf('failing') - 40));
  else if (process.argv.includes('--evidence')) await writeEvidence(count('passing'));
  process.exitCode = mocha.status === 0 ? 0 : 1;
} finally {
  daemon.kill('SIGTERM');
}
