// Every feature composes (docs/design.md#every-feature-composes, issue #63): every kind of answer (the rows, helpers/matrix-kinds.ts) ×
// every cross-cutting setting (the columns, SETTINGS below), against one real daemon per runtime (the
// `server` project on Node, `server-bun` on Bun), each cell on a name of its own. A cell either shows the
// setting's effect in the protocol's own form (an HTTP status, a Connect or gRPC code, a reset, a held call,
// a delay, a journal entry, …) or was refused when saved with 400 naming the setting and the kind
// (REFUSED). A kind with no place for a setting's members (a record has no route to rate-limit) is listed in
// NO_PLACE with why; nothing else may be accepted and then ignored. A new kind is one entry of KINDS, a new
// setting one entry of SETTINGS (docs/development.md, "The composition matrix").

import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  ON_BUN,
  removeTempDirs,
  runCli,
  startDaemon,
} from './helpers/daemon.js';
import type { Outcome, Result } from './helpers/matrix-calls.js';
import { type Cell, type Extra, KINDS, type Kind, type Place, save } from './helpers/matrix-kinds.js';

/** One column: what the setting adds to the kind's route, what it saves after, and the effect a call shows. */
interface Setting {
  id: string;
  /** Members merged into the kind's route or answer. */
  extra?: Extra;
  /** The place those members need on a kind (see `Kind.places`). */
  needs?: Place;
  /** Made in a namespace of its own. */
  namespace?: true;
  /** A save after the kind's setup (chaos, a signature check, a queued answer): its answer. */
  apply?(cell: Cell): Promise<{ status: number; body: string }>;
  /** The setting's effect, shown by calls of the kind. */
  check(cell: Cell, kind: Kind): Promise<void>;
}

const SECRET = 'matrix-secret';
/** How long a cell waits for its journal entry or coverage (a stream's once it has ended). */
const WAITED = { timeout: 10_000, interval: 20 };
/** Long enough to tell from an undelayed call on a loaded machine, short enough for ~200 cells. */
const WAIT_MS = 400;

/** The save of a cell's chaos: every call given one of `faults`, or (none) no call, with `more` (latency, bandwidth). */
function chaos(faults: string[], more: Record<string, unknown> = {}) {
  return (cell: Cell) =>
    save(cell, `/endpoints/${cell.name}/chaos`, {
      rate: faults.length > 0 ? 1 : 0,
      faults: faults.length > 0 ? faults : ['503'],
      ...more,
    });
}

/** Asserts the outcome of one call, saying what the call answered when it differs. */
function expectOutcome(result: Result, outcome: Outcome | RegExp): void {
  if (typeof outcome === 'string') expect(result.outcome, result.said).toBe(outcome);
  else expect(result.outcome, result.said).toMatch(outcome);
}

/** A chaos fault: every call answers with it. */
function fault(id: string, outcome: Outcome, timeoutMs?: number): Setting {
  return {
    id: `chaos ${id}`,
    apply: chaos([id]),
    check: async (cell, kind) =>
      expectOutcome(await kind.call(cell, timeoutMs === undefined ? {} : { timeoutMs }), outcome),
  };
}

/** The effect of a setting that slows the answer: the call answers, no sooner than {@link WAIT_MS}. */
async function expectSlow(cell: Cell, kind: Kind): Promise<void> {
  const result = await kind.call(cell);
  expectOutcome(result, 'ok');
  // The delay is the behaviour: the answer arrives no sooner than it (a generous lower bound only).
  expect(result.ms, result.said).toBeGreaterThanOrEqual(WAIT_MS - 10);
}

async function journalOf(cell: Cell): Promise<{ requests: Record<string, unknown>[] }> {
  const base = cell.namespace === undefined ? cell.url : `${cell.url}/ns/${cell.namespace}`;
  return (await (await fetch(`${base}/api/endpoints/${cell.name}/requests`)).json()) as {
    requests: Record<string, unknown>[];
  };
}

