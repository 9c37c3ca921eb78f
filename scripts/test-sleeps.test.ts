// No fixed sleeps in the tests: a test waits for the event a pause would stand for (a journal
// long-poll, an event, the daemon's clock, a waiter), not for a number of milliseconds. This
// finds every `setTimeout(…, N)`, `setTimeout(N)` (node:timers/promises) and
// `sleep|wait|delay|tick|pause(N)` with a literal N ≥ 10 in the test files and the test helpers,
// and fails on one that is not on ALLOWED with its reason. Timers that only fail or stop a test
// that hangs (their callback rejects, kills or destroys) are safety nets, not sleeps: not counted.
// Of the allowed, at most MAX_PAUSES may be real pauses a passing test waits out (issue #74).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIN_MS = 10;
const SELF = 'scripts/test-sleeps.test.ts';

/** Test files and test helpers: `*.test.*` anywhere, everything under `packages/<p>/test/` and the testkit. */
const TEST_FILE =
  /(\.test\.(ts|tsx|mts|mjs|js)$)|(^packages\/[^/]+\/test\/.*\.(ts|mts|mjs|js)$)|(^packages\/testkit\/src\/.*\.ts$)/;

interface Allowed {
  /** The file, from the repository's root. */
  file: string;
  /** Text of the line the pause is on (a part of it that says which one). */
  line: string;
  /**
   * `safety-net`: a timer that never runs out in a passing test (it only ends a test that hangs, or
   * it is the code under test's own and the test ends it first); `pause`: a real fixed sleep, one the
   * test waits out. At most {@link MAX_PAUSES} pauses (issue #74). `pace`: how often something is
   * done beside the test, whose stop wakes it (never waited out); `fake-clock`: a delay on Vitest's
   * fake timers, which the test runs at once.
   */
  kind: 'safety-net' | 'pause' | 'pace' | 'fake-clock';
  /** Why no event can stand in for it. */
  reason: string;
}

/** Real fixed sleeps the tests may keep, all of them together (issue #74, "house numbers"). */
const MAX_PAUSES = 3;

/** Pauses that must stay, each with why. An entry that matches nothing fails too (take it off). */
const ALLOWED: Allowed[] = [
  {
    file: 'packages/server/test/twin-budget.test.ts',
    line: 'setTimeout(resolve, 200)',
    kind: 'pace',
    reason: 'a cheap request every 200 ms beside the heavy load: the pace of the probe, not a wait for an event',
  },
  {
    file: 'packages/web/test/sleep.test.ts',
    line: 'sleep(60_000',
    kind: 'safety-net',
    reason: 'tests the page’s own abortable sleep: the 60 s is never waited, the signal ends it',
  },
  {
    file: 'packages/core/src/adapter/node/grpc-direct.test.ts',
    line: "setTimeout(late, 2000, 'hung')",
    kind: 'safety-net',
    reason: 'it only wins the race when answerDirect hangs, and then the test fails on "hung"',
  },
  {
    file: 'packages/server/test/grpc-transport.test.ts',
    line: 'resolve(false), 15_000',
    kind: 'safety-net',
    reason: 'false only when the idle h2c session is not closed within 15 s, which fails the test',
  },
  {
    file: 'packages/server/test/grpc-transport.test.ts',
    line: "resolve('nothing within 5 s'), 5000",
    kind: 'safety-net',
    reason:
      'it wins the race only when the bidirectional call answers nothing while the client still sends, and the test then fails on it',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'resolve(-1), 10_000',
    kind: 'safety-net',
    reason: '-1 only when a socket is not closed for idleness within 10 s, which fails the test',
  },
  {
    file: 'packages/core/src/codec/body.test.ts',
    line: 'paced(8, 1024, 60)',
    kind: 'fake-clock',
    reason: 'the gaps between chunks run on vi.useFakeTimers (performance.now() too): the test advances them at once',
  },
  {
    file: 'packages/core/src/codec/body.test.ts',
    line: 'paced(8, 1024, 400)',
    kind: 'fake-clock',
    reason: 'the gaps between chunks run on vi.useFakeTimers (performance.now() too): the test advances them at once',
  },
  {
    file: 'packages/server/test/helpers/watch-health.ts',
    line: 'setTimeout(resolve, intervalMs)',
    kind: 'pace',
    reason: 'how often a fuzz test asks /api/health beside its work; stop() wakes the pause, so no test waits one out',
  },
  {
    file: 'packages/server/test/namespace-lifecycle.test.ts',
    line: 'settledAt([delayed, timedOut, unary, streamEnded, talkEnded], 5000)',
    kind: 'safety-net',
    reason:
      'a deadline raced against the calls ending, cleared when they end; reached only when one hangs, which fails the test',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'endedWithin(socket, 8000)',
    kind: 'safety-net',
    reason: 'false only when the socket is not closed within 8 s (the timer cleared on close), which fails the test',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'endedWithin(socket, 15_000)',
    kind: 'safety-net',
    reason: 'false only when a socket is not closed within 15 s (the timer cleared on close), which fails the test',
  },
  {
    file: 'packages/server/test/replicas.test.ts',
    line: 'setTimeout(resolve, 100)',
    kind: 'pause',
    reason:
      'a negative check across processes: a hang on replica B answers nothing, and B (the default namespace) counts no held request an API could show; the journal long-poll proves it was taken first',
  },
  {
    file: 'packages/openapi-documents/test/import-whole.test.ts',
    line: 'setTimeout(resolve, 200)',
    kind: 'pause',
    reason:
      'a sampler’s pace against a daemon in another process: /api/health every 200 ms while it takes a 9 MB routes list; asked back to back, the asks would load the daemon whose answers they time',
  },
];

