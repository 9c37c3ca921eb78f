/**
 * A twin's answer as the request asked for it (twin-engine.ts): the objects its `expand` paths name
 * put in place of their ids (twin-expand.ts), and every object in the request's API version
 * (twin-versions.ts; the flows' `rendered`: Stripe's shapes by version).
 *
 * @module
 */
import { DEFAULT_LIMITS } from '../registry/limits.js';
import { jsonBytesInTurns, jsonInTurns } from '../turns/json-in-turns.js';
import { isJson, type TwinAnswer } from './twin-answer.js';
import type { Twin } from './twin-context.js';
import { expandAnswer, expandedSize } from './twin-expand.js';
import { findSized } from './twin-stored.js';
import { newestVersion } from './twin-versions.js';

/** Answers from about this many bytes on are written in turns ({@link jsonBytesInTurns}). */
const LARGE_ANSWER_UNITS = 1024 * 1024;

/** The `expand` paths a request sends (`undefined`: none, or a profile without `expand`). */
export function expanding(twin: Twin, query: Record<string, unknown>, body: Record<string, unknown>): unknown {
  const expand = twin.parts.profile.expand;
  return expand === undefined ? undefined : (query[expand] ?? body[expand]);
}

/**
 * `answer` with the objects `paths` name expanded and in the API version `version` (the newest
 * when the request named none); as it is when it is not a JSON success or nothing in it changes.
 */
export async function rendered(
  twin: Twin,
  answer: TwinAnswer,
  paths: readonly string[],
  version: string | undefined,
  method: string,
): Promise<TwinAnswer> {
  const { parts } = twin;
  const render = parts.flows?.rendered;
  const shown = version ?? newestVersion(parts.profile);
  if (answer.status >= 300 || !isJson(answer)) return answer;
  // Parsed and written again only when something in it changes (a 16 MB list of customers is not).
  // (With expand[] always: an object it adds may be one the text did not hold.)
  const rendering =
    render !== undefined && shown !== undefined && (paths.length > 0 || (parts.flows?.renders?.(answer.body) ?? true));
  if (paths.length === 0 && !rendering) return answer;
  let value = JSON.parse(answer.body) as unknown;
  const maxBytes = parts.maxAnswerBytes ?? DEFAULT_LIMITS.maxCollectionBytes;
  // The collections read once for the whole expansion (on LevelDB and Redis each read parses them all).
  const collections = paths.length > 0 ? await parts.collections.get(parts.name) : undefined;
  const find = (id: string) => findSized(twin, id, collections);
  // What it will weigh, measured before anything is built: the build is the daemon's budget's.
  const units =
    paths.length > 0 ? await expandedSize(value, paths, find, maxBytes, answer.body.length) : answer.body.length;
  return twin.admission.run(units, paths.length > 0 ? 'an answer with expand[]' : 'a large answer', async () => {
    if (paths.length > 0) await expandAnswer(value, paths, find, maxBytes, answer.body.length);
    // The objects in the request's API version (Stripe's shapes by version, stripe-shapes.ts).
    if (rendering) value = render(value, shown, paths);
    if (units < LARGE_ANSWER_UNITS) return { ...answer, body: JSON.stringify(value) };
    // A large answer written in turns (turns/json-in-turns.ts): a read's leaves as its bytes, never
    // one string; a write's is kept as text for its Idempotency-Key.
    if (method !== 'GET') return { ...answer, body: (await jsonInTurns(value)) ?? 'null' };
    return { ...answer, body: '', bytes: (await jsonBytesInTurns(value)) ?? new Uint8Array() };
  });
}
