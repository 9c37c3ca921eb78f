/**
 * The routes of one name, in its detail view: a line per route (its id, the
 * method and path it matches, the status and body it answers, its response
 * headers and stream) with its exact JSON text laid out when opened; an editor
 * holding the list as JSON text, laid out for reading with every token as stored
 * (Save sends the text as typed, never parsed and re-serialised, so big integers
 * in `data` survive); Clear, asked first, removes them all.
 *
 * @module
 */

import { scanJson } from '@mockpoint/core/client';
import { answerMarks, llmStatus } from './answer-marks.js';
import { api, putRoutesText, type Route, routesText } from './api.js';
import { h, onSubmit, replaceChildren, toast } from './dom.js';
import { formatJson } from './json-format.js';
import { statusBadge } from './list.js';
import { codeArea, PanelWrites, panel, problemSlot, readQuietly } from './panel-actions.js';

/** What a route answers with, in a word or two (none for a bodiless answer or a fault). */
function bodyKind(answer: Route['answer']): string | undefined {
  if (answer.proxy !== undefined) return `proxy: ${answer.proxy.url}`;
  if (Object.hasOwn(answer, 'data')) return 'data';
  if (answer.body !== undefined) return 'text body';
  if (answer.bodyBase64 !== undefined) return 'bytes';
  return undefined;
}

/**
 * What a route takes, in a line: `gRPC shop.v1.Orders/GetOrder` for a call's route (`any service`,
 * `any method` where its filter leaves them open: a call never reaches an HTTP route, nor a request
 * a call's), else `GET /users/:id` (`ANY`, `any path` where open).
 */
export function matchLine(route: Route): string {
  const call = route.match?.grpc;
  if (call !== undefined || route.answer.grpc !== undefined) {
    return `gRPC ${call?.service ?? 'any service'}/${call?.method ?? 'any method'}`;
  }
  return `${route.match?.method?.toUpperCase() ?? 'ANY'} ${route.match?.path ?? 'any path'}`;
}

/** Whether a route's exact JSON text answers gRPC calls. */
function answersCalls(text: string): boolean {
  return (JSON.parse(text) as Route).answer.grpc !== undefined;
}

/**
 * One route: a line (its id, what it matches, what it answers: status, body,
 * headers, stream) and, when opened, its exact JSON text laid out.
 */
function routeRow(text: string): HTMLElement {
  // Parsed for the line only; the text itself is what is shown as JSON.
  const route = JSON.parse(text) as Route;
  const kind =
    route.answer.grpc === undefined ? bodyKind(route.answer) : `grpc ${route.answer.grpc.status?.code ?? 'ok'}`;
  return h(
    'li',
    { class: 'route-row' },
    h(
      'div',
      { class: 'route-line' },
      h('code', { class: 'route-id' }, route.id),
      h('span', { class: 'route-match' }, matchLine(route)),
      route.answer.fault === undefined
        ? route.answer.proxy === undefined && route.answer.grpc === undefined
          ? statusBadge(route.answer.llm === undefined ? (route.answer.statusCode ?? 200) : llmStatus(route.answer.llm))
          : null
        : h('span', { class: 'route-fault' }, route.answer.fault),
      kind === undefined ? null : h('span', { class: 'answer-mark' }, kind),
      answerMarks(route.answer),
    ),
    h(
      'details',
      { class: 'queue-json route-json' },
      h('summary', { 'aria-label': `Route ${route.id} as JSON` }, 'JSON'),
      h('pre', { class: 'code', tabIndex: 0, 'aria-label': `Route ${route.id}, exact JSON` }, formatJson(text)),
    ),
  );
}

/** The routes panel of `name`. */
export class RoutesView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #list: HTMLElement;
  readonly #text: HTMLTextAreaElement;
  readonly #writes: PanelWrites;
  readonly #save: HTMLButtonElement;
  readonly #clearButton: HTMLButtonElement;
  /** The text last read from the server, laid out: the editor follows it until the user changes it. */
  #loaded = '';
  /** The exact text the list shows. */
  #shown: string | undefined;
  /** Whether a route read last answers gRPC calls (those no route takes get schema-mode answers). */
  answersCalls = false;

  constructor(name: string) {
    this.#name = name;
    this.#list = h('div', { class: 'route-list-body' });
    this.#text = codeArea({ id: 'routes-text', name: 'routes', rows: 8, describedBy: 'routes-problem' });
    const problem = problemSlot('routes-problem');
    this.#writes = new PanelWrites(problem, 'routes-token');
    this.#save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save routes');
    this.#clearButton = h('button', { type: 'button', class: 'btn btn-danger' }, 'Clear routes');
    this.#clearButton.addEventListener('click', () => this.#confirmClear());
    const form = h(
      'form',
      { class: 'routes-form', noValidate: true },
      h('label', { for: 'routes-text' }, 'Routes (JSON list, tried in order)'),
      this.#text,
      problem,
      h('div', { class: 'actions' }, this.#save, this.#clearButton),
    );
    onSubmit(form, () => void this.#put());
    this.el = panel('routes', 'Routes', null, this.#list, form);
  }

  /** Reads the routes; resolves with how many there are (undefined when they cannot be read). */
  async load(): Promise<number | undefined> {
    const text = await readQuietly(() => routesText(this.#name));
    if (text === undefined) return undefined;
    this.#show(text);
    return scanJson(text).elements?.length ?? 0;
  }

  #show(text: string): void {
    const routes = scanJson(text).elements ?? [];
    // Drawn again only when the routes changed, so an opened route stays open.
    if (text !== this.#shown) {
      this.#shown = text;
      this.answersCalls = routes.some(answersCalls);
      replaceChildren(
        this.#list,
        routes.length > 0
          ? h('ul', { class: 'route-list' }, routes.map(routeRow))
          : h('p', { class: 'empty' }, 'No routes: every request gets the stored response.'),
      );
    }
    // The editor holds the list laid out for reading: whitespace changes, no token does.
    const laidOut = formatJson(text);
    if (this.#text.value === this.#loaded) this.#text.value = laidOut;
    this.#loaded = laidOut;
    this.#clearButton.disabled = routes.length === 0;
  }

  async #put(): Promise<void> {
    await this.#writes.run(this.#save, 'save', async () => {
      await putRoutesText(this.#name, this.#text.value);
      this.#loaded = this.#text.value;
      toast(`Saved the routes of ${this.#name}`);
      await this.load();
    });
  }

  /** Asks inline before removing the routes; Escape or "Keep them" leaves them. */
  #confirmClear(): void {
    this.#writes.confirm(this.#clearButton, {
      text: `Remove every route of “${this.#name}”?`,
      label: 'Clear the routes',
      what: 'clear',
      write: () => api.clearRoutes(this.#name),
      done: () => {
        this.#text.value = this.#loaded;
        toast(`Cleared the routes of ${this.#name}`);
        void this.load();
      },
    });
  }
}
