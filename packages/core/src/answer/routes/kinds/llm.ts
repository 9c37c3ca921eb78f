/**
 * The llm kind's compile: rendered per request by `answer/llm/llm-answer.ts`.
 *
 * @module
 */

import type { RouteAnswer } from '../../../api/route.js';
import { llmAnswer, llmContext } from '../../llm/llm-answer.js';
import { type CompiledAnswer, compileHeaderTemplates, lowerHeaders, templated } from '../compile-parts.js';

/**
 * An LLM API answer: rendered per request (it reads the request's model and
 * stream fields, and gives fresh ids) into a respond or stream answer.
 */
export function compileLlmAnswer(answer: RouteAnswer): CompiledAnswer {
  const llm = answer.llm as NonNullable<RouteAnswer['llm']>;
  const template = answer.template === true;
  const headers = lowerHeaders(answer);
  const renderHeaders = template ? compileHeaderTemplates(headers) : () => headers;
  const render = llmAnswer({ llm, delay: answer.delay ?? 0, template, headers: renderHeaders });
  const size = (llm.text?.length ?? 0) * 2 + JSON.stringify(llm.toolCalls ?? []).length * 2;
  return templated(200, size + 1024 + JSON.stringify(answer.headers ?? {}).length * 2, render, llmContext);
}
