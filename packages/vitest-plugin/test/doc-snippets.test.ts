/**
 * The docs' TypeScript and JavaScript snippets as written (README.md, docs/*.md and the
 * packages' READMEs; the shell ones are scripts/doc-snippets.test.ts's):
 *
 * - every ```ts and ```js block is type-checked, in one `tsc` run, against the packages (their
 *   sources, as the `@mockpoint/source` condition resolves them) and the client libraries the
 *   docs name (openai, @octokit/rest, graphql-ws, …, as installed for the examples and tests).
 *   A fragment (`await mock.add(…)` with no test around it) is checked with the names its page
 *   gives it declared: `mock`, `client`, `expect` for all, and GIVEN's for the rest;
 * - every block that is a whole test file runs, in one child Vitest whose projects use the docs'
 *   own configs (the README's `setupFiles`, docs/vitest.md's plugin);
 * - every block, its types stripped, parses as a module on this Node (20: no `await using`), and
 *   the library ones (`createMockServer()` from `@mockpoint/vitest/server`, outside any test) run
 *   in plain Node as written.
 *
 * Before, only the WebSocket test snippets ran; the others were never compiled (`https.get(…, …)`
 * did not parse, `@mockpoint/vitest` has no `createMockServer` plugin option, …).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { isBuilt } from '../../../scripts/build-state.mjs';
import { runVitest } from './run-vitest.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const ROOT = fileURLToPath(new URL('../test-artifacts/doc-snippets/', import.meta.url));

const PAGES = [
  'README.md',
  'packages/core/README.md',
  'packages/server/README.md',
  'packages/vitest-plugin/README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`),
];

/**
 * The packages the snippets import besides `@mockpoint/vitest` and `@mockpoint/core` (which this
 * package resolves): each found where this repository installs it (an example or a test that
 * uses it), linked into the snippets' folder.
 */
const LIBRARIES: Record<string, string> = {
  '@mockpoint/server': 'packages/server',
  openai: 'examples/openai-stream/node_modules/openai',
  '@octokit/rest': 'examples/github-octokit/node_modules/@octokit/rest',
  '@octokit/graphql-schema': 'examples/github-graphql/node_modules/@octokit/graphql-schema',
  undici: 'examples/github-octokit/node_modules/undici',
  'graphql-ws': 'packages/server/test/node_modules/graphql-ws',
  'playwright-core': 'packages/server/test/node_modules/playwright-core',
  '@modelcontextprotocol/sdk': 'packages/server/node_modules/@modelcontextprotocol/sdk',
  express: 'packages/server/test/node_modules/express',
  '@types/express': 'packages/server/test/node_modules/@types/express',
  fastify: 'packages/server/test/node_modules/fastify',
  '@aws-sdk/client-bedrock-runtime': 'packages/server/test/node_modules/@aws-sdk/client-bedrock-runtime',
  '@smithy/node-http-handler': 'packages/server/test/node_modules/@smithy/node-http-handler',
  '@google/genai': 'packages/server/test/node_modules/@google/genai',
  ollama: 'packages/server/test/node_modules/ollama',
  '@pact-foundation/pact': 'packages/server/test/node_modules/@pact-foundation/pact',
};

/**
 * What a fragment's page gives it besides `mock`, `client` and `expect` (declared after the
 * fragment, so tsc's line numbers are the page's), by page and the start of its first line.
 */
const GIVEN: Record<string, string> = {
  'docs/api.md const hook = await mock.add(':
    "declare function sendWebhook(url: string): Promise<{ attempts: number }>;\ndeclare const users: import('@mockpoint/vitest').MockEndpoint;",
  'docs/api.md const [paid]': "declare const hook: import('@mockpoint/vitest').MockEndpoint;",
  'docs/api.md import { ConnectionError': 'declare function sendWebhook(url: string): Promise<unknown>;',
  'docs/graphql.md const github = await mock.api(':
    "declare const schema: typeof import('@octokit/graphql-schema').schema;\ndeclare function starRepository(id: string): Promise<void>;",
  'docs/files.md plugins: [': "import { mockpoint } from '@mockpoint/vitest/plugin';",
  'docs/llm.md const azure = new AzureOpenAI(': "import { AzureOpenAI } from 'openai';",
  "docs/llm.md import { Ollama } from 'ollama';": "declare const messages: import('ollama').Message[];",
  'docs/intercept.md plugins: [': "import { mockpoint } from '@mockpoint/vitest/plugin';",
  'docs/state.md const api = await mock.api(': 'interface User { id: number; name: string; role?: string }',
  'docs/webhooks.md const hook = await mock.add(': 'declare function sendWebhooks(url: string): Promise<void>;',
  'docs/webhooks.md const sent = await mock.deliver(':
    'declare const receiverUrl: string;\ndeclare const event: { type: string };\ndeclare const secret: string;',
};

