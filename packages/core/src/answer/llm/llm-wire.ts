/**
 * The wire formats of the LLM APIs an `llm` answer speaks: OpenAI's Chat
 * Completions and Responses, Anthropic's Messages — each as one JSON body or as
 * the server-sent events the provider streams (event names, ids, terminators,
 * usage), and each provider's error bodies and rate-limit headers; Gemini
 * (gemini.ts), Ollama (ollama.ts), OpenAI's embeddings (openai-embeddings.ts)
 * and Bedrock (bedrock.ts) in their own modules, dispatched from here. Pure: what
 * one request gets, from the answer, the request's fields and fresh ids; the
 * route's compiled answer (llm-answer.ts) turns it into a respond or stream answer.
 *
 * @module
 */
import {
  type LlmAnswer,
  type LlmErrorDetail,
  type LlmErrorType,
  type LlmToolCall,
  llmChunks,
  llmErrorDetail,
} from '../../api/answer-llm.js';
import { jsonTextOf } from '../../codec/json-text.js';
import { bedrockError, bedrockMidStream, converseJson, converseStream, TOOL_USE_ID_ALPHABET } from './bedrock.js';
import { geminiError, geminiModelOf, geminiStreamed, geminiWire } from './gemini.js';
import { ollamaError, ollamaWire } from './ollama.js';
import { embeddingsJson } from './openai-embeddings.js';

/** What the answer reads of the request. */
export interface LlmRequest {
  /** The request's `model`, when a string of at most 256 characters. */
  readonly model?: string;
  /** The request's `stream`, when a boolean. */
  readonly stream?: boolean;
  /** OpenAI chat: `stream_options.include_usage` is true (then a last chunk carries the usage). */
  readonly includeUsage: boolean;
  /** Characters of the request's messages (or input, and system): the input tokens are a quarter of it. */
  readonly inputChars: number;
  /** The request's subpath (Gemini names the model and the stream in it). */
  readonly path?: string;
  /** The request's `alt` query parameter (Gemini's `alt=sse`). */
  readonly alt?: string;
  /** Embeddings: the request's `input`, `dimensions` and `encoding_format`. */
  readonly input?: unknown;
  readonly dimensions?: unknown;
  readonly encodingFormat?: unknown;
}

/** Where fresh ids and the time come from (a test passes fixed ones). */
export interface LlmSource {
  /** `count` characters of `alphabet`, at random. */
  random(alphabet: string, count: number): string;
  /** Now, in milliseconds since the epoch. */
  now(): number;
}

/** One event of a streamed answer. */
export interface LlmEvent {
  /** The `event:` line (Anthropic and Responses name their events; OpenAI chat does not). */
  readonly event?: string;
  readonly data: string;
  /** A chunk of text or arguments (each comes `chunkDelayMs` after the one before; a reset cuts among them). */
  readonly chunk: boolean;
}

/**
 * What one request gets: a JSON body, or events (SSE frames, NDJSON lines: each `data` and a
 * newline, or AWS's binary event stream for Bedrock).
 */
export type LlmWire =
  | { readonly kind: 'json'; readonly status: number; readonly headers: Record<string, string>; readonly body: string }
  | {
      readonly kind: 'sse';
      readonly status: number;
      readonly headers: Record<string, string>;
      readonly events: readonly LlmEvent[];
    }
  | {
      readonly kind: 'ndjson';
      readonly status: number;
      readonly headers: Record<string, string>;
      readonly events: readonly LlmEvent[];
    }
  | {
      readonly kind: 'eventstream';
      readonly status: number;
      readonly headers: Record<string, string>;
      readonly events: readonly LlmEvent[];
    };

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const HEX = '0123456789abcdef';

/** The source of a running server: `crypto.getRandomValues` and the clock. */
export const LIVE_SOURCE: LlmSource = {
  random(alphabet, count) {
    const bytes = crypto.getRandomValues(new Uint8Array(count));
    let out = '';
    for (const byte of bytes) out += alphabet[byte % alphabet.length];
    return out;
  },
  now: () => Date.now(),
};

/** The model named when neither the answer nor the request names one. */
export const DEFAULT_MODELS: Readonly<Record<LlmAnswer['provider'], string>> = {
  openai: 'gpt-4o-mini-2024-07-18',
  anthropic: 'claude-sonnet-4-5-20250929',
  gemini: 'gemini-2.5-flash',
  ollama: 'llama3.2',
  bedrock: 'anthropic.claude-3-5-haiku-20241022-v1:0',
};

