/**
 * LLM API answers as they cross the wire: `llm: { provider, api, text?,
 * toolCalls?, stream?, chunkDelayMs?, usage?, error?, end?, model? }` in a
 * route's answer (see docs/llm.md), its JSON (each tool call's `arguments` kept
 * as its exact text), the text split into chunks the way the providers stream
 * it, and the checks the schema cannot state (which `api` each provider has,
 * arguments that are JSON objects, sizes, the stream's length), each with a
 * stable code.
 *
 * @module
 */

import { JsonText, jsonTextOf, scanJson } from '../codec/json-text.js';
import { MockpointError } from '../registry/errors.js';
import { minRenderedBytes, templateSyntaxProblem } from '../template/template-syntax.js';

/** Whose API is spoken. */
export type LlmProvider = 'openai' | 'anthropic' | 'gemini' | 'ollama' | 'bedrock';

/**
 * Which API of the provider: OpenAI's Chat Completions, Responses or Embeddings,
 * Anthropic's Messages, Gemini's generateContent (and its stream), Ollama's chat,
 * Bedrock's Converse and ConverseStream.
 */
export type LlmApi =
  | 'chat.completions'
  | 'responses'
  | 'messages'
  | 'embeddings'
  | 'generateContent'
  | 'chat'
  | 'converse'
  | 'converse-stream';

/** The providers, in the order the docs list them. */
export const LLM_PROVIDERS: readonly LlmProvider[] = ['openai', 'anthropic', 'gemini', 'ollama', 'bedrock'];

/** The APIs, in the order the docs list them. */
export const LLM_APIS: readonly LlmApi[] = [
  'chat.completions',
  'responses',
  'messages',
  'embeddings',
  'generateContent',
  'chat',
  'converse',
  'converse-stream',
];

/** The APIs each provider has. */
export const LLM_PROVIDER_APIS: Readonly<Record<LlmProvider, readonly LlmApi[]>> = {
  openai: ['chat.completions', 'responses', 'embeddings'],
  anthropic: ['messages'],
  gemini: ['generateContent'],
  ollama: ['chat'],
  bedrock: ['converse', 'converse-stream'],
};

/**
 * The errors an `llm` answer can give, each in the provider's own shape:
 * `rate_limit` (429 with `retry-after` and the rate-limit headers), `overloaded`
 * (Anthropic's 529; OpenAI's 503), `server` (500), `context_length` (400).
 */
export type LlmErrorType = 'rate_limit' | 'overloaded' | 'server' | 'context_length';

/** The error types, in the order the docs list them. */
export const LLM_ERROR_TYPES: readonly LlmErrorType[] = ['rate_limit', 'overloaded', 'server', 'context_length'];

/** An error with its own message or `retry-after`. */
export interface LlmErrorDetail {
  type: LlmErrorType;
  /** The error's message. @default the provider's own wording */
  message?: string;
  /** Seconds in `retry-after` (rate_limit and overloaded). @default 1 */
  retryAfter?: number;
}

/** One tool (function) call of the answer. */
export interface LlmToolCall {
  /** The tool's name. */
  name: string;
  /** The arguments: a JSON object, sent as its exact text. @default {} */
  arguments?: unknown;
  /** The call's id (`call_…` for OpenAI, `toolu_…` for Anthropic). @default a fresh realistic-looking one */
  id?: string;
}

/** Token counts reported. */
export interface LlmUsage {
  /** @default an estimate: the request's messages (or input) in characters / 4 */
  inputTokens?: number;
  /** @default the number of chunks the text and arguments are split into */
  outputTokens?: number;
}

/**
 * An answer in an LLM provider's wire format.
 * @example { provider: 'openai', api: 'chat.completions', text: 'Hello!', chunkDelayMs: 20 }
 */
export interface LlmAnswer {
  provider: LlmProvider;
  api: LlmApi;
  /** The assistant's text (templated with `template: true`). */
  text?: string;
  toolCalls?: LlmToolCall[];
  /** Stream (SSE) or not; absent: as the request's `stream` field asks. */
  stream?: boolean;
  /** Milliseconds between streamed chunks. @default 0 */
  chunkDelayMs?: number;
  usage?: LlmUsage;
  /** Answer with this error instead (in the provider's error shape). */
  error?: LlmErrorType | LlmErrorDetail;
  /** After the answer: `close` (all of it), or `reset`: the connection breaks halfway. @default 'close' */
  end?: 'close' | 'reset';
  /** The model named in the answer. @default the request's `model`, else a current model of the provider */
  model?: string;
}

