/**
 * The endpoint list, in name order: filtered on the server by any part of the
 * name or the stored body, ignoring case (`contains`), paginated with `limit`/`after`/`next`, with the `total`, and kept
 * up to date by {@link EndpointList.refresh} (endpoints added or deleted
 * elsewhere, e.g. by tests, appear and disappear by themselves).
 *
 * @module
 */
import { api, type EndpointSummary, failureMessage, isApiFailure, type SummaryAnswer, serverLimits } from './api.js';
import { conditionalGet } from './conditional-get.js';
import { h, replaceChildren } from './dom.js';
import { report } from './report.js';

/** Endpoints fetched per page. */
export const PAGE_SIZE = 50;
const MAX_LIMIT = 1000;
/** Pause after the last keystroke in the filter before asking the server. */
const FILTER_DEBOUNCE_MS = 150;
/** The longest filter the server takes. */
const MAX_FILTER = 200;

/** A status badge, coloured by class (2xx, 3xx, 4xx, 5xx). */
export function statusBadge(statusCode: number): HTMLElement {
  return h(
    'span',
    { class: `badge s${Math.floor(statusCode / 100)}xx`, title: `answers with status ${statusCode}` },
    String(statusCode),
  );
}

/** How many requests the journal holds for a name, when any (none: nothing shown). */
function requestCount(requests: number | undefined): HTMLElement | null {
  if (!requests) return null;
  const what = `${requests} request${requests === 1 ? '' : 's'} recorded`;
  const kept = requests >= serverLimits.journalSize ? ` (the newest ${serverLimits.journalSize} are kept)` : '';
  return h('span', { class: 'requests', title: `${what}${kept}` }, `${requests} req`);
}

/** Options for {@link EndpointList}. */
export interface EndpointListOptions {
  /** "+ New" was used while the create form is already shown: focus it instead of doing nothing. */
  onNewAgain(): void;
}

/** The list panel. */
export class EndpointList {
  readonly el: HTMLElement;
  readonly title: HTMLElement;
  #items: EndpointSummary[] = [];
  #next: string | null = null;
  #total = 0;
  #contains = '';
  #selected: string | undefined;
  #loading = false;
  /**
   * Bumped by every load. A load applies its answer only while it is still the
   * latest one, so a slow earlier answer never overwrites a newer list.
   */
  #generation = 0;
  #error: string | undefined;
  #loaded = false;
  /** What was last drawn, so a refresh that changes nothing touches nothing. */
  #drawn = '';
  #filterTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #body: HTMLElement;
  readonly #count: HTMLElement;
  readonly #filter: HTMLInputElement;