/** An answer's parts once its text is rendered. */
export interface LlmParts {
  readonly answer: LlmAnswer;
  /** The text, rendered for this request. */
  readonly text: string | undefined;
  readonly request: LlmRequest;
  /** Most chunks the text and arguments are split into (neighbours joined past it). */
  readonly maxChunks: number;
}

export interface Call {
  readonly id: string;
  readonly name: string;
  /** The arguments' exact JSON text. */
  readonly args: string;
}

/** Everything a format needs: ids made, text and arguments split, tokens counted. */
export interface Prepared {
  readonly parts: LlmParts;
  readonly source: LlmSource;
  readonly model: string;
  readonly created: number;
  readonly text: string | undefined;
  readonly textChunks: string[];
  readonly calls: readonly Call[];
  readonly callChunks: string[][];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly stream: boolean;
}

export function prepare(parts: LlmParts, source: LlmSource): Prepared {
  const { answer, request, text } = parts;
  const anthropic = answer.provider === 'anthropic';
  const calls = (answer.toolCalls ?? []).map(
    (call: LlmToolCall): Call => ({
      id:
        call.id ??
        (anthropic
          ? `toolu_01${source.random(BASE58, 22)}`
          : answer.provider === 'bedrock'
            ? `tooluse_${source.random(TOOL_USE_ID_ALPHABET, 22)}`
            : `call_${source.random(ALNUM, 24)}`),
      name: call.name,
      args: call.arguments === undefined ? '{}' : jsonTextOf(call.arguments),
    }),
  );
  // One budget of chunks for the text and every call's arguments.
  const pieces = (text === undefined ? 0 : 1) + calls.length;
  const share = Math.max(1, Math.floor(parts.maxChunks / Math.max(1, pieces)));
  const textChunks = text === undefined ? [] : llmChunks(text, share);
  const callChunks = calls.map((call) => llmChunks(call.args, share));
  const counted = textChunks.length + callChunks.reduce((sum, chunks) => sum + chunks.length, 0);
  return {
    parts,
    source,
    model:
      answer.model ??
      (answer.provider === 'gemini' ? geminiModelOf(request.path) : request.model) ??
      DEFAULT_MODELS[answer.provider],
    created: Math.floor(source.now() / 1000),
    text,
    textChunks,
    calls,
    callChunks,
    inputTokens: answer.usage?.inputTokens ?? Math.max(1, Math.ceil(request.inputChars / 4)),
    outputTokens: answer.usage?.outputTokens ?? Math.max(1, counted),
    // Gemini streams on its :streamGenerateContent path; Ollama's `stream` defaults to true.
    stream:
      answer.stream ??
      (answer.provider === 'gemini' ? geminiStreamed(request.path) : (request.stream ?? answer.provider === 'ollama')),
  };
}

/** What one request gets from `parts`. */
export function llmWire(parts: LlmParts, source: LlmSource = LIVE_SOURCE): LlmWire {
  const { answer } = parts;
  if (answer.error !== undefined && !bedrockMidStream(answer)) {
    const error = llmErrorDetail(answer.error);
    switch (answer.provider) {
      case 'anthropic':
        return anthropicError(error, source);
      case 'gemini':
        return geminiError(error, source);
      case 'ollama':
        return ollamaError(error, source);
      case 'bedrock':
        return bedrockError(error, source);
      default:
        return openaiError(error, answer, parts, source);
    }
  }
  if (answer.api === 'embeddings') return embeddingsJson(parts, source);
  const prepared = prepare(parts, source);
  switch (answer.api) {
    case 'chat.completions':
      return prepared.stream ? chatStream(prepared) : chatJson(prepared);
    case 'responses':
      return prepared.stream ? responsesStream(prepared) : responsesJson(prepared);
    case 'messages':
      return prepared.stream ? messagesStream(prepared) : messagesJson(prepared);
    case 'generateContent':
      return geminiWire(prepared);
    case 'chat':
      return ollamaWire(prepared);
    case 'converse':
      return converseJson(prepared);
    case 'converse-stream':
      return converseStream(prepared);
  }
}

