/**
 * What `verify` does for an endpoint beyond its routes' answers: its recorded
 * requests checked against the document (`journal`, verify/journal-requests.ts)
 * and its routes queued for replay against the live API (`upstream`,
 * verify/live-replay.ts), each route's example request chosen here: a HAR
 * request it takes, else the newest recorded request it answered, else its own
 * `match`. The journal is read once, a page at a time, for both.
 *
 * @module
 */
import type { JournalEntry } from '../api/journal-json.js';
import type { Route } from '../api/route.js';
import type { JournalCheck } from './journal-requests.js';
import type { LiveReplay } from './live-replay.js';
import { type ExampleRequest, fromHar, fromJournal, fromRoute, type HarRequest, routeTakes } from './live-request.js';
import type { At, Collector } from './verify-collector.js';

/** Methods replayed without `unsafe`: they change nothing (RFC 9110 §9.2.1). */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The routes' operation text, as findings name it. */
export function operationOf(route: Route): string {
  const method = route.match?.method?.toUpperCase();
  const path = route.match?.path;
  return `${method ?? '*'} ${typeof path === 'string' ? path : path === undefined ? '(any path)' : '(a regular expression)'}`;
}

/** The checks beyond the routes' answers, for every endpoint of one verify. */
export interface Extras {
  journal?: JournalCheck;
  live?: { replay: LiveReplay; har: readonly HarRequest[]; basePath: string; unsafe: boolean };
}

/** Recorded requests checked between two turns of the event loop. */
const CHECKS_PER_TURN = 25;

/** The newest recorded request each route answered, by route id. */
type Newest = Map<string, JournalEntry>;

/** Reads the endpoint's journal (a page at a time), checking each entry; the newest entry per route kept for the replay. */
async function readJournal(
  extras: Extras,
  name: string,
  routes: readonly Route[],
  pages: AsyncIterable<JournalEntry[]>,
  pause: () => Promise<void>,
): Promise<Newest> {
  const newest: Newest = new Map();
  let read = 0;
  for await (const page of pages) {
    for (const entry of page) {
      // A check is bounded (the validator's steps), and the event loop runs between every few.
      if (++read % CHECKS_PER_TURN === 0) await pause();
      extras.journal?.check(name, routes, entry);
      const by = entry.answeredBy;
      if (typeof by === 'object' && 'route' in by) newest.set(by.route, entry);
    }
    await pause();
  }
  return newest;
}

/** The example of `route`: a HAR request it takes, the newest it answered, or its own match. */
function exampleOf(
  route: Route,
  har: readonly HarRequest[],
  basePath: string,
  newest: Newest,
): ExampleRequest | { why: string } {
  for (const request of har) {
    const example = fromHar(request, basePath);
    if (routeTakes(route, example.method, example.subpath)) return example;
  }
  const entry = newest.get(route.id);
  if (entry !== undefined) return fromJournal(entry);
  return fromRoute(route);
}

/** Runs the extras for one endpoint. */
export async function endpointExtras(
  extras: Extras,
  out: Collector,
  endpoint: { name: string; routes: readonly Route[]; journal?: () => AsyncIterable<JournalEntry[]> },
  pause: () => Promise<void>,
): Promise<void> {
  const newest =
    endpoint.journal !== undefined && (extras.journal !== undefined || extras.live !== undefined)
      ? await readJournal(extras, endpoint.name, endpoint.routes, endpoint.journal(), pause)
      : new Map<string, JournalEntry>();
  const { live } = extras;
  if (live === undefined) return;
  for (const [index, route] of endpoint.routes.entries()) {
    const at: At = { endpoint: endpoint.name, route: { id: route.id, index }, operation: operationOf(route) };
    let example: ExampleRequest | { why: string };
    try {
      example = exampleOf(route, live.har, live.basePath, newest);
    } catch (error) {
      example = { why: (error as Error).message };
    }
    if ('why' in example) out.note(at, `not replayed: ${example.why}`);
    else if (!live.unsafe && !SAFE.has(example.method)) {
      out.note(at, `not replayed: ${example.method} may change the live API (give unsafe, --unsafe, to replay it)`);
    } else live.replay.add(at, route, example);
  }
}
