/**
 * The endpoint list, in name order, paginated with the API's `limit`/`after`/`next`.
 *
 * @module
 */
import { ApiError, api, type EndpointSummary } from './api.js';
import { h, replaceChildren } from './dom.js';
import { report } from './report.js';

/** Endpoints fetched per page. */
export const PAGE_SIZE = 50;
const MAX_LIMIT = 1000;

/** A status badge, coloured by class (2xx, 3xx, 4xx, 5xx). */
export function statusBadge(statusCode: number): HTMLElement {
  return h(
    'span',
    { class: `badge s${Math.floor(statusCode / 100)}xx`, title: `answers with status ${statusCode}` },
    String(statusCode),
  );
}

/** The list panel. */
export class EndpointList {
  readonly el: HTMLElement;
  #items: EndpointSummary[] = [];
  #next: string | null = null;
  #selected: string | undefined;
  #loading = false;
  /**
   * Bumped by every load. A load applies its answer only while it is still the
   * latest one, so a slow earlier answer never overwrites a newer list.
   */
  #generation = 0;
  #error: string | undefined;
  #loaded = false;
  readonly #body: HTMLElement;
  readonly #count: HTMLElement;

  constructor() {
    this.#count = h('span', { class: 'count', 'aria-live': 'polite' });
    this.#body = h('div', { class: 'list-body' });
    this.el = h(
      'section',
      { class: 'panel list-panel', 'aria-labelledby': 'list-title' },
      h(
        'div',
        { class: 'panel-head' },
        h('h2', { id: 'list-title' }, 'Endpoints ', this.#count),
        h('a', { class: 'btn btn-primary btn-small', href: '#/new' }, '+ New'),
      ),
      this.#body,
    );
  }

  /** Marks the endpoint shown in the detail view. */
  select(name: string | undefined): void {
    this.#selected = name;
    for (const link of this.#body.querySelectorAll<HTMLAnchorElement>('a[data-name]')) {
      if (link.dataset.name === name) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }

  /** Reloads from the start, keeping as many rows as were shown. Supersedes any load still under way. */
  async reload(): Promise<void> {
    const limit = Math.min(MAX_LIMIT, Math.max(PAGE_SIZE, this.#items.length));
    await this.#load(
      () => api.list({ limit }),
      (page) => {
        this.#items = page.endpoints;
        this.#next = page.next;
      },
    );
  }

  /** Appends the next page; does nothing while another load is under way (its answer changes what "next" is). */
  async more(): Promise<void> {
    const after = this.#next;
    if (after === null || this.#loading) return;
    await this.#load(
      () => api.list({ limit: PAGE_SIZE, after }),
      (page) => {
        this.#items = [...this.#items, ...page.endpoints];
        this.#next = page.next;
      },
    );
  }

  async #load<T>(fetchPage: () => Promise<T>, apply: (page: T) => void): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#loading = true;
    this.#render();
    try {
      const page = await fetchPage();
      if (!current()) return;
      apply(page);
      this.#error = undefined;
      this.#loaded = true;
    } catch (error) {
      if (!current()) return;
      if (!(error instanceof ApiError)) report(error);
      this.#error = error instanceof Error ? error.message : String(error);
    } finally {
      // Only the latest load ends the loading state; a superseded one leaves the screen alone.
      if (current()) {
        this.#loading = false;
        this.#render();
      }
    }
  }

  #render(): void {
    const n = this.#items.length;
    this.#count.textContent = this.#loaded ? `${n}${this.#next !== null ? '+' : ''}` : '';
    const rows = this.#items.map((record) =>
      h(
        'li',
        null,
        h(
          'a',
          {
            href: `#/e/${encodeURIComponent(record.name)}`,
            dataset: { name: record.name },
            'aria-current': record.name === this.#selected ? 'page' : false,
          },
          h('span', { class: 'name' }, record.name),
          h(
            'span',
            { class: 'meta' },
            record.delay > 0
              ? h('span', { class: 'delay', title: `waits ${record.delay} ms` }, `${record.delay} ms`)
              : null,
            statusBadge(record.statusCode),
          ),
        ),
      ),
    );
    const loadMore =
      this.#next !== null
        ? h(
            'button',
            { type: 'button', class: 'btn btn-wide', disabled: this.#loading, onclick: () => void this.more() },
            this.#loading ? 'Loading…' : 'Load more',
          )
        : null;
    replaceChildren(
      this.#body,
      this.#error
        ? h(
            'div',
            { class: 'notice notice-error', role: 'alert' },
            `Could not load the endpoints: ${this.#error} `,
            h('button', { type: 'button', class: 'btn btn-small', onclick: () => void this.reload() }, 'Retry'),
          )
        : null,
      n > 0 ? h('ul', { class: 'endpoint-list' }, rows) : null,
      n === 0 && this.#loaded && !this.#error
        ? h('p', { class: 'empty' }, 'No endpoints yet. Create the first one with the form.')
        : null,
      n === 0 && !this.#loaded && this.#loading ? h('p', { class: 'empty' }, 'Loading…') : null,
      loadMore,
    );
  }
}