  constructor(options: EndpointListOptions) {
    this.#count = h('span', { class: 'count' });
    this.#body = h('div', { class: 'list-body' });
    this.title = h('h2', { id: 'list-title', tabIndex: -1 }, 'Endpoints ', this.#count);
    this.#filter = h('input', {
      type: 'search',
      id: 'list-filter',
      name: 'filter',
      autocomplete: 'off',
      spellcheck: false,
      autocapitalize: 'off',
      placeholder: 'Name or body contains…',
      maxLength: MAX_FILTER,
    });
    this.#filter.addEventListener('input', () => {
      clearTimeout(this.#filterTimer);
      this.#filterTimer = setTimeout(() => this.#applyFilter(), FILTER_DEBOUNCE_MS);
    });
    const newLink = h('a', { class: 'btn btn-primary btn-small', href: '#/new' }, '+ New');
    newLink.addEventListener('click', (event) => {
      if (location.hash.startsWith('#/new')) {
        event.preventDefault();
        options.onNewAgain();
      }
    });
    this.el = h(
      'section',
      { class: 'panel list-panel', 'aria-labelledby': 'list-title' },
      h('div', { class: 'panel-head' }, this.title, newLink),
      h(
        'div',
        { class: 'list-filter', role: 'search' },
        h('label', { for: 'list-filter' }, 'Filter endpoints'),
        this.#filter,
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
    // In the client's order (limit, contains, summary, requests), so the URLs are the same as `api.summaries`'.
    const query = new URLSearchParams({ limit: String(limit) });
    if (this.#contains !== '') query.set('contains', this.#contains);
    query.set('summary', 'true');
    query.set('requests', 'true');
    await this.#load(
      // Polled every few seconds: conditional, so an unchanged list is a 304 with no body.
      async () => (await conditionalGet<SummaryAnswer>(`api/endpoints?${query}`)).value,
      (page) => {
        this.#items = page.endpoints;
        this.#next = page.next;
        this.#total = page.total;
      },
    );
  }

  /** A quiet reload for live updates: skipped while another load is under way; redraws only on change. */
  async refresh(): Promise<void> {
    if (this.#loading) return;
    await this.reload();
  }

  /** Appends the next page; does nothing while another load is under way (its answer changes what "next" is). */
  async more(): Promise<void> {
    const after = this.#next;
    if (after === null || this.#loading) return;
    const contains = this.#contains;
    await this.#load(
      () => api.summaries({ limit: PAGE_SIZE, after, contains, requests: true }),
      (page) => {
        this.#items = [...this.#items, ...page.endpoints];
        this.#next = page.next;
        this.#total = page.total;
      },
    );
  }

  #applyFilter(): void {
    const contains = this.#filter.value.trim().slice(0, MAX_FILTER);
    if (contains === this.#contains) return;
    this.#contains = contains;
    this.#items = [];
    void this.reload();
  }

  async #load(fetchPage: () => Promise<SummaryAnswer>, apply: (page: SummaryAnswer) => void): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#loading = true;
    try {
      const page = await fetchPage();
      if (!current()) return;
      apply(page);
      this.#error = undefined;
      this.#loaded = true;
    } catch (error) {
      if (!current()) return;
      if (!isApiFailure(error)) report(error);
      this.#error = failureMessage(error);
    } finally {
      // Only the latest load ends the loading state; a superseded one leaves the screen alone.
      if (current()) {
        this.#loading = false;
        this.#render();
      }
    }
  }

  #countText(): string {
    if (!this.#loaded) return '';
    if (this.#contains === '') return String(this.#total);
    return `${this.#total} containing “${this.#contains}”`;
  }

  #render(): void {
    const state = JSON.stringify([this.#items, this.#next, this.#total, this.#contains, this.#error, this.#loaded]);
    if (state === this.#drawn) return;
    this.#drawn = state;
    const n = this.#items.length;
    this.#count.textContent = this.#countText();
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
            'statusCode' in record && record.delay > 0
              ? h('span', { class: 'delay', title: `waits ${record.delay} ms` }, `${record.delay} ms`)
              : null,
            requestCount(record.requests),
            record.routes === undefined
              ? null
              : h(
                  'span',
                  { class: 'routes', title: `${record.routes} route${record.routes === 1 ? '' : 's'}` },
                  `${record.routes} route${record.routes === 1 ? '' : 's'}`,
                ),
            'statusCode' in record ? statusBadge(record.statusCode) : null,
            'twin' in record && record.twin === true
              ? h('span', { class: 'twin', title: "answered by its twin: a provider's API kept in state" }, 'twin')
              : null,
          ),
        ),
      ),
    );
    const loadMore =
      this.#next !== null
        ? h(
            'button',
            { type: 'button', class: 'btn btn-wide', onclick: () => void this.more() },
            `Load more (${Math.max(0, this.#total - n)} more)`,
          )
        : null;
    // Rows are rebuilt: note where the keyboard was, to put it back.
    const active = this.#body.contains(document.activeElement) ? (document.activeElement as HTMLElement) : undefined;
    const focusedName = active?.dataset.name;
    const focusedMore = active?.classList.contains('btn-wide') === true;
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
        ? h(
            'p',
            { class: 'empty' },
            this.#contains === ''
              ? 'No endpoints yet. Create the first one with “+ New”.'
              : `No endpoint has “${this.#contains}” in its name or body.`,
          )
        : null,
      n === 0 && !this.#loaded && !this.#error ? h('p', { class: 'empty' }, 'Loading…') : null,
      loadMore,
    );
    if (focusedMore && loadMore) loadMore.focus();
    else if (focusedName !== undefined) {
      this.#body.querySelector<HTMLElement>(`a[data-name="${CSS.escape(focusedName)}"]`)?.focus();
    }
  }
}
