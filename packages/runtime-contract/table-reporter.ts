/**
 * A Vitest reporter that turns this run's runtime-contract results into the
 * README's "Runtimes" table: printed after every run that includes the
 * contract, and written into README.md (between its runtimes-table markers) when
 * `MOCKPOINT_RUNTIMES_README=1` (`pnpm runtimes:readme`).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

const README = join(fileURLToPath(new URL('../..', import.meta.url)), 'README.md');
const START = '<!-- runtimes-table:start -->';
const END = '<!-- runtimes-table:end -->';
const PROJECT = 'runtime-contract';
/** Suites of the contract are named `<id>: <label> — <how it runs>`. */
const SUITE = /^(\w+): (.+?) — (.+)$/;
/** Which column each runner of ../test/native-runners.test.ts speaks for. */
const NATIVE_RUNNER: Record<string, string> = { 'bun test': 'bun', 'deno test': 'deno' };
const NATIVE_ROW = '`createMockServer()` under the runtime’s own test runner';

interface Column {
  id: string;
  label: string;
  entry: string;
}

function mark(test: TestCase | undefined): string {
  if (test === undefined) return '—';
  const state = test.result().state;
  return state === 'passed' ? '✅' : state === 'failed' ? '❌' : '⏭️';
}

/** The table in Markdown, or `undefined` when the run had no contract results. */
export function renderTable(modules: ReadonlyArray<TestModule>): string | undefined {
  const columns: Column[] = [];
  const rows = new Map<string, Map<string, TestCase>>();
  const row = (title: string) => {
    let cells = rows.get(title);
    if (cells === undefined) {
      cells = new Map();
      rows.set(title, cells);
    }
    return cells;
  };
  for (const module of modules) {
    if (module.project.name !== PROJECT) continue;
    for (const test of module.children.allTests()) {
      const suite = test.parent.type === 'suite' ? SUITE.exec(test.parent.name) : null;
      if (suite) {
        const [, id, label, entry] = suite as unknown as [string, string, string, string];
        if (!columns.some((c) => c.id === id)) columns.push({ id, label, entry });
        row(test.name).set(id, test);
      } else if (NATIVE_RUNNER[test.name] !== undefined) {
        row(NATIVE_ROW).set(NATIVE_RUNNER[test.name] as string, test);
      }
    }
  }
  if (columns.length === 0) return undefined;
  const all = [...rows.values()].flatMap((cells) => [...cells.values()]);
  const passed = all.filter((t) => t.result().state === 'passed').length;
  const lines = [
    `| | ${columns.map((c) => c.label).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    `| runs as | ${columns.map((c) => c.entry).join(' | ')} |`,
    ...[...rows].map(([title, cells]) => `| ${title} | ${columns.map((c) => mark(cells.get(c.id))).join(' | ')} |`),
  ];
  return [
    ...lines,
    '',
    `${passed} of ${all.length} passed in the run of ${new Date().toISOString().slice(0, 10)} ` +
      '(✅ passed, ❌ failed, — not part of that runtime’s run).',
  ].join('\n');
}

export default class RuntimesTableReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const table = renderTable(modules);
    if (table === undefined) return;
    process.stdout.write(`\nRuntimes (README table, from this run):\n\n${table}\n\n`);
    if (process.env.MOCKPOINT_RUNTIMES_README !== '1') return;
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    if (start === -1 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
    writeFileSync(README, `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`);
    process.stdout.write('Runtimes table written to README.md\n');
  }
}
