/**
 * The registry of the kinds of a route answer: one line per kind (its file in
 * `kinds/`), in the order their members sit in an answer. The schema, the
 * JSON reading, the checks and the exports derive their lists from it; the
 * answer layer (`answer/routes/answer-kinds.ts`) and the engine
 * (`engine/pipeline/route-kinds.ts`) key their parts by the same names.
 *
 * @module
 */

import type { AnswerKind } from './answer-kind.js';
import { faultKind } from './kinds/fault.js';
import { grpcKind } from './kinds/grpc.js';
import { llmKind } from './kinds/llm.js';
import { mcpKind } from './kinds/mcp.js';
import { proxyKind } from './kinds/proxy.js';
import { resourceKind } from './kinds/resource.js';
import { streamKind } from './kinds/stream.js';
import { websocketKind } from './kinds/websocket.js';

/** The registry's type: each kind under its own name. */
type Registry<T> = { readonly [K in keyof T]: AnswerKind<K & string> };

/** Every kind besides the plain answer (data, body, bodyBase64 or nothing), one line each, in member order. */
const KINDS = registry({
  stream: streamKind,
  // Before fault: an answer with both is a grpc answer (fault reset beside it).
  grpc: grpcKind,
  fault: faultKind,
  proxy: proxyKind,
  resource: resourceKind,
  websocket: websocketKind,
  llm: llmKind,
  mcp: mcpKind,
});

function registry<T extends Registry<T>>(kinds: T): T {
  return kinds;
}

/** A kind's name: the member that marks it. */
export type AnswerKindName = keyof typeof KINDS;

/** The kinds, in member order. */
export const ANSWER_KINDS: readonly AnswerKind<AnswerKindName>[] = Object.values(KINDS);

/** The kinds that own their answer (not a form of the plain one), in member order. */
export const OWN_KINDS: readonly AnswerKind[] = ANSWER_KINDS.filter((kind) => kind.plain !== true);

/** The owning kinds in the order `checkAnswer` tries them. */
export const CHECKED_KINDS: readonly AnswerKind[] = [...OWN_KINDS].sort(
  (a, b) => (a.checkOrder ?? Number.POSITIVE_INFINITY) - (b.checkOrder ?? Number.POSITIVE_INFINITY),
);

/** How each member that is not plain JSON is read from its text. */
export const KIND_READERS: ReadonlyMap<string, (text: string) => unknown> = new Map(
  ANSWER_KINDS.flatMap((kind) => (kind.fromJson === undefined ? [] : [[kind.key, kind.fromJson] as const])),
);

/** Whether answering this answer reads the request's whole body, by its kind. */
export function kindReadsBody(answer: object): boolean {
  return kindOf(answer)?.readsBody === true;
}

/** The kind an answer is (the first kind whose member it has); `undefined`: a plain answer. */
export function kindOf(answer: object): AnswerKind<AnswerKindName> | undefined {
  return ANSWER_KINDS.find((kind) => (answer as Record<string, unknown>)[kind.key] !== undefined);
}
