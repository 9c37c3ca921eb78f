/**
 * How each kind of route answer (api/answer-kinds.ts) is compiled, keyed by
 * its name: its own compile (in `kinds/`), or `plain`, compiled as a plain
 * answer (a fault; or a kind the route step answers itself, see
 * engine/pipeline/route-kinds.ts).
 *
 * @module
 */

import type { AnswerKindName } from '../../api/answer-kinds.js';
import type { RouteAnswer } from '../../api/route.js';
import type { CompiledAnswer } from './compile-parts.js';
import { compileLlmAnswer } from './kinds/llm.js';
import { compileStreamAnswer } from './kinds/stream.js';
import { compileSocketAnswer } from './kinds/websocket.js';

/** Compiles an answer of one kind (already checked). */
export type CompileKind = (answer: RouteAnswer) => CompiledAnswer;

export const KIND_COMPILERS: { readonly [K in AnswerKindName]: CompileKind | 'plain' } = {
  stream: compileStreamAnswer,
  fault: 'plain',
  proxy: 'plain',
  resource: 'plain',
  websocket: compileSocketAnswer,
  llm: compileLlmAnswer,
  mcp: 'plain',
  grpc: 'plain',
};