/** Blocks not type-checked, each with why (by page and the start of the first line). */
const NOT_CHECKED: Record<string, string> = {
  "docs/sessions-carry.md import { test as base, expect } from '@playwright/test';":
    '@playwright/test is not installed here (the tests drive Chromium with playwright-core: packages/server/test/session-carry-e2e.test.ts)',
  'docs/live.md const source = new EventSource(':
    "a browser page's code: the DOM's types (MessageEvent) do not fit beside Node's, which core needs",
  // The walk "Adding a kind of answer": core's own files, to be written at the paths the page names
  // (their relative imports resolve only there). Followed, type-checked and tested there when the
  // walk was written (commit d53860b), then removed; not checked here.
  "docs/development.md import { z } from 'zod';": 'core source for packages/core/src/api/kinds/echo.ts',
  "docs/development.md import type { RespondAnswer } from '../../answer/endpoint-answer.js';":
    'core source for packages/core/src/engine/pipeline/echo-verdict.ts',
};

interface Block {
  page: string;
  line: number;
  lang: 'ts' | 'js';
  text: string;
  key: string;
}

function blocks(page: string): Block[] {
  const text = readFileSync(join(REPO, page), 'utf8');
  return [...text.matchAll(/^```(ts|js)\n([\s\S]*?)^```$/gm)].map((match) => {
    const body = match[2] as string;
    const first = body.split('\n').find((line) => line.trim() !== '' && !line.startsWith('//')) ?? '';
    return {
      page,
      line: text.slice(0, match.index).split('\n').length + 1,
      lang: match[1] as 'ts' | 'js',
      text: body,
      key: `${page} ${first}`,
    };
  });
}

const givenOf = (block: Block) => Object.entries(GIVEN).find(([key]) => block.key.startsWith(key))?.[1] ?? '';

/** A whole test file: it imports the test API and declares tests. */
const isTest = (block: Block) =>
  /^import .* from '(?:@mockpoint\/vitest|vitest)';$/m.test(block.text) && /^test\(/m.test(block.text);
/** One that needs the run's instance the plugin starts (`inject('mockpoint')`). */
const needsPlugin = (block: Block) => block.text.includes("inject('mockpoint')");
/** One that uses a test session (docs/sessions.md): run with `mockpoint({ sessions: true })`. */
const needsSessions = (block: Block) => /\{ session\b|currentSession\(/.test(block.text);

/** A library snippet: `createMockServer()` in plain Node, outside any test. */
const isLibrary = (block: Block) =>
  block.text.includes("from '@mockpoint/vitest/server';") && !isTest(block) && !block.text.includes('expect(');

/** The block as the JavaScript a user would run: its types stripped, nothing else changed. */
const asJavaScript = (block: Block) =>
  ts.transpileModule(block.text, {
    compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext },
  }).outputText;

/** Parses each file given as a module (vm.SourceTextModule) and prints `{ file: error }` for those that fail. */
const PARSE_EACH = `
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
const failed = {};
for (const file of process.argv.slice(1)) {
  try { new vm.SourceTextModule(readFileSync(file, 'utf8')); } catch (error) { failed[file] = String(error); }
}
process.stdout.write(JSON.stringify(failed));
`;

const fileOf = (block: Block) => `${block.page.replace(/[/.]/g, '-')}-${block.line}.${block.lang}`;

/** Links the client libraries into `dir`'s node_modules, as a project that installed them has them. */
function linkLibraries(dir: string): void {
  for (const [name, folder] of Object.entries(LIBRARIES)) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(REPO, folder)), link, 'dir');
  }
}