/** Longest model name an answer names (a request's longer `model` is not echoed). */
export const MAX_LLM_MODEL_LENGTH = 256;

/** Most tool calls in one answer. */
export const MAX_LLM_TOOL_CALLS = 128;

/** Longest tool name (OpenAI's and Anthropic's limit). */
export const MAX_LLM_TOOL_NAME_LENGTH = 64;

/** Largest `retry-after`, in seconds (a day). */
export const MAX_LLM_RETRY_AFTER = 86_400;

/** Longest error message. */
export const MAX_LLM_ERROR_MESSAGE_LENGTH = 4096;

/** A tool name or call id: what the providers accept (letters, digits, `_` and `-`). */
export const LLM_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A token-like piece of text: a word with the blanks before it (at most 12
 * code points), a run of up to 4 other visible characters with the blanks
 * before it, or a run of white space. Every code point falls in one, so the
 * pieces joined are the text.
 */
const CHUNK = /[ \t]*[\p{L}\p{M}\p{N}_']{1,12}|[ \t]*[^\s\p{L}\p{M}\p{N}_']{1,4}|\s+/gu;

/**
 * `text` split into chunks the way the providers stream it: about one token
 * each (a word with its leading space, punctuation apart), at most `most`
 * chunks (neighbours are joined to stay within it). Joined, the chunks are `text`.
 */
export function llmChunks(text: string, most = Number.POSITIVE_INFINITY): string[] {
  const chunks = text.match(CHUNK) ?? [];
  if (chunks.length <= most || most < 1) return chunks;
  const size = Math.ceil(chunks.length / most);
  const joined: string[] = [];
  for (let i = 0; i < chunks.length; i += size) joined.push(chunks.slice(i, i + size).join(''));
  return joined;
}

/** The error's type, message and retry-after, from either form. */
export function llmErrorDetail(error: LlmErrorType | LlmErrorDetail): LlmErrorDetail {
  return typeof error === 'string' ? { type: error } : error;
}

/** The limits an `llm` answer is checked against. */
export interface LlmLimits {
  maxBodyBytes: number;
  maxStreamEvents: number;
  maxStreamMs: number;
}

const encoder = new TextEncoder();

/** Events a stream has besides its chunks: start, text block, finish, usage, terminator… */
const STREAM_OVERHEAD_EVENTS = 12;
/** …and each tool call's own (its item or block added, done, stopped). */
const CALL_OVERHEAD_EVENTS = 3;

/**
 * Checks an `llm` answer that passed the schema: the provider has the api,
 * tool names and ids, arguments that are JSON objects, the error's message and
 * retry-after, the template syntax of `text` (when `template`), the text and
 * arguments within `maxBodyBytes` (`BODY_TOO_LARGE`), a stream's chunks within
 * `maxStreamEvents` and their delays within `maxStreamMs` (`STREAM_TOO_LONG`).
 * `where` starts each message (e.g. `routes[2].answer`).
 */
