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
  if (answer.delay) marks.push(h('span', { class: 'answer-mark' }, `after ${answer.delay} ms`));
  if (answer.template) marks.push(h('span', { class: 'answer-mark' }, 'template'));
  return marks;
}