/** `node <args>` in `cwd`, killed after `timeout` ms (60 s): its exit status and output. */
function runNode(
  args: string[],
  cwd: string,
  timeout = 60_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const options = { cwd, encoding: 'utf8' as const, timeout, maxBuffer: 64 * 1024 * 1024 };
    execFile(process.execPath, args, options, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number' && !error.killed) reject(error);
      else resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    lib: ['ES2023', 'ESNext.Disposable'],
    noUncheckedIndexedAccess: true,
    types: ['node'],
    customConditions: ['@mockpoint/source'],
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    // Kept beside the snippets' folder (which each run rewrites): a rerun checks only what changed.
    incremental: true,
    tsBuildInfoFile: '../doc-snippets.tsbuildinfo',
  },
  include: ['check/*.ts', 'check/*.js'],
};

const CONTEXT = [
  '// What every fragment has: the `mock` fixture (or createMockServer()), a client, the matchers.',
  "import type { MockpointClient } from '@mockpoint/core';",
  "import type { MockServer } from '@mockpoint/vitest';",
  'declare global {',
  '  const mock: MockServer;',
  '  const client: MockpointClient;',
  "  const expect: typeof import('@mockpoint/vitest').expect;",
  '}',
  'export {};',
  '',
].join('\n');

describe('the docs’ TypeScript snippets', { timeout: 300_000 }, () => {
  const all = PAGES.flatMap(blocks);
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(join(ROOT, 'check'), { recursive: true });
  // What every test below reads: the libraries the snippets import, the tsconfig, the fragments' context.
  beforeAll(() => {
    linkLibraries(ROOT);
    writeFileSync(join(ROOT, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(ROOT, 'check', 'context.ts'), CONTEXT);
  });

  it('every GIVEN and NOT_CHECKED entry names a snippet', () => {
    const keys = [...Object.keys(GIVEN), ...Object.keys(NOT_CHECKED)];
    const unused = keys.filter((key) => !all.some((block) => block.key.startsWith(key)));
    expect(unused).toEqual([]);
  });

  it('each one, its types stripped, parses as a module on this Node (no `await using` on Node 20)', () => {
    const dir = join(ROOT, 'node');
    mkdirSync(dir, { recursive: true });
    const files = all.map((block) => {
      const file = join(dir, fileOf(block).replace(/\.(ts|js)$/, '.mjs'));
      writeFileSync(file, asJavaScript(block));
      return file;
    });
    const parse = spawnSync(
      process.execPath,
      ['--experimental-vm-modules', '--no-warnings', '--input-type=module', '-e', PARSE_EACH, ...files],
      { encoding: 'utf8' },
    );
    expect(parse.status, parse.stderr).toBe(0);
    const failed = Object.entries(JSON.parse(parse.stdout) as Record<string, string>).map(([file, error]) => {
      const block = all[files.indexOf(file)] as Block;
      return `${block.page}:${block.line}: ${error}`;
    });
    expect(failed, `Node ${process.version}`).toEqual([]);
  });

  it('the library snippets (createMockServer outside a test) run in plain Node as written', async () => {
    const library = all.filter(isLibrary);
    expect(library.map((block) => block.page)).toEqual(expect.arrayContaining(['README.md', 'docs/https.md']));
    const dir = join(ROOT, 'run');
    mkdirSync(dir, { recursive: true });
    // docs/files.md's reads mockpoint.yaml from the working directory.
    writeFileSync(
      join(dir, 'mockpoint.yaml'),
      'version: 1\nendpoints:\n  - name: greeting\n    data: { hello: yaml }\n',
    );
    // At once: each is a Node process of its own, mostly waiting on its start.
    const runs = await Promise.all(
      library.map(async (block) => {
        const file = join(dir, fileOf(block).replace(/\.(ts|js)$/, '.mjs'));
        writeFileSync(file, asJavaScript(block));
        return { block, run: await runNode([file], dir) };
      }),
    );
    for (const { block, run } of runs) {
      expect(run.status, `${block.page}:${block.line}\n${run.stdout}${run.stderr}`).toBe(0);
      if (block.page === 'README.md') expect(run.stdout).toContain("{ event: 'paid' }");
    }
  });

  // The two long ones (a tsc run, a child Vitest; about 25 s each, each mostly one core) run at once,
  // after the short ones: their files are apart (check/ against tests/ and vitest.config.ts).
  it.concurrent('each one type-checks as written (one tsc run)', async () => {
    const checked = all.filter((block) => !Object.keys(NOT_CHECKED).some((key) => block.key.startsWith(key)));
    for (const block of checked) {
      const module = /^(?:import|export) /m.test(block.text) ? '' : 'export {};\n';
      writeFileSync(join(ROOT, 'check', fileOf(block)), `${block.text}${module}${givenOf(block)}\n`);
    }
    // From the repository's root, as before: each error's path (below) is read relative to it.
    const tsc = await runNode([join(REPO, 'node_modules/typescript/bin/tsc'), '-p', ROOT], REPO, 280_000);
    // Each error at its page and line.
    const errors = tsc.stdout
      .split('\n')
      .filter((line) => /^\S.*check\/[^(]+\(\d+,\d+\): /.test(line))
      .map((line) => {
        const [, file, row, rest] = /check\/([^(]+)\((\d+),\d+\): (.*)$/.exec(line) ?? [];
        const block = all.find((one) => fileOf(one) === file);
        return block === undefined ? line : `${block.page}:${block.line + Number(row) - 1}: ${rest}`;
      });
    expect(errors.join('\n'), tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  });

  it.concurrent('each whole test file runs, in one child Vitest with the docs’ configs', async () => {
    const tests = all.filter(isTest);
    expect(tests.length).toBeGreaterThanOrEqual(5);
    // They run on the packages' dist/ (below): built from the sources as they are now.
    expect(isBuilt(join(REPO, 'packages/vitest-plugin')), 'dist/ is older than the sources: run `pnpm build`').toBe(
      true,
    );
    const plugin: string[] = [];
    const sessions: string[] = [];
    for (const block of tests) {
      const file = fileOf(block).replace(/\.ts$/, '.test.ts');
      // A test of the run's instance gets a run of its own (one instance each, as in a user's project).
      if (needsPlugin(block)) plugin.push(file);
      // Tests with sessions share one project: one daemon, a namespace per test, as docs/sessions.md's config.
      else if (needsSessions(block)) sessions.push(file);
      mkdirSync(join(ROOT, 'tests'), { recursive: true });
      writeFileSync(join(ROOT, 'tests', file), block.text);
    }
    const setup = tests
      .map((block) => fileOf(block).replace(/\.ts$/, '.test.ts'))
      .filter((file) => !plugin.includes(file) && !sessions.includes(file));
    writeFileSync(
      join(ROOT, 'vitest.config.ts'),
      [
        "import { mockpoint } from '@mockpoint/vitest/plugin';",
        "import { defineConfig } from 'vitest/config';",
        // The docs' two configs (README: setupFiles; docs/vitest.md: the plugin), reading the
        // packages as a user's project does: their exports' built files (dist/, which `pnpm test`
        // builds first; the library snippets above run on them too). Vite transformed the packages'
        // TypeScript sources once per project and file before: a third of the child's CPU.
        'export default defineConfig({',
        '  test: {',
        '    projects: [',
        `      { test: { name: 'setup', include: ${JSON.stringify(setup.map((file) => `tests/${file}`))}, setupFiles: ['@mockpoint/vitest/setup'], testTimeout: 30_000 } },`,
        ...plugin.map(
          (file) =>
            `      { plugins: [mockpoint()], test: { name: '${file}', include: ['tests/${file}'], testTimeout: 30_000 } },`,
        ),
        ...(sessions.length === 0
          ? []
          : [
              `      { plugins: [mockpoint({ sessions: true })], test: { name: 'sessions', include: ${JSON.stringify(sessions.map((file) => `tests/${file}`))}, testTimeout: 30_000 } },`,
            ]),
        '    ],',
        '  },',
        '});',
        '',
      ].join('\n'),
    );
    // The child runs every snippet file: 22 s alone, past 120 s once at load 7 (three files at a time and
    // an install and build beside): bounded just under the describe's 300 s, so that the child's own output is what fails.
    const run = await runVitest(ROOT, {}, 280_000);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(new RegExp(`Test Files\\s+${tests.length} passed \\(${tests.length}\\)`));
  });
});
