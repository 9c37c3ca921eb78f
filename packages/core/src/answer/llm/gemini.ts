/**
 * Google Gemini's `generateContent` wire format (the Gemini API, as the
 * `@google/genai` SDK reads it): one `GenerateContentResponse` JSON body, its
 * stream (`:streamGenerateContent?alt=sse`, an SSE event of a response chunk
 * per text chunk, the function calls in one chunk, a last chunk with
 * `finishReason` and the whole `usageMetadata`), the same chunks as one JSON
 * array without `alt=sse`, and Google's error bodies
 * (`{ error: { code, message, status, details? } }`).
 *
 * @module
 */
import type { LlmErrorDetail, LlmErrorType } from '../../api/answer-llm.js';
import type { LlmEvent, LlmSource, LlmWire, Prepared } from './llm-wire.js';

const GEMINI_JSON = 'application/json; charset=UTF-8';
const SSE_TYPE = 'text/event-stream';
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The model named in a Gemini path (`/v1beta/models/{model}:generateContent`), if any. */
export function geminiModelOf(path: string | undefined): string | undefined {
  const match = path === undefined ? null : /\/models\/([^/:?]{1,256}):[A-Za-z]+$/.exec(path.split('?')[0] ?? '');
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1] as string);
  } catch {
    return match[1];
  }
}

/** Whether the request's path is the streaming method (`…:streamGenerateContent`). */
export function geminiStreamed(path: string | undefined): boolean {
  return path !== undefined && /:streamGenerateContent$/.test(path.split('?')[0] ?? '');
}

/** Google's front-end headers. */
function geminiHeaders(type: string): Record<string, string> {
  return {
    'content-type': type,
    vary: 'Origin, X-Origin, Referer',
    server: 'scaffolding on HTTPServer2',
    'server-timing': 'gfet4t7; dur=1',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'x-xss-protection': '0',
  };
}

/** `{"functionCall":{"name":…,"args":<the exact text>}}` (the id only when the route gives one). */
function functionCallPart(p: Prepared, index: number): string {
  const call = p.calls[index] as Prepared['calls'][number];
  const own = p.parts.answer.toolCalls?.[index]?.id;
  const head = JSON.stringify(own === undefined ? { name: call.name } : { id: own, name: call.name });
  return `{"functionCall":${head.slice(0, -1)},"args":${call.args}}}`;
}

function usageMetadata(p: Prepared, done: boolean): Record<string, unknown> {
  const prompt = { promptTokenCount: p.inputTokens };
  const details = { promptTokensDetails: [{ modality: 'TEXT', tokenCount: p.inputTokens }] };
  if (!done) return { ...prompt, totalTokenCount: p.inputTokens, ...details };
  return {
    ...prompt,
    candidatesTokenCount: p.outputTokens,
    totalTokenCount: p.inputTokens + p.outputTokens,
    ...details,
  };
}

/** One response (or chunk) with these parts (each part's JSON text). */
function response(p: Prepared, id: string, parts: readonly string[], done: boolean): string {
  const finish = done ? ',"finishReason":"STOP"' : '';
  const candidate = `{"content":{"parts":[${parts.join(',')}],"role":"model"}${finish},"index":0}`;
  const tail = JSON.stringify({ usageMetadata: usageMetadata(p, done), modelVersion: p.model, responseId: id });
  return `{"candidates":[${candidate}],${tail.slice(1)}`;
}

/** What one request gets: JSON, SSE chunks, or (streamed without `alt=sse`) the chunks as a JSON array. */
export function geminiWire(p: Prepared): LlmWire {
  const id = p.source.random(ID_ALPHABET, 22);
  const calls = p.calls.map((_, i) => functionCallPart(p, i));
  if (!p.stream) {
    const parts = [...(p.text === undefined ? [] : [JSON.stringify({ text: p.text })]), ...calls];
    return { kind: 'json', status: 200, headers: geminiHeaders(GEMINI_JSON), body: response(p, id, parts, true) };
  }
  const events: LlmEvent[] = p.textChunks.map((text) => ({
    data: response(p, id, [JSON.stringify({ text })], false),
    chunk: true,
  }));
  if (calls.length > 0) events.push({ data: response(p, id, calls, false), chunk: true });
  events.push({ data: response(p, id, ['{"text":""}'], true), chunk: false });
  if (p.parts.answer.stream === undefined && p.parts.request.alt !== 'sse') {
    // The REST method without alt=sse answers the chunks as one JSON array.
    const body = `[${events.map((event) => event.data).join(',\n')}]`;
    return { kind: 'json', status: 200, headers: geminiHeaders(GEMINI_JSON), body };
  }
  return { kind: 'sse', status: 200, headers: geminiHeaders(SSE_TYPE), events };
}

/** Google's status, status name and words for each error. */
const GEMINI_ERRORS: Readonly<Record<LlmErrorType, { code: number; status: string; message: string }>> = {
  rate_limit: {
    code: 429,
    status: 'RESOURCE_EXHAUSTED',
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
  },
  overloaded: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  server: {
    code: 500,
    status: 'INTERNAL',
    message:
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  },
  context_length: {
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: 'The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).',
  },
};

/**
 * The error body: `{ error: { code, message, status } }`; a quota error adds
 * Google's `Help` and `RetryInfo` details (`retryDelay` is `retryAfter`), an
 * overload its `RetryInfo` only when the route sets `retryAfter`.
 */
export function geminiError(error: LlmErrorDetail, _source: LlmSource): LlmWire {
  const shape = GEMINI_ERRORS[error.type];
  const body: { code: number; message: string; status: string; details?: unknown[] } = {
    code: shape.code,
    message: error.message ?? shape.message,
    status: shape.status,
  };
  const retry = `${error.retryAfter ?? 1}s`;
  if (error.type === 'rate_limit') {
    body.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Learn more about Gemini API quotas',
            url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: retry },
    ];
  } else if (error.type === 'overloaded' && error.retryAfter !== undefined) {
    body.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: retry }];
  }
  return {
    kind: 'json',
    status: shape.code,
    headers: geminiHeaders(GEMINI_JSON),
    body: JSON.stringify({ error: body }),
  };
}
