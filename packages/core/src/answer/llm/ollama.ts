/**
 * Ollama's `/api/chat` wire format, as the `ollama` npm package reads it: one
 * JSON object (`stream: false`), or NDJSON — a line per text chunk with
 * `done: false`, the tool calls in one line, then a last `done: true` line with
 * `done_reason`, the token counts and the durations (in nanoseconds). Tool
 * calls are `message.tool_calls: [{ function: { name, arguments } }]` with the
 * arguments as an object. Errors are `{ "error": "…" }` with the status.
 *
 * @module
 */
import type { LlmErrorDetail, LlmErrorType } from '../../api/answer-llm.js';
import type { LlmEvent, LlmSource, LlmWire, Prepared } from './llm-wire.js';

const OLLAMA_JSON = 'application/json; charset=utf-8';
const NDJSON = 'application/x-ndjson';

/** Nanoseconds: loading the model, reading a prompt token, writing an output token. */
const LOAD_NS = 1_000_000;
const PROMPT_TOKEN_NS = 250_000;
const OUTPUT_TOKEN_NS = 10_000_000;

/** `{ "function": { "name": …, "arguments": <the exact text> } }` (the id only when the route gives one). */
function toolCall(p: Prepared, index: number): string {
  const call = p.calls[index] as Prepared['calls'][number];
  const own = p.parts.answer.toolCalls?.[index]?.id;
  const fn = `${JSON.stringify({ name: call.name }).slice(0, -1)},"arguments":${call.args}}`;
  return own === undefined ? `{"function":${fn}}` : `{"id":${JSON.stringify(own)},"function":${fn}}`;
}

/** `{ model, created_at, message: { role, content, tool_calls? }, done: false }` or, done, with the counts. */
function line(p: Prepared, createdAt: string, content: string, calls: readonly string[], done: boolean): string {
  const head = JSON.stringify({ model: p.model, created_at: createdAt });
  const message = JSON.stringify({ role: 'assistant', content });
  const withCalls = calls.length === 0 ? message : `${message.slice(0, -1)},"tool_calls":[${calls.join(',')}]}`;
  const promptNs = p.inputTokens * PROMPT_TOKEN_NS;
  const evalNs = p.outputTokens * OUTPUT_TOKEN_NS;
  const tail = done
    ? JSON.stringify({
        done_reason: 'stop',
        done: true,
        total_duration: LOAD_NS + promptNs + evalNs,
        load_duration: LOAD_NS,
        prompt_eval_count: p.inputTokens,
        prompt_eval_duration: promptNs,
        eval_count: p.outputTokens,
        eval_duration: evalNs,
      })
    : '{"done":false}';
  return `${head.slice(0, -1)},"message":${withCalls},${tail.slice(1)}`;
}

/** What one request gets: one JSON object, or NDJSON lines. */
export function ollamaWire(p: Prepared): LlmWire {
  const createdAt = new Date(p.source.now()).toISOString();
  const calls = p.calls.map((_, i) => toolCall(p, i));
  if (!p.stream) {
    const body = line(p, createdAt, p.text ?? '', calls, true);
    return { kind: 'json', status: 200, headers: { 'content-type': OLLAMA_JSON }, body };
  }
  const events: LlmEvent[] = p.textChunks.map((chunk) => ({
    data: line(p, createdAt, chunk, [], false),
    chunk: true,
  }));
  if (calls.length > 0) events.push({ data: line(p, createdAt, '', calls, false), chunk: true });
  events.push({ data: line(p, createdAt, '', [], true), chunk: false });
  return { kind: 'ndjson', status: 200, headers: { 'content-type': NDJSON }, events };
}

/** Ollama's status and words for each error. */
const OLLAMA_ERRORS: Readonly<Record<LlmErrorType, { status: number; message: string }>> = {
  rate_limit: { status: 429, message: 'too many requests: you have reached your usage limit, please try again later' },
  overloaded: { status: 503, message: 'server busy, please try again.  maximum pending requests exceeded' },
  server: { status: 500, message: 'llama runner process has terminated: exit status 2' },
  context_length: { status: 400, message: 'the input length exceeds the context length' },
};

/** `{ "error": "…" }` with the status; `retry-after` on a quota error or an overload. */
export function ollamaError(error: LlmErrorDetail, _source: LlmSource): LlmWire {
  const shape = OLLAMA_ERRORS[error.type];
  const headers: Record<string, string> = { 'content-type': OLLAMA_JSON };
  if (error.type === 'rate_limit' || error.type === 'overloaded')
    headers['retry-after'] = String(error.retryAfter ?? 1);
  return {
    kind: 'json',
    status: shape.status,
    headers,
    body: JSON.stringify({ error: error.message ?? shape.message }),
  };
}
