// No fixed sleeps in the tests: a test waits for the event a pause would stand for (a journal
// long-poll, an event, the daemon's clock, a waiter), not for a number of milliseconds. This
// finds every `setTimeout(…, N)`, `setTimeout(N)` (node:timers/promises) and
// `sleep|wait|delay|tick|pause(N)` with a literal N ≥ 10 in the test files and the test helpers,
// and fails on one that is not on ALLOWED with its reason. Timers that only fail or stop a test
// that hangs (their callback rejects, kills or destroys) are safety nets, not sleeps: not counted.
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
  /** Why no event can stand in for it. */
  reason: string;
}

/** Pauses that must stay, each with why. An entry that matches nothing fails too (take it off). */
const ALLOWED: Allowed[] = [
  {
    file: 'packages/web/test/sleep.test.ts',
    line: 'sleep(60_000',
    reason: 'tests the page’s own abortable sleep: the 60 s is never waited, the signal ends it',
  },
  {
    file: 'packages/core/src/adapter/node/grpc-direct.test.ts',
    line: "setTimeout(late, 2000, 'hung')",
    reason: 'a safety net: it only wins the race when answerDirect hangs, and then the test fails on "hung"',
  },
  {
    file: 'packages/server/test/grpc-transport.test.ts',
    line: 'resolve(false), 15_000',
    reason: 'a safety net: false only when the idle h2c session is not closed within 15 s, which fails the test',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'resolve(-1), 10_000',
    reason: 'a safety net: -1 only when a socket is not closed for idleness within 10 s, which fails the test',
  },
  {
    file: 'packages/core/src/adapter/node/h2c-sniff.test.ts',
    line: 'setTimeout(resolve, 50)',
    reason:
      'the server answers nothing to a partial preface, so no event says it read the 3 bytes on their own; the pause makes the split read happen',
  },
  {
    file: 'packages/core/src/adapter/node/queue-faults.test.ts',
    line: 'setTimeout(resolve, 100)',
    reason:
      'a negative check: a hang answers nothing, and no event can prove that nothing came; the request is in the journal first (waitForRequests)',
  },
  {
    file: 'packages/server/test/replicas.test.ts',
    line: 'setTimeout(resolve, 100)',
    reason:
      'a negative check: a hang on another replica answers nothing, and no event can prove that nothing came; the journal long-poll proves it was taken first',
  },
  {
    file: 'packages/core/src/store/redis/turn-leases.test.ts',
    line: 'await pause(1500)',
    reason:
      'the behaviour is a step that runs longer than its lease (500 ms): its length is what is tested, and the other replica waits on it, not the test',
  },
  {
    file: 'packages/core/src/engine/pipeline/namespace-chaos.test.ts',
    line: 'setTimeout(resolve, 50)',
    reason:
      'a negative check: a chaos timeout answers nothing until chaos is cleared; no event can prove that nothing came',
  },
  {
    file: 'packages/core/src/adapter/node/websocket.test.ts',
    line: 'r(0), 3000',
    reason:
      'a negative check: the 12+ sockets under the bound must stay open; 0 means "not closed within 3 s", which no event can say',
  },
  {
    file: 'packages/core/src/adapter/threads/graphql-worker.test.ts',
    line: 'setTimeout(resolve, 100)',
    reason: 'the pace is the behaviour: a job every 100 ms for 1.5 s used to restart the 300 ms watchdog forever',
  },
  {
    file: 'packages/core/src/http/namespace-table.test.ts',
    line: 'setTimeout(resolve, 100)',
    reason:
      'a deletion held open by a gate: the re-make and its PUT must reach the table while it is held, and the table says nothing while they wait',
  },
  {
    file: 'packages/core/src/http/namespace-table.test.ts',
    line: 'setTimeout(resolve, 1500)',
    reason:
      'the TTL sweep runs on a real 1 s timer with no clock to drive it: the pause lets it sweep an empty table once or twice first',
  },
  {
    file: 'packages/core/src/http/namespace-table.test.ts',
    line: 'setTimeout(resolve, 3000)',
    reason:
      'a negative check over real time: a namespace in use on another replica survives three 1 s sweeps past its 1 s TTL',
  },
  {
    file: 'packages/core/src/http/routes/read.test.ts',
    line: 'controller.abort(), 50',
    reason:
      'the behaviour: the client gives up while the 10 s delay runs (any moment within it); the bound checked is that it settles long before 10 s',
  },
  {
    file: 'packages/core/src/webhook/delivery-clock.test.ts',
    line: 'setTimeout(resolve, 1500)',
    reason:
      'a negative check: real time passes the 300 ms retry while the frozen clock holds it; the clock being frozen is what the test shows',
  },
  {
    file: 'packages/core/src/verify/journal-requests.test.ts',
    line: 'setTimeout(resolve, 10)',
    reason: 'a sampler’s pace: /api/health is asked every 10 ms while verify runs, to measure the longest gap',
  },
  {
    file: 'packages/server/test/hangup.test.ts',
    line: 'setTimeout(() => {',
    reason:
      'the behaviour: a hang-up once the daemon is reading the body; nothing outside the daemon says when it reads',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'setTimeout(resolve, 2000)',
    reason: 'a load’s length: health is watched for 2 s more while the sockets are held',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'setTimeout(resolve, 100)',
    reason: 'a load’s shape: ten unfinished 1 MiB messages every 100 ms, not one burst',
  },
  {
    file: 'packages/server/test/websocket-limits.test.ts',
    line: 'setTimeout(resolve, 1000)',
    reason: 'a load’s length: the 200 unfinished messages are held a second before the RSS is read',
  },
  {
    file: 'packages/vitest-plugin/test/quiet-and-queue.test.ts',
    line: 'setTimeout(resolve, 50))',
    reason: 'the pace is the behaviour: requests keep arriving every 50 ms while the matcher waits',
  },
  {
    file: 'packages/core/src/http/routes/verify.test.ts',
    line: 'setTimeout(resolve, 10)',
    reason:
      'a sampler’s pace: /api/health is asked every 10 ms while verify runs in process, and the longest gap between answers is what the test bounds; nothing is waited for',
  },
  {
    file: 'packages/openapi-documents/test/import-whole.test.ts',
    line: 'setTimeout(resolve, 200)',
    reason:
      'a sampler’s pace: /api/health is asked every 200 ms (each after the previous answer) while the daemon takes a 9 MB routes list; nothing is waited for',
  },
  {
    file: 'packages/server/test/grpc-transport.test.ts',
    line: "resolve('nothing within 5 s'), 5000",
    reason:
      'a safety net: it wins the race only when the bidirectional call answers nothing while the client still sends, and the test then fails on it',
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
    else if (!SAFETY_NET.test(args[0] as string)) add(match.index, literalMs(args[1]));
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
      ].join('\n'),
    );
    expect(found.map((pause) => pause.ms)).toEqual([50, 1000, 200, 30]);
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
});