interface Pause {
  file: string;
  line: number;
  text: string;
  ms: number;
}

/** The top-level arguments of the call whose `(` is at `open`, as source text, or undefined when unbalanced. */
function argumentsAt(source: string, open: number): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  let quote: string | undefined;
  for (let i = open; i < source.length; i++) {
    const c = source[i] as string;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        args.push(source.slice(start, i).trim());
        return args.filter((arg) => arg !== '');
      }
    } else if (c === ',' && depth === 1) {
      args.push(source.slice(start, i).trim());
      start = i + 1;
    }
  }
  return undefined;
}

const literalMs = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d[\d_]*$/.test(text) ? Number(text.replaceAll('_', '')) : undefined;

/** A timer whose callback only fails or stops a hung test. */
const SAFETY_NET = /\breject\(|\.kill\(|\.destroy\(|throw /;

/**
 * Where the delay named `name` at `at` is a number in `source`, with the index it is waited at:
 * a `const`/`let` of it, a parameter's default (`intervalMs = 200`), or, for a parameter with
 * none, the number each call of the function passes in its place (`paced(8, 1024, 60)`).
 */
function namedMs(source: string, name: string, at: number): { index: number; ms: number }[] {
  const literal = '(\\d[\\d_]*)';
  const constant = new RegExp(`\\b(?:const|let)\\s+${name}\\s*(?::[^=]+)?=\\s*${literal}\\s*[;,\\n]`).exec(source);
  if (constant !== null) return [{ index: at, ms: Number((constant[1] as string).replaceAll('_', '')) }];
  const byDefault = new RegExp(`\\b${name}\\s*(?::\\s*number\\s*)?=\\s*${literal}\\s*[,)]`).exec(source);
  if (byDefault !== null) return [{ index: at, ms: Number((byDefault[1] as string).replaceAll('_', '')) }];
  // The nearest function before `at` taking `name` as a parameter, and the calls of it.
  let found: { fn: string; position: number } | undefined;
  for (const match of source.slice(0, at).matchAll(/function\s+(\w+)\s*\(([^)]*)\)/g)) {
    const params = (match[2] as string).split(',').map((param) => param.trim().split(/[\s:=?]/)[0]);
    const position = params.indexOf(name);
    if (position !== -1) found = { fn: match[1] as string, position };
  }
  if (found === undefined) return [];
  const { fn, position } = found;
  const calls: { index: number; ms: number }[] = [];
  for (const call of source.matchAll(new RegExp(`(?<![\\w.]|function\\s)${fn}\\(`, 'g'))) {
    const ms = literalMs(argumentsAt(source, call.index + call[0].length - 1)?.[position]);
    if (ms !== undefined) calls.push({ index: call.index, ms });
  }
  return calls;
}

/** Every fixed pause of MIN_MS or more in `source`. */
export function findPauses(file: string, source: string): Pause[] {
  const pauses: Pause[] = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  const add = (index: number, ms: number | undefined) => {
    if (ms === undefined || ms < MIN_MS) return;
    const line = lineOf(index);
    pauses.push({ file, line, text: (source.split('\n')[line - 1] ?? '').trim(), ms });
  };
  for (const match of source.matchAll(/(?<![.\w])setTimeout\(/g)) {
    const args = argumentsAt(source, match.index + match[0].length - 1);
    if (args === undefined || args.length === 0) continue;
    const first = literalMs(args[0]);
    if (first !== undefined) add(match.index, first);
    else if (!SAFETY_NET.test(args[0] as string)) {
      const delay = args[1];
      if (delay !== undefined && /^[A-Za-z_$][\w$]*$/.test(delay)) {
        for (const named of namedMs(source, delay, match.index)) add(named.index, named.ms);
      } else add(match.index, literalMs(delay));
    }
  }
  for (const match of source.matchAll(/(?<![.\w])(sleep|wait|delay|tick|pause)\(\s*(\d[\d_]*)\s*[,)]/g))
    add(match.index, literalMs(match[2]));
  return pauses;
}

function testFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  // This file names the pauses it looks for (its allow-list, its own examples): not one of them.
  return listed.filter((file) => TEST_FILE.test(file) && !file.includes('/fixtures/') && file !== SELF);
}

describe('fixed sleeps in tests', () => {
  it('finds the forms it looks for, and not safety nets', () => {
    const found = findPauses(
      'x.test.ts',
      [
        'await new Promise((resolve) => setTimeout(resolve, 50));',
        'await setTimeout(1_000);',
        'setTimeout(() => {\n  done();\n}, 200);',
        'await wait(30);',
        'await new Promise((r) => setTimeout(r, 5));',
        "const timer = setTimeout(() => reject(new Error('no answer')), 5000);",
        "setTimeout(() => child.kill('SIGKILL'), 90_000);",
        'socket.setTimeout(5000, () => socket.destroy());',
        "await reader.wait('some', 3, 300);",
        // A delay named, not written: a const, a parameter's default, the number a call passes.
        'const GAP = 40;\nsetTimeout(next, GAP);',
        'function watch(url, intervalMs = 250) { setTimeout(ask, intervalMs); }',
        'function paced(count, gapMs) { setTimeout(resolve, gapMs); }\npaced(8, 60);\npaced(2, 5);',
      ].join('\n'),
    );
    expect(found.map((pause) => pause.ms)).toEqual([50, 1000, 200, 40, 250, 60, 30]);
  });

  it('has none outside the allow-list, and the allow-list has no stale entry', () => {
    const pauses = testFiles().flatMap((file) => findPauses(file, readFileSync(`${ROOT}/${file}`, 'utf8')));
    const allowed = (pause: Pause) =>
      ALLOWED.find((entry) => entry.file === pause.file && pause.text.includes(entry.line));
    const unexplained = pauses
      .filter((pause) => allowed(pause) === undefined)
      .map((pause) => `${pause.file}:${pause.line} waits ${pause.ms} ms: ${pause.text}`);
    expect(unexplained, 'wait for the event the pause stands for, or add it to ALLOWED with why').toEqual([]);
    const stale = ALLOWED.filter((entry) => !pauses.some((pause) => allowed(pause) === entry));
    expect(stale, 'allow-list entries that match no pause').toEqual([]);
    for (const entry of ALLOWED) expect(entry.reason.length, `${entry.file}: a reason`).toBeGreaterThan(20);
  });

  it(`keeps at most ${MAX_PAUSES} real pauses (safety nets are not pauses)`, () => {
    const pauses = ALLOWED.filter((entry) => entry.kind === 'pause').map((entry) => `${entry.file}: ${entry.line}`);
    expect(pauses.length, `real fixed sleeps left: ${pauses.join('; ')}`).toBeLessThanOrEqual(MAX_PAUSES);
  });
});
