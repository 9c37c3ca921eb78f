/**
 * The parts the compile of every kind of route answer shares: the answer's
 * headers, the header map sent, templated headers, and a per-request answer.
 *
 * @module
 */

import type { RouteAnswer } from '../../api/route.js';
import { parseTemplate, type TemplatePart } from '../../template/template-syntax.js';
import type { AnswerHeaderMap, EndpointAnswer } from '../endpoint-answer.js';
import { CORS_HEADERS } from '../read-response.js';
import { renderHeader, type TemplateContext } from '../template.js';

/** A prepared answer: `answer(head, context)` gives what an adapter sends. */
export interface CompiledAnswer {
  readonly statusCode: number;
  /** Whether it renders per request (then `context` is needed). */
  readonly templated: boolean;
  /** Approximate memory cost, for the cache bound. */
  readonly bytes: number;
  answer(head: boolean, context?: TemplateContext): EndpointAnswer;
  /**
   * The kind's own template context for a request, built from the one every
   * kind has (what the kind alone reads goes here, not into every context);
   * absent: the common one as it is.
   */
  readonly contextOf?: KindContext;
}

/** What a kind reads of its request to build its context, beside the common context. */
export interface KindRequest {
  /** The request's subpath (after `/endpoint/{name}`), as received. */
  readonly subpath: string;
}

/** A kind's template context for one request, from the common one. */
export type KindContext = (common: TemplateContext, request: KindRequest) => TemplateContext;

/** The answer's headers under lower-case names (two spellings of one name are sent as one list). */
export function lowerHeaders(answer: RouteAnswer): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    const lower = name.toLowerCase();
    const list = headers.get(lower) ?? [];
    list.push(...(Array.isArray(value) ? value : [value]));
    headers.set(lower, list);
  }
  return headers;
}

export function headerMap(base: Map<string, string[]>): AnswerHeaderMap {
  const headers: Record<string, string | readonly string[]> = { ...CORS_HEADERS };
  for (const [name, values] of base) headers[name] = values.length === 1 ? (values[0] as string) : values;
  return Object.freeze(headers);
}

/** Parses each header value of a templated answer once; the result renders them for one request. */
export function compileHeaderTemplates(
  headers: Map<string, string[]>,
): (context: TemplateContext) => Map<string, string[]> {
  const parts = new Map<string, TemplatePart[][]>();
  for (const [name, values] of headers) parts.set(name, values.map(parseTemplate));
  return (context) => {
    const rendered = new Map<string, string[]>();
    for (const [name, values] of parts)
      rendered.set(
        name,
        values.map((value) => renderHeader(value, context)),
      );
    return rendered;
  };
}

/** An answer rendered per request (its memory cost counted twice: the parts and a rendering). */
export function templated<C extends TemplateContext = TemplateContext>(
  statusCode: number,
  bytes: number,
  render: (head: boolean, context: C) => EndpointAnswer,
  contextOf?: (common: TemplateContext, request: KindRequest) => C,
): CompiledAnswer {
  const compiled: CompiledAnswer = {
    statusCode,
    templated: true,
    bytes: bytes * 2,
    answer(head, context) {
      if (context === undefined) throw new TypeError('a templated answer needs its request');
      // Built by contextOf when the kind has one (the engine asks it): the context this kind renders with.
      return render(head, context as C);
    },
  };
  return contextOf === undefined ? compiled : { ...compiled, contextOf };
}