function signed(body: Uint8Array, secret = SECRET): Record<string, string> {
  return { 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
}

const SIGNATURE = { scheme: 'github', secret: SECRET, enforce: true };

const SETTINGS: readonly Setting[] = [
  fault('503', 'unavailable'),
  fault('500', 'internal'),
  fault('429', 'exhausted'),
  fault('reset', 'reset'),
  fault('timeout', 'timeout', 500),
  {
    id: 'chaos latency',
    apply: chaos([], { latency: { distribution: 'uniform', min: WAIT_MS, max: WAIT_MS } }),
    check: expectSlow,
  },
  {
    id: 'chaos bandwidth',
    // The rate is set from the answer's size: about WAIT_MS for the bytes a call receives.
    async check(cell, kind) {
      const bare = await kind.call(cell);
      expectOutcome(bare, 'ok');
      expect(bare.bytes).toBeGreaterThan(0);
      const bytesPerSecond = Math.ceil((bare.bytes * 1000) / (WAIT_MS + 100));
      const saved = await chaos([], { bandwidth: bytesPerSecond })(cell);
      expect(saved.status, saved.body).toBe(200);
      const slow = await kind.call(cell);
      expectOutcome(slow, 'ok');
      expect(slow.ms, `${slow.said} at ${bytesPerSecond} B/s`).toBeGreaterThanOrEqual(WAIT_MS - 150);
    },
  },
  { id: 'delay', extra: { answer: { delay: WAIT_MS } }, needs: 'delay', check: expectSlow },
  {
    id: 'rate limit',
    extra: { route: { rateLimit: { limit: 1, per: '1h' } } },
    needs: 'route',
    async check(cell, kind) {
      expectOutcome(await kind.call(cell), 'ok');
      expectOutcome(await kind.call(cell), 'exhausted');
    },
  },
  {
    id: 'signature enforced, unsigned',
    apply: (cell) => save(cell, `/endpoints/${cell.name}/signature`, SIGNATURE),
    check: async (cell, kind) => expectOutcome(await kind.call(cell), 'unauthenticated'),
  },
  {
    id: 'signature enforced, signed',
    apply: (cell) => save(cell, `/endpoints/${cell.name}/signature`, SIGNATURE),
    async check(cell, kind) {
      expectOutcome(await kind.call(cell, { headers: signed(kind.body) }), 'ok');
      expectOutcome(await kind.call(cell, { headers: signed(kind.body, 'another secret') }), 'unauthenticated');
    },
  },
  {
    id: 'queued fault',
    async check(cell, kind) {
      const queued = { answers: [kind.queuedReset ?? { fault: 'reset' }] };
      const saved = await save(cell, `/endpoints/${cell.name}/queue`, queued, 'POST');
      expect(saved.status, saved.body).toBe(201);
      expectOutcome(await kind.call(cell), 'reset');
      expectOutcome(await kind.call(cell), 'ok');
    },
  },
  {
    id: 'state',
    extra: { answer: { setState: 'moved' } },
    needs: 'route',
    async check(cell, kind) {
      expectOutcome(await kind.call(cell), 'ok');
      const state = await fetch(`${cell.url}/api/endpoints/${cell.name}/state`);
      expect(await state.json()).toMatchObject({ default: 'moved' });
      // The journal says what the route moved, whatever the protocol (a stream's entry comes at its end).
      await vi.waitFor(async () => {
        const [entry] = (await journalOf(cell)).requests;
        expect(entry?.state, JSON.stringify(entry)).toMatchObject({ after: { default: 'moved' } });
      }, WAITED);
    },
  },
  {
    id: 'namespace',
    namespace: true,
    async check(cell, kind) {
      expectOutcome(await kind.call(cell), 'ok');
      // The same name in the default namespace holds nothing.
      expectOutcome(await kind.call({ ...cell, namespace: undefined }), /^(status|grpc) /);
    },
  },
  {
    id: 'journal',
    async check(cell, kind) {
      expectOutcome(await kind.call(cell), 'ok');
      // A stream is journaled once it has ended, which may be just after its client read the end.
      await vi.waitFor(async () => expect((await journalOf(cell)).requests.length).toBeGreaterThanOrEqual(1), WAITED);
    },
  },
  {
    id: 'coverage',
    async check(cell, kind) {
      expectOutcome(await kind.call(cell), 'ok');
      await vi.waitFor(async () => {
        const report = (await (await fetch(`${cell.url}/api/coverage?names=${cell.name}`)).json()) as {
          requests: number;
          endpoints: { routes: { hits: number }[] }[];
        };
        const [one] = report.endpoints;
        // A kind with a route counts the route's hits; a record or a schema the name's requests.
        const hits = kind.places.includes('route') ? one?.routes[0]?.hits : report.requests;
        expect(hits, JSON.stringify(report)).toBeGreaterThanOrEqual(1);
      }, WAITED);
    },
  },
];

/** Cells refused at save, by kind and setting: `400 SETTING_NOT_FOR_KIND`, the message naming the setting and the kind. */
const REFUSED: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = {
  MCP: { delay: /SETTING_NOT_FOR_KIND.*delay is not a setting of an mcp answer/ },
  'collection (REST resource)': { delay: /SETTING_NOT_FOR_KIND.*delay is not a setting of a resource answer/ },
  proxy: {
    delay: /SETTING_NOT_FOR_KIND.*delay is not a setting of a proxy answer/,
    state: /SETTING_NOT_FOR_KIND.*setState is not a setting of a proxy answer/,
  },
};

/** Cells whose kind has no place for the setting's members, and why. */
const NO_PLACE: Readonly<Record<Place, string>> = {
  route: 'a record and a GraphQL schema have no route: rate limits and state moves are a route’s',
  delay: 'a GraphQL schema answers in schema mode, with no answer to delay: the chaos latency delays it',
};

const kinds = KINDS.filter((kind) => !(ON_BUN && kind.nodeOnly === true));
let daemon: Daemon;
const UPSTREAM = 'matrix-upstream';

beforeAll(async () => {
  assertBuilt();
  // Proxy routes relay to this daemon itself (the upstream record).
  daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_PROXY_ALLOW_HOSTS: '127.0.0.1' } });
  const made = await fetch(`${daemon.url}/api/namespaces`, { method: 'POST', body: JSON.stringify({ name: 'mx' }) });
  expect(made.status).toBe(201);
  // In both namespaces: a proxied request keeps its `mockpoint-session` header.
  for (const namespace of [undefined, 'mx']) {
    const upstream = await save(cellOf(0, 0, namespace), `/endpoints/${UPSTREAM}`, { data: { text: 'x'.repeat(100) } });
    expect(upstream.status).toBe(201);
  }
});
afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

