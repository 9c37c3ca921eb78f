/**
 * The parts of an answer a list line shows beside its status, for routes and
 * queued answers alike: its response headers (names, values on hover), a
 * streamed answer (format, events, how it ends), a delay, templating.
 *
 * @module
 */
import type { QueuedAnswer, RouteAnswer } from './api.js';
import { h } from './dom.js';

type Answer = RouteAnswer | QueuedAnswer;

/** `x-a: 1` lines, for a title. */
function headerLines(headers: NonNullable<Answer['headers']>): string {
  return Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`))
    .join('\n');
}

/** `stream: sse, 3 events, then hang`. */
export function describeStream(stream: NonNullable<Answer['stream']>): string {
  const events = stream.events.length;
  return `stream: ${stream.format}, ${events} ${events === 1 ? 'event' : 'events'}, then ${stream.end ?? 'close'}`;
}

type Llm = NonNullable<RouteAnswer['llm']>;

/** The status an llm answer's error is sent with (an overload is Anthropic's 529, everyone else's 503). */
const LLM_ERROR_STATUS: Record<string, [others: number, anthropic: number]> = {
  rate_limit: [429, 429],
  overloaded: [503, 529],
  server: [500, 500],
  context_length: [400, 400],
};

/** Bedrock's converse-stream with an error beside text or tool calls: a 200 stream the error breaks midway. */
function failsMidStream(llm: Llm): boolean {
  return llm.api === 'converse-stream' && (llm.text !== undefined || llm.toolCalls !== undefined);
}

/** The status an llm answer is sent with. */
export function llmStatus(llm: Llm): number {
  if (llm.error === undefined || failsMidStream(llm)) return 200;
  const type = typeof llm.error === 'string' ? llm.error : llm.error.type;
  return LLM_ERROR_STATUS[type]?.[llm.provider === 'anthropic' ? 1 : 0] ?? 500;
}

/** `llm: openai chat.completions, streamed, then reset` or `llm: anthropic messages, error rate_limit`. */
export function describeLlm(llm: Llm): string {
  const parts = [`llm: ${llm.provider} ${llm.api}`];
  if (llm.error !== undefined && failsMidStream(llm)) parts.push('streamed');
  if (llm.error !== undefined) parts.push(`error ${typeof llm.error === 'string' ? llm.error : llm.error.type}`);
  else {
    if (llm.stream !== undefined) parts.push(llm.stream ? 'streamed' : 'JSON');
    if (llm.toolCalls !== undefined && llm.toolCalls.length > 0) {
      parts.push(`${llm.toolCalls.length} tool ${llm.toolCalls.length === 1 ? 'call' : 'calls'}`);
    }
    if (llm.end === 'reset') parts.push('then reset');
  }
  return parts.join(', ');
}

/** Chips for what the answer has besides a status: headers, a stream, a delay, templating (none for a plain answer). */
export function answerMarks(answer: Answer): HTMLElement[] {
  const marks: HTMLElement[] = [];
  if (answer.headers !== undefined && Object.keys(answer.headers).length > 0) {
    marks.push(
      h(
        'span',
        { class: 'answer-mark answer-headers', title: headerLines(answer.headers) },
        `headers: ${Object.keys(answer.headers).join(', ')}`,
      ),
    );
  }
  if (answer.stream !== undefined) {
    marks.push(h('span', { class: 'answer-mark answer-stream' }, describeStream(answer.stream)));
  }
  if ('llm' in answer && answer.llm !== undefined) {
    marks.push(h('span', { class: 'answer-mark answer-llm' }, describeLlm(answer.llm)));
  }
  if (answer.delay) marks.push(h('span', { class: 'answer-mark' }, `after ${answer.delay} ms`));
  if (answer.template) marks.push(h('span', { class: 'answer-mark' }, 'template'));
  return marks;
}
