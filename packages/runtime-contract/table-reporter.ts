/**
 * A Vitest reporter that turns this run's runtime-contract results into the
 * "Runtimes" table of docs/runtimes.md: printed after every run that includes the
 * contract, and written into docs/runtimes.md (between its runtimes-table markers)
 * when `MOCKPOINT_RUNTIMES_DOCS=1` (`pnpm runtimes:docs`).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

const TARGET = join(fileURLToPath(new URL('../..', import.meta.url)), 'docs', 'runtimes.md');
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
    process.stdout.write(`\nRuntimes (docs/runtimes.md table, from this run):\n\n${table}\n\n`);
    if (process.env.MOCKPOINT_RUNTIMES_DOCS !== '1') return;
    const doc = readFileSync(TARGET, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    if (start === -1 || end < start) throw new Error(`docs/runtimes.md has no ${START} … ${END} section`);
    writeFileSync(TARGET, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`);
    process.stdout.write('Runtimes table written to docs/runtimes.md\n');
  }
}
