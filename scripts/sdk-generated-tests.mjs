#!/usr/bin/env node
// An SDK's own generated API tests against mockpoint (docs/twins.md, "A twin of any document"):
// openai-node's `tests/api-resources` (a Stainless SDK: it runs them against a mock server of its
// OpenAPI document) run against the plain import of that document, then against the twin made of
// it (`import --stateful --unseen examples`), each on a daemon of its own, and the two summaries
// printed. The SDK is not in this repository: clone it at its tag and install its dependencies.
//
//   git clone --branch v7.5.0 --depth 1 <openai-node> /tmp/openai-node
//   (cd /tmp/openai-node && npx -y pnpm@10.34.9 install --ignore-scripts \
//      --config.manage-package-manager-versions=false)
//   npx -y pnpm@10.34.9 build && node scripts/sdk-generated-tests.mjs /tmp/openai-node
//
// With `--checked` (`pnpm sdk:openai /tmp/openai-node`), each run goes through a proxy that checks
// every answer against the document's response schemas for its operation and status
// (scripts/answer-checker.mjs): the run fails when one breaks them, each violation listed as its
// operation, status, JSON path and rule.
//
// Every process listens on 127.0.0.1 and is stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startAnswerChecker } from './answer-checker.mjs';
import { freePort } from './free-port.mjs';

const args = process.argv.slice(2);
const checked = args.includes('--checked');
const sdk = args.find((arg) => arg !== '--checked');
if (sdk === undefined || !existsSync(join(sdk, 'api_reference/openapi.transformed.yml'))) {
  console.error('usage: node scripts/sdk-generated-tests.mjs [--checked] <openai-node checkout with its dependencies>');
  process.exit(2);
}
const cli = resolve(import.meta.dirname, '../packages/server/bin/mockpoint.js');
const documentPath = join(sdk, 'api_reference/openapi.transformed.yml');
const work = mkdtempSync(join(tmpdir(), 'mockpoint-sdk-'));

/** The SDK's generated API tests (jest), their output and exit status. */
function runJest(env) {
  return new Promise((done, failed) => {
    const child = spawn('npx', ['jest', '--runInBand', 'tests/api-resources'], { cwd: sdk, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', failed);
    child.on('close', (status) => done({ stdout, stderr, status }));
  });
}

async function runAgainst(label, importArgs, name) {
  const file = join(work, `${name}.json`);
  const made = spawnSync(
    process.execPath,
    [cli, 'import', documentPath, '--name', name, ...importArgs, '--out', file],
    {
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) throw new Error(`import (${label}) failed: ${made.stderr}`);
  const port = await freePort();
  const daemon = spawn(process.execPath, [cli, '--memory', '--port', String(port), '--config', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ready, failed) => {
    daemon.stdout.on('data', (chunk) => String(chunk).includes('listening on') && ready());
    daemon.on('exit', (code) => failed(new Error(`the daemon (${label}) exited ${code}`)));
  });
  const prefix = `/endpoint/${name}`;
  let checker;
  try {
    if (checked) checker = await startAnswerChecker({ target: `http://127.0.0.1:${port}`, documentPath, prefix });
    // Not spawnSync: the checker answers in this process, so its event loop must run meanwhile.
    const jest = await runJest({
      ...process.env,
      TEST_API_BASE_URL: `${checker?.url ?? `http://127.0.0.1:${port}`}${prefix}`,
    });
    const summary = `${jest.stdout}\n${jest.stderr}`.split('\n').find((line) => line.startsWith('Tests:'));
    console.log(`${label}: ${summary ?? `no summary (jest exited ${jest.status})`}`);
    if (checker === undefined) return jest.status === 0;
    const { violations } = checker;
    console.log(
      `${label}: ${checker.checked()} answers checked against the document's response schemas, ` +
        `${violations.length} violation(s), ${checker.unchecked()} not checked`,
    );
    for (const v of violations) console.log(`  ${v.operation} ${v.status} at ${v.path}: ${v.rule}`);
    return jest.status === 0 && violations.length === 0;
  } finally {
    await checker?.close();
    daemon.kill('SIGTERM');
  }
}

try {
  const plain = await runAgainst('plain import', [], 'openai');
  const twin = await runAgainst('twin (--stateful --unseen examples)', ['--stateful', '--unseen', 'examples'], 'twin');
  process.exitCode = plain && twin ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