function cellOf(row: number, column: number, namespace?: string): Cell {
  const cell: Cell = { url: daemon.url, name: `m${row}x${column}`, pkg: `p${row}x${column}`, upstream: UPSTREAM };
  if (namespace !== undefined) cell.namespace = namespace;
  return cell;
}

describe.each(kinds.map((kind) => [kind.id, kind] as const))('%s', (_id, kind) => {
  const row = KINDS.indexOf(kind);
  it.concurrent.each(SETTINGS.map((setting, column) => [setting.id, setting, column] as const))(
    '× %s',
    async (_setting, setting, column) => {
      if (setting.needs !== undefined && !kind.places.includes(setting.needs)) {
        // No place for it on this kind (NO_PLACE says why): nothing to save, nothing ignored.
        expect(NO_PLACE[setting.needs]).toBeTypeOf('string');
        return;
      }
      const cell = cellOf(row, column, setting.namespace === true ? 'mx' : undefined);
      let refusal = await kind.setup(cell, setting.extra ?? {});
      if (refusal.status < 300 && setting.apply !== undefined) refusal = await setting.apply(cell);
      const refused = REFUSED[kind.id]?.[setting.id];
      if (refused !== undefined) {
        expect(refusal.status, refusal.body).toBe(400);
        expect(refusal.body).toMatch(refused);
        return;
      }
      expect(refusal.status, refusal.body).toBeLessThan(300);
      await setting.check(cell, kind);
    },
  );
});

describe('export', () => {
  it('round-trips every cell: the export applied to a fresh daemon exports the same', async () => {
    const dir = await makeTempDir('mockpoint-matrix-');
    // The export reads every cell of every kind: 10 s alone, past 15 s in the whole suite on 2 cores.
    const exported = await runCli({
      args: ['export'],
      env: { MOCKPOINT_URL: daemon.url },
      cwd: dir,
      deadlineMs: 50_000,
    });
    expect(exported.stderr).toBe('');
    const names = (JSON.parse(exported.stdout) as { endpoints: { name: string }[] }).endpoints.map((one) => one.name);
    // Every kind's cells are in it (each row's names are `m{row}x{column}`).
    for (const kind of kinds) expect(names.some((name) => name.startsWith(`m${KINDS.indexOf(kind)}x`))).toBe(true);
    const fresh = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_PROXY_ALLOW_HOSTS: '127.0.0.1' } });
    await writeFile(join(dir, 'matrix.json'), exported.stdout);
    // Applying compiles every cell's protobuf definitions again: about 15 s on a loaded 2-core machine.
    const applied = await runCli({
      args: ['apply', 'matrix.json'],
      env: { MOCKPOINT_URL: fresh.url },
      cwd: dir,
      deadlineMs: 50_000,
    });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const again = await runCli({
      args: ['export'],
      env: { MOCKPOINT_URL: fresh.url },
      cwd: dir,
      deadlineMs: 50_000,
    });
    expect(again.stdout).toBe(exported.stdout);
  }, 180_000);
});