export const JSON_TYPE = 'application/json';
const SSE_TYPE = 'text/event-stream; charset=utf-8';

// ---- OpenAI ----------------------------------------------------------------

/** The headers OpenAI sends with every answer (rate-limit counters included). */
export function openaiHeaders(source: LlmSource, type: string, limited: number | undefined): Record<string, string> {
  return {
    'content-type': type,
    'x-request-id': `req_${source.random(HEX, 32)}`,
    'openai-version': '2020-10-01',
    'openai-processing-ms': '1',
    'x-ratelimit-limit-requests': '10000',
    'x-ratelimit-limit-tokens': '30000000',
    'x-ratelimit-remaining-requests': limited === undefined ? '9999' : '0',
    'x-ratelimit-remaining-tokens': limited === undefined ? '29999000' : '0',
    'x-ratelimit-reset-requests': limited === undefined ? '6ms' : `${limited}s`,
    'x-ratelimit-reset-tokens': limited === undefined ? '2ms' : `${limited}s`,
  };
}

function chatUsage(p: Prepared): Record<string, unknown> {
  return {
    prompt_tokens: p.inputTokens,
    completion_tokens: p.outputTokens,
    total_tokens: p.inputTokens + p.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function chatJson(p: Prepared): LlmWire {
  const id = `chatcmpl-${p.source.random(ALNUM, 29)}`;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: p.text ?? null,
    refusal: null,
    annotations: [],
  };
  if (p.calls.length > 0) {
    message.tool_calls = p.calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.args },
    }));
  }
  const body = {
    id,
    object: 'chat.completion',
    created: p.created,
    model: p.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: p.calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: chatUsage(p),
    service_tier: 'default',
    system_fingerprint: `fp_${p.source.random(HEX, 10)}`,
  };
  return {
    kind: 'json',
    status: 200,
    headers: openaiHeaders(p.source, JSON_TYPE, undefined),
    body: JSON.stringify(body),
  };
}

function chatStream(p: Prepared): LlmWire {
  const id = `chatcmpl-${p.source.random(ALNUM, 29)}`;
  const fingerprint = `fp_${p.source.random(HEX, 10)}`;
  const includeUsage = p.parts.request.includeUsage;
  // Every chunk, the usage one too, starts with the same fields in the same order.
  const envelope = {
    id,
    object: 'chat.completion.chunk',
    created: p.created,
    model: p.model,
    service_tier: 'default',
    system_fingerprint: fingerprint,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    JSON.stringify({
      ...envelope,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const events: LlmEvent[] = [
    {
      data: chunk({ role: 'assistant', content: p.text === undefined ? null : '', refusal: null }, null),
      chunk: false,
    },
  ];
  for (const content of p.textChunks) events.push({ data: chunk({ content }, null), chunk: true });
  p.calls.forEach((call, index) => {
    const start = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    events.push({ data: chunk({ tool_calls: [start] }, null), chunk: false });
    for (const piece of p.callChunks[index] ?? []) {
      events.push({ data: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null), chunk: true });
    }
  });
  events.push({ data: chunk({}, p.calls.length > 0 ? 'tool_calls' : 'stop'), chunk: false });
  if (includeUsage) {
    events.push({ data: JSON.stringify({ ...envelope, choices: [], usage: chatUsage(p) }), chunk: false });
  }
  events.push({ data: '[DONE]', chunk: false });
  return { kind: 'sse', status: 200, headers: openaiHeaders(p.source, SSE_TYPE, undefined), events };
}

interface ResponseItem {
  readonly id: string;
  readonly done: Record<string, unknown>;
  readonly added: Record<string, unknown>;
}

function responsesItems(p: Prepared): ResponseItem[] {
  const items: ResponseItem[] = [];
  if (p.text !== undefined) {
    const id = `msg_${p.source.random(HEX, 48)}`;
    const base = { id, type: 'message', role: 'assistant' };
    items.push({
      id,
      added: { ...base, status: 'in_progress', content: [] },
      done: {
        ...base,
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: p.text }],
      },
    });
  }
  for (const call of p.calls) {
    const id = `fc_${p.source.random(HEX, 48)}`;
    items.push({
      id,
      added: { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: call.id, name: call.name },
      done: { id, type: 'function_call', status: 'completed', arguments: call.args, call_id: call.id, name: call.name },
    });
  }
  return items;
}