export function checkLlm(
  llm: LlmAnswer,
  options: LlmLimits & { where: string; details?: Record<string, unknown>; template: boolean; delay: number },
): void {
  const { details } = options;
  const at = `${options.where}.llm`;
  const invalid = (path: string, message: string): never => {
    throw new MockpointError('INVALID_LLM', `${at}${path}: ${message}`, { details });
  };
  const apis = LLM_PROVIDER_APIS[llm.provider];
  if (!apis.includes(llm.api)) {
    invalid('.api', `${llm.provider} has ${apis.join(' and ')}, not ${llm.api}`);
  }
  // Bedrock's api says whether it streams (converse-stream) or not.
  const bedrockStreams = llm.provider === 'bedrock' ? llm.api === 'converse-stream' : undefined;
  if (bedrockStreams !== undefined && llm.stream !== undefined && llm.stream !== bedrockStreams) {
    invalid('.stream', `bedrock's ${llm.api} ${bedrockStreams ? 'always streams' : 'never streams'}: leave stream out`);
  }
  // Bedrock's converse-stream may stream text or tool calls before an error (its exception frame).
  const midStream = bedrockStreams === true && (llm.text !== undefined || llm.toolCalls !== undefined);
  if (llm.error !== undefined) {
    const error = llmErrorDetail(llm.error);
    if (llm.end !== undefined || (!midStream && (llm.text !== undefined || llm.toolCalls !== undefined))) {
      invalid('', 'an error answer has no text, toolCalls or end (it is the error alone)');
    }
    if (error.retryAfter !== undefined && error.type !== 'rate_limit' && error.type !== 'overloaded') {
      invalid('.error.retryAfter', `applies to rate_limit and overloaded, not ${error.type}`);
    }
    if (error.retryAfter !== undefined && llm.provider === 'bedrock') {
      invalid('.error.retryAfter', 'bedrock sends no retry-after (the AWS SDK backs off on its own)');
    }
    if (!midStream) return;
  }
  if (llm.api === 'embeddings') {
    for (const field of ['text', 'toolCalls', 'stream', 'chunkDelayMs'] as const) {
      if (llm[field] !== undefined)
        invalid(
          `.${field}`,
          "an embeddings answer has no text, toolCalls or stream (its vectors come from the request's input)",
        );
    }
    return;
  }
  const calls = llm.toolCalls ?? [];
  if (calls.length > MAX_LLM_TOOL_CALLS) invalid('.toolCalls', `at most ${MAX_LLM_TOOL_CALLS} tool calls`);
  let bytes = 0;
  let chunks = 0;
  calls.forEach((call, i) => {
    if (!LLM_NAME_PATTERN.test(call.name)) {
      invalid(`.toolCalls[${i}].name`, 'must be 1-64 characters of A-Z a-z 0-9 _ -');
    }
    if (call.id !== undefined && !LLM_NAME_PATTERN.test(call.id)) {
      invalid(`.toolCalls[${i}].id`, 'must be 1-64 characters of A-Z a-z 0-9 _ -');
    }
    if (call.arguments !== undefined) {
      const text = jsonTextOf(call.arguments);
      if (!text.startsWith('{')) invalid(`.toolCalls[${i}].arguments`, 'must be a JSON object');
      bytes += encoder.encode(text).byteLength;
      chunks += llmChunks(text).length;
    }
  });
  if (llm.text !== undefined) {
    if (options.template) {
      const problem = templateSyntaxProblem(llm.text);
      if (problem !== undefined) throw new MockpointError('INVALID_TEMPLATE', `${at}.text: ${problem}`, { details });
      bytes += minRenderedBytes(llm.text);
    } else bytes += encoder.encode(llm.text).byteLength;
    chunks += llmChunks(llm.text).length;
  }
  if (bytes > options.maxBodyBytes) {
    throw new MockpointError(
      'BODY_TOO_LARGE',
      `${at}: the text and arguments are ${bytes} bytes, more than the limit ${options.maxBodyBytes} (MOCKPOINT_MAX_BODY_BYTES)`,
      { details },
    );
  }
  if (llm.stream === false || bedrockStreams === false) return;
  const events = chunks + STREAM_OVERHEAD_EVENTS + CALL_OVERHEAD_EVENTS * calls.length;
  if (events > options.maxStreamEvents) {
    throw new MockpointError(
      'STREAM_TOO_LONG',
      `${at}: streamed, the text and arguments are ${chunks} chunks, ${events} events in all, more than the limit ${options.maxStreamEvents} (MOCKPOINT_MAX_STREAM_EVENTS); shorten the text or raise the limit`,
      { details },
    );
  }
  const total = options.delay + chunks * (llm.chunkDelayMs ?? 0);
  if (total > options.maxStreamMs) {
    throw new MockpointError(
      'STREAM_TOO_LONG',
      `${at}: streamed, ${chunks} chunks ${llm.chunkDelayMs} ms apart take ${total} ms, more than the limit ${options.maxStreamMs} (MOCKPOINT_MAX_STREAM_MS)`,
      { details },
    );
  }
}

/**
 * An `llm` object from its JSON text, each tool call's `arguments` kept as its
 * exact text (a {@link JsonText}); everything else parsed. Not checked.
 */
export function llmFromJson(text: string): unknown {
  const members = text.startsWith('{') ? scanJson(text).members : undefined;
  if (members === undefined) return JSON.parse(text);
  return Object.fromEntries(
    [...members].map(([key, value]) => {
      if (key !== 'toolCalls' || !value.startsWith('[')) return [key, JSON.parse(value)];
      const calls = (scanJson(value).elements ?? []).map((element) => {
        const fields = element.startsWith('{') ? scanJson(element).members : undefined;
        if (fields === undefined) return JSON.parse(element);
        return Object.fromEntries(
          [...fields].map(([name, field]) => [name, name === 'arguments' ? new JsonText(field) : JSON.parse(field)]),
        );
      });
      return [key, calls];
    }),
  );
}
