/**
 * AWS Bedrock's Converse API as an `llm` answer speaks it: `converse` (one JSON
 * body: `output.message.content`, `stopReason`, `usage`, `metrics`) and
 * `converse-stream` (the events `messageStart`, `contentBlockStart` for a tool
 * call, `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`,
 * each one JSON payload; framed in AWS's binary event stream by
 * bedrock-stream.ts), and the errors the AWS SDK reads from
 * `x-amzn-errortype` and a `{ message }` body. Pure, like llm-wire.ts.
 *
 * @module
 */
import { type LlmAnswer, type LlmErrorDetail, type LlmErrorType, llmErrorDetail } from '../../api/answer-llm.js';
import type { LlmEvent, LlmSource, LlmWire, Prepared } from './llm-wire.js';

/** The characters of a Bedrock tool use id after `tooluse_` (URL-safe base64). */
export const TOOL_USE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The Content-Type of a ConverseStream answer: AWS's binary event stream. */
export const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';

const HEX = '0123456789abcdef';

/** A request id as AWS writes it: a random (v4) UUID. */
function requestId(source: LlmSource): string {
  const hex = source.random(HEX, 30);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-${source.random('89ab', 1)}${hex.slice(15, 18)}-${hex.slice(18, 30)}`;
}

function bedrockHeaders(source: LlmSource, type: string): Record<string, string> {
  return { 'content-type': type, 'x-amzn-requestid': requestId(source) };
}

function stopReason(p: Prepared): string {
  return p.calls.length > 0 ? 'tool_use' : 'end_turn';
}

function usage(p: Prepared): Record<string, number> {
  return { inputTokens: p.inputTokens, outputTokens: p.outputTokens, totalTokens: p.inputTokens + p.outputTokens };
}

/** What the answer takes, as Bedrock reports it: the chunks' delays, at least 1 ms. */
function metrics(p: Prepared): Record<string, number> {
  const chunks = p.textChunks.length + p.callChunks.reduce((sum, chunks) => sum + chunks.length, 0);
  return { latencyMs: Math.max(1, (p.parts.answer.chunkDelayMs ?? 0) * chunks) };
}

/** `{ "toolUse": { toolUseId, name, input } }`, the input being the arguments' exact text. */
function toolUseText(call: Prepared['calls'][number]): string {
  const head = JSON.stringify({ toolUseId: call.id, name: call.name });
  return `{"toolUse":${head.slice(0, -1)},"input":${call.args}}}`;
}

/** Converse: one JSON body. */
export function converseJson(p: Prepared): LlmWire {
  const content: string[] = [];
  if (p.text !== undefined) content.push(JSON.stringify({ text: p.text }));
  for (const call of p.calls) content.push(toolUseText(call));
  const tail = JSON.stringify({ stopReason: stopReason(p), usage: usage(p), metrics: metrics(p) });
  const body = `{"output":{"message":{"role":"assistant","content":[${content.join(',')}]}},${tail.slice(1)}`;
  return { kind: 'json', status: 200, headers: bedrockHeaders(p.source, 'application/json'), body };
}

/**
 * Whether the answer streams its text or tool calls and then its error, as an
 * exception frame (converse-stream with `error` beside `text` or `toolCalls`).
 */
export function bedrockMidStream(answer: LlmAnswer): boolean {
  return (
    answer.provider === 'bedrock' &&
    answer.api === 'converse-stream' &&
    answer.error !== undefined &&
    (answer.text !== undefined || answer.toolCalls !== undefined)
  );
}

/** The exception of each error, as ConverseStream's union names its member (the frame's `:exception-type`). */
const STREAM_EXCEPTIONS: Readonly<Record<LlmErrorType, string>> = {
  rate_limit: 'throttlingException',
  overloaded: 'serviceUnavailableException',
  server: 'internalServerException',
  context_length: 'validationException',
};

/** An exception event: bedrock-stream.ts frames an event whose name ends in `Exception` as one. */
export function isExceptionEvent(event: string | undefined): boolean {
  return event?.endsWith('Exception') === true;
}

/**
 * ConverseStream: the events, each `event` its `:event-type` and `data` its
 * JSON payload; with an error (see {@link bedrockMidStream}), the chunks and
 * then the exception in place of the blocks' ends, `messageStop` and `metadata`.
 */
export function converseStream(p: Prepared): LlmWire {
  const failed = p.parts.answer.error === undefined ? undefined : llmErrorDetail(p.parts.answer.error);
  const events: LlmEvent[] = [];
  const push = (event: string, payload: Record<string, unknown>, chunk = false): void => {
    events.push({ event, data: JSON.stringify(payload), chunk });
  };
  push('messageStart', { role: 'assistant' });
  let contentBlockIndex = 0;
  if (p.text !== undefined) {
    for (const text of p.textChunks) push('contentBlockDelta', { contentBlockIndex, delta: { text } }, true);
    push('contentBlockStop', { contentBlockIndex });
    contentBlockIndex++;
  }
  p.calls.forEach((call, i) => {
    push('contentBlockStart', { contentBlockIndex, start: { toolUse: { toolUseId: call.id, name: call.name } } });
    for (const input of p.callChunks[i] ?? []) {
      push('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } }, true);
    }
    push('contentBlockStop', { contentBlockIndex });
    contentBlockIndex++;
  });
  if (failed !== undefined) {
    const stop = events.findLastIndex((event) => event.chunk) + 1;
    events.length = stop;
    push(STREAM_EXCEPTIONS[failed.type], { message: failed.message ?? BEDROCK_ERRORS[failed.type].message });
  } else {
    push('messageStop', { stopReason: stopReason(p) });
    push('metadata', { usage: usage(p), metrics: metrics(p) });
  }
  return { kind: 'eventstream', status: 200, headers: bedrockHeaders(p.source, EVENT_STREAM_TYPE), events };
}

/** Bedrock's status, exception and words for each error. */
const BEDROCK_ERRORS: Readonly<Record<LlmErrorType, { status: number; type: string; message: string }>> = {
  rate_limit: {
    status: 429,
    type: 'ThrottlingException',
    message: 'Too many requests, please wait before trying again.',
  },
  overloaded: {
    status: 503,
    type: 'ServiceUnavailableException',
    message: 'Bedrock is unable to process your request.',
  },
  server: {
    status: 500,
    type: 'InternalServerException',
    message: 'The system encountered an unexpected error during processing. Try your request again.',
  },
  context_length: { status: 400, type: 'ValidationException', message: 'Input is too long for requested model.' },
};

/** An error as the AWS SDK reads it: the exception's name in `x-amzn-errortype`, `{ message }` in the body. */
export function bedrockError(error: LlmErrorDetail, source: LlmSource): LlmWire {
  const shape = BEDROCK_ERRORS[error.type];
  const headers = bedrockHeaders(source, 'application/json');
  headers['x-amzn-errortype'] = shape.type;
  return {
    kind: 'json',
    status: shape.status,
    headers,
    body: JSON.stringify({ message: error.message ?? shape.message }),
  };
}
