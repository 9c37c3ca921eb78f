// The order the root config starts the test files in (vitest-sequencer.ts), read from the real
// config: every file of the run, the known slow ones first and longest first, each project that
// runs without isolation one block, and the `clone` project last.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { SLOW_TEST_FILES } from './slow-test-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * In a Node of its own (this worker resolves the packages to their TypeScript sources, which the
 * projects' configs cannot import in plain Node): the root config's files, as its sequencer orders
 * them after Vitest has read each file's size, as a run does. One line a file.
 */
const ORDER = `
import { createVitest } from 'vitest/node';
const vitest = await createVitest('test', { root: process.cwd(), watch: false, reporters: [] });
const specs = await vitest.globTestSpecifications();
await vitest.cache.stats.populateStats(process.cwd(), specs);
const sorted = await new vitest.config.sequence.sequencer(vitest).sort(specs);
const keyOf = (spec) => spec.project.name + ':' + spec.moduleId.slice(process.cwd().length + 1);
console.log(JSON.stringify({
  sequencer: vitest.config.sequence.sequencer.name,
  files: specs.map(keyOf),
  sorted: sorted.map((spec) => ({ key: keyOf(spec), project: spec.project.name, isolate: spec.project.config.isolate })),
}));
await vitest.close();
`;

interface Order {
  sequencer: string;
  files: string[];
  sorted: { key: string; project: string; isolate: boolean }[];
}

describe("the root config's order of the test files", () => {
  let order: Order;
  const estimateOf = (key: string) => SLOW_TEST_FILES[key] ?? 0;

  beforeAll(async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', ORDER],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
        (error, out, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(out)),
      );
    });
    order = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Order;
    expect(order.sequencer).toBe('SlowFirstSequencer');
  });

  it('has every file once, and every listed slow file is one of them', () => {
    const keys = order.sorted.map((file) => file.key);
    expect([...keys].sort()).toEqual([...order.files].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(SLOW_TEST_FILES).filter((key) => !order.files.includes(key))).toEqual([]);
  });

  it('starts the slow isolated files first, longest first, before every short one', () => {
    const isolated = order.sorted.filter(
      (file) => file.isolate !== false && file.project !== 'quiet' && file.project !== 'clone',
    );
    const estimates = isolated.map((file) => estimateOf(file.key));
    expect(estimates).toEqual([...estimates].sort((a, b) => b - a));
    const listed = isolated.filter((file) => estimateOf(file.key) > 0).length;
    expect(listed).toBeGreaterThanOrEqual(40);
    // The files that were a tail on a fresh clone (started near the end, of 530 files): now among
    // the first (the blocks of server-web and core, which run on every worker, aside).
    const first = order.sorted
      .filter((file) => !['core', 'server-web'].includes(file.project))
      .slice(0, 20)
      .map((file) => file.key);
    expect(first).toEqual(
      expect.arrayContaining([
        'vitest-plugin:packages/vitest-plugin/test/vitest-run.test.ts',
        'vitest-plugin:packages/vitest-plugin/test/published-types.test.ts',
      ]),
    );
    expect(first[0]).toBe('server:packages/server/test/namespace-lifecycle.test.ts');
  });

  it('keeps each project without isolation one block, so that its workers carry on to its next file', () => {
    const shared = [...new Set(order.sorted.filter((file) => file.isolate === false).map((file) => file.project))];
    expect(shared).toEqual(expect.arrayContaining(['core', 'server-web']));
    for (const name of shared) {
      const at = order.sorted.flatMap((file, index) => (file.project === name ? [index] : []));
      expect((at.at(-1) as number) - (at[0] as number), name).toBe(at.length - 1);
    }
  });

  it('runs the quiet project after the rest, longest first, and before clone', () => {
    const quiet = order.sorted.filter((file) => file.project === 'quiet');
    expect(quiet.length).toBeGreaterThanOrEqual(10);
    const clone = order.sorted.filter((file) => file.project === 'clone').length;
    const end = order.sorted.length - clone;
    expect(order.sorted.slice(end - quiet.length, end).map((file) => file.project)).toEqual(quiet.map(() => 'quiet'));
    const estimates = quiet.map((file) => estimateOf(file.key));
    expect(estimates).toEqual([...estimates].sort((a, b) => b - a));
    expect(quiet[0]?.key).toBe('quiet:packages/openapi-documents/test/import-whole.test.ts');
  });

  it('runs the clone project alone and last', () => {
    const clone = order.sorted.filter((file) => file.project === 'clone');
    expect(clone.length).toBeGreaterThanOrEqual(3);
    expect(order.sorted.slice(-clone.length).map((file) => file.project)).toEqual(clone.map(() => 'clone'));
  });
});
