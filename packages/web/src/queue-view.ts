/**
 * The one-shot answers queued for one name, in its detail view: each answer
 * next first, in a line (its status or fault, how many times, what it matches,
 * its body kind, headers and stream) and as the exact JSON text the server
 * holds; a box that queues the JSON typed there exactly as typed (never parsed
 * and re-serialised, so big integers and key order in `data` survive); one-click
 * faults; Clear, asked first. Errors from the API show with their code.
 *
 * @module
 */
import { answerMarks } from './answer-marks.js';
import { api, type QueuedAnswer, queueText, queueTexts } from './api.js';
import { h, onSubmit, replaceChildren, toast } from './dom.js';
import { formatJson } from './json-format.js';
import { statusBadge } from './list.js';
import { codeArea, PanelWrites, panel, problemSlot, readQuietly } from './panel-actions.js';

const FAULTS = ['reset', 'close', 'hang'] as const;

/** What an answer's `match` asks for, in a few words: `POST /orders + body`. */
function describeMatch(match: NonNullable<QueuedAnswer['match']>): string {
  const { method, path, ...rest } = match;
  const parts = [method?.toUpperCase(), path].filter((part) => part !== undefined);
  const others = Object.keys(rest);
  return `only ${[parts.join(' '), others.join(', ')].filter((part) => part !== '').join(' + ')}`;
}

/** One queued answer: a line, and its exact JSON text when opened. */
function answerRow(text: string, index: number): HTMLElement {
  // Parsed for the line only; the text itself is what is shown as JSON.
  const answer = JSON.parse(text) as QueuedAnswer;
  const body = Object.hasOwn(answer, 'data')
    ? 'data'
    : answer.body !== undefined
      ? 'text body'
      : answer.bodyBase64 !== undefined
        ? 'bytes'
        : undefined;
  return h(
    'li',
    { class: 'queue-row' },
    h(
      'div',
      { class: 'queue-line' },
      answer.fault !== undefined
        ? h('span', { class: 'route-fault' }, answer.fault)
        : answer.statusCode !== undefined
          ? statusBadge(answer.statusCode)
          : h(
              'span',
              { class: 'answer-mark', title: 'the status of what answers without the queue' },
              'status as usual',
            ),
      answer.times > 1 ? h('span', { class: 'queue-times' }, `×${answer.times}`) : null,
      answer.match ? h('span', { class: 'answer-mark' }, describeMatch(answer.match)) : null,
      body ? h('span', { class: 'answer-mark' }, body) : null,
      answerMarks(answer),
    ),
    h(
      'details',
      { class: 'queue-json' },
      h('summary', { 'aria-label': `Answer ${index + 1} as JSON` }, 'JSON'),
      h('pre', { class: 'code', tabIndex: 0, 'aria-label': `Answer ${index + 1}, exact JSON` }, formatJson(text)),
    ),
  );
}

/** The queue panel of `name`. */
export class QueueView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #list: HTMLElement;
  readonly #count: HTMLElement;
  readonly #text: HTMLTextAreaElement;
  readonly #writes: PanelWrites;
  readonly #add: HTMLButtonElement;
  readonly #clearButton: HTMLButtonElement;
  /** The exact texts shown: the list is drawn again only when they change (an opened answer stays open). */
  #shown: string | undefined;

  constructor(name: string) {
    this.#name = name;
    this.#list = h('div', { class: 'queue-body' });
    this.#count = h('span', { class: 'hint queue-count' });
    this.#text = codeArea({
      id: 'queue-text',
      name: 'answer',
      rows: 4,
      placeholder: '{"statusCode": 503, "data": {"error": "busy"}, "times": 2}',
      describedBy: 'queue-hint queue-problem',
    });
    const problem = problemSlot('queue-problem');
    this.#writes = new PanelWrites(problem, 'queue-token');
    this.#add = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Queue it');
    this.#clearButton = h('button', { type: 'button', class: 'btn btn-danger' }, 'Clear queue');
    this.#clearButton.addEventListener('click', () => this.#confirmClear());
    const faults = FAULTS.map((fault) => {
      const button = h(
        'button',
        { type: 'button', class: 'btn btn-small', 'aria-label': `Queue a ${fault} fault` },
        fault,
      );
      button.addEventListener('click', () => void this.#queue(`{"fault":"${fault}"}`, button));
      return button;
    });
    const form = h(
      'form',
      { class: 'queue-form', noValidate: true },
      h('label', { for: 'queue-text' }, 'Queue an answer (JSON: one answer, or a list)'),
      h(
        'p',
        { class: 'hint', id: 'queue-hint' },
        'Fields: match, statusCode, headers, data | body | bodyBase64, stream, delay, fault, template, times. Absent fields fall back to what answers without the queue. Sent exactly as typed.',
      ),
      this.#text,
      problem,
      h(
        'div',
        { class: 'actions' },
        this.#add,
        h('span', { class: 'queue-faults', role: 'group', 'aria-label': 'Queue a network fault' }, 'Fault:', faults),
        this.#clearButton,
      ),
    );
    onSubmit(form, () => void this.#queue(this.#text.value, this.#add));
    this.el = panel('queue', 'Queued answers', this.#count, this.#list, form);
  }

  /** Reads the queue; resolves with how many answers it holds (undefined when it cannot be read). */
  async load(): Promise<number | undefined> {
    const texts = await readQuietly(() => queueTexts(this.#name));
    if (texts === undefined) return undefined;
    this.#show(texts);
    return texts.length;
  }

  #show(texts: string[]): void {
    const key = JSON.stringify(texts);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#count.textContent = texts.length === 0 ? 'none' : `${texts.length} queued, next first`;
    replaceChildren(
      this.#list,
      texts.length > 0
        ? h('ol', { class: 'queue-list', 'aria-label': 'Queued answers, next first' }, texts.map(answerRow))
        : h('p', { class: 'empty' }, 'Nothing queued: requests get the routes or the stored response.'),
    );
    this.#clearButton.disabled = texts.length === 0;
  }

  async #queue(text: string, button: HTMLButtonElement): Promise<void> {
    await this.#writes.run(button, 'queue', async () => {
      await queueText(this.#name, text);
      if (button === this.#add) this.#text.value = '';
      toast(`Queued for ${this.#name}`);
      await this.load();
    });
  }

  /** Asks inline before dropping the queue; Escape or "Keep them" leaves it. */
  #confirmClear(): void {
    this.#writes.confirm(this.#clearButton, {
      text: `Drop every answer queued for “${this.#name}”?`,
      label: 'Clear the queue',
      what: 'clear',
      write: () => api.clearQueue(this.#name),
      done: async () => {
        toast(`Cleared the queue of ${this.#name}`);
        await this.load();
      },
    });
  }
}