function responseObject(
  p: Prepared,
  id: string,
  status: 'in_progress' | 'completed',
  output: unknown[],
): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: p.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: p.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage:
      status === 'completed'
        ? {
            input_tokens: p.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: p.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: p.inputTokens + p.outputTokens,
          }
        : null,
    user: null,
    metadata: {},
  };
}

function responsesJson(p: Prepared): LlmWire {
  const id = `resp_${p.source.random(HEX, 48)}`;
  const body = JSON.stringify(
    responseObject(
      p,
      id,
      'completed',
      responsesItems(p).map((item) => item.done),
    ),
  );
  return { kind: 'json', status: 200, headers: openaiHeaders(p.source, JSON_TYPE, undefined), body };
}

function responsesStream(p: Prepared): LlmWire {
  const id = `resp_${p.source.random(HEX, 48)}`;
  const items = responsesItems(p);
  const events: LlmEvent[] = [];
  let sequence = 0;
  const push = (type: string, fields: Record<string, unknown>, chunk = false): void => {
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }), chunk });
  };
  push('response.created', { response: responseObject(p, id, 'in_progress', []) });
  push('response.in_progress', { response: responseObject(p, id, 'in_progress', []) });
  let call = 0;
  items.forEach((item, output_index) => {
    push('response.output_item.added', { output_index, item: item.added });
    if (item.added.type === 'message') {
      const where = { item_id: item.id, output_index, content_index: 0 };
      push('response.content_part.added', {
        ...where,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
      for (const delta of p.textChunks) push('response.output_text.delta', { ...where, delta, logprobs: [] }, true);
      push('response.output_text.done', { ...where, text: p.text, logprobs: [] });
      push('response.content_part.done', {
        ...where,
        part: { type: 'output_text', annotations: [], logprobs: [], text: p.text },
      });
    } else {
      const where = { item_id: item.id, output_index };
      for (const delta of p.callChunks[call] ?? [])
        push('response.function_call_arguments.delta', { ...where, delta }, true);
      push('response.function_call_arguments.done', { ...where, arguments: p.calls[call]?.args });
      call++;
    }
    push('response.output_item.done', { output_index, item: item.done });
  });
  push('response.completed', {
    response: responseObject(
      p,
      id,
      'completed',
      items.map((item) => item.done),
    ),
  });
  return { kind: 'sse', status: 200, headers: openaiHeaders(p.source, SSE_TYPE, undefined), events };
}

/** OpenAI's words for each error, its status, type and code (an overload is OpenAI's 503). */
const OPENAI_ERRORS: Readonly<
  Record<LlmErrorType, { status: number; type: string; code: string | null; message: string }>
> = {
  rate_limit: {
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded',
    message:
      'Rate limit reached for {model} in organization org-mockpoint on requests per min (RPM): Limit 10000, Used 10000, Requested 1. Please try again in {retry}s. Visit https://platform.openai.com/account/rate-limits to learn more.',
  },
  overloaded: {
    status: 503,
    type: 'server_error',
    code: null,
    message: 'The engine is currently overloaded, please try again later.',
  },
  server: {
    status: 500,
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  context_length: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
  },
};

function openaiError(error: LlmErrorDetail, answer: LlmAnswer, parts: LlmParts, source: LlmSource): LlmWire {
  const shape = OPENAI_ERRORS[error.type];
  const retry = error.retryAfter ?? 1;
  const limited = error.type === 'rate_limit' || error.type === 'overloaded';
  const model = answer.model ?? parts.request.model ?? DEFAULT_MODELS.openai;
  let message = error.message ?? shape.message.replace('{retry}', String(retry)).replace('{model}', () => model);
  if (error.message === undefined && error.type === 'context_length' && answer.api === 'responses') {
    message = 'Your input exceeds the context window of this model. Please adjust your input and try again.';
  }
  const param = error.type === 'context_length' ? (answer.api === 'chat.completions' ? 'messages' : 'input') : null;
  const headers = openaiHeaders(source, JSON_TYPE, error.type === 'rate_limit' ? retry : undefined);
  if (limited) headers['retry-after'] = String(retry);
  const body = JSON.stringify({ error: { message, type: shape.type, param, code: shape.code } });
  return { kind: 'json', status: shape.status, headers, body };
}

// ---- Anthropic -------------------------------------------------------------

function anthropicHeaders(source: LlmSource, type: string, limited: number | undefined): Record<string, string> {
  const reset = new Date(source.now() + (limited ?? 1) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const headers: Record<string, string> = {
    'content-type': type,
    'request-id': `req_011C${source.random(BASE58, 20)}`,
    'anthropic-organization-id': '00000000-0000-4000-8000-000000000000',
  };
  for (const kind of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
    const limit = kind === 'requests' ? 4000 : kind === 'output-tokens' ? 80000 : 400000;
    headers[`anthropic-ratelimit-${kind}-limit`] = String(limit);
    headers[`anthropic-ratelimit-${kind}-remaining`] = String(limited === undefined ? limit - 1 : 0);
    headers[`anthropic-ratelimit-${kind}-reset`] = reset;
  }
  return headers;
}

function messageUsage(p: Prepared, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: p.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** The content blocks' JSON text: each tool_use's input is the arguments' exact text. */
function messageContentText(p: Prepared): string {
  const blocks: string[] = [];
  if (p.text !== undefined) blocks.push(JSON.stringify({ type: 'text', text: p.text }));
  for (const call of p.calls) {
    const head = JSON.stringify({ type: 'tool_use', id: call.id, name: call.name });
    blocks.push(`${head.slice(0, -1)},"input":${call.args}}`);
  }
  return `[${blocks.join(',')}]`;
}

function messagesJson(p: Prepared): LlmWire {
  const head = JSON.stringify({
    id: `msg_01${p.source.random(BASE58, 22)}`,
    type: 'message',
    role: 'assistant',
    model: p.model,
  });
  const tail = JSON.stringify({
    stop_reason: p.calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: messageUsage(p, p.outputTokens),
  });
  const body = `${head.slice(0, -1)},"content":${messageContentText(p)},${tail.slice(1)}`;
  return { kind: 'json', status: 200, headers: anthropicHeaders(p.source, JSON_TYPE, undefined), body };
}

function messagesStream(p: Prepared): LlmWire {
  const events: LlmEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>, chunk = false): void => {
    events.push({ event: type, data: JSON.stringify({ type, ...fields }), chunk });
  };
  push('message_start', {
    message: {
      id: `msg_01${p.source.random(BASE58, 22)}`,
      type: 'message',
      role: 'assistant',
      model: p.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: messageUsage(p, 1),
    },
  });
  let index = 0;
  if (p.text !== undefined) {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    push('ping', {});
    for (const text of p.textChunks) push('content_block_delta', { index, delta: { type: 'text_delta', text } }, true);
    push('content_block_stop', { index });
    index++;
  }
  p.calls.forEach((call, i) => {
    push('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    if (index === 0) push('ping', {});
    for (const partial_json of p.callChunks[i] ?? []) {
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }, true);
    }
    push('content_block_stop', { index });
    index++;
  });
  push('message_delta', {
    delta: { stop_reason: p.calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: p.outputTokens },
  });
  push('message_stop', {});
  return { kind: 'sse', status: 200, headers: anthropicHeaders(p.source, SSE_TYPE, undefined), events };
}

/** Anthropic's status, type and words for each error. */
const ANTHROPIC_ERRORS: Readonly<Record<LlmErrorType, { status: number; type: string; message: string }>> = {
  rate_limit: {
    status: 429,
    type: 'rate_limit_error',
    message:
      'Number of requests has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please try again later.',
  },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  server: { status: 500, type: 'api_error', message: 'Internal server error' },
  context_length: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 208310 tokens > 200000 maximum',
  },
};

function anthropicError(error: LlmErrorDetail, source: LlmSource): LlmWire {
  const shape = ANTHROPIC_ERRORS[error.type];
  const retry = error.retryAfter ?? 1;
  const headers = anthropicHeaders(source, JSON_TYPE, error.type === 'rate_limit' ? retry : undefined);
  if (error.type === 'rate_limit' || error.type === 'overloaded') headers['retry-after'] = String(retry);
  const body = JSON.stringify({
    type: 'error',
    error: { type: shape.type, message: error.message ?? shape.message },
    request_id: headers['request-id'],
  });
  return { kind: 'json', status: shape.status, headers, body };
}
