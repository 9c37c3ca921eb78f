/**
 * The live request journal of one endpoint, newest first. It long-polls
 * `api/endpoints/{name}/requests?wait=25000&count=1&after=<newest id>`: the server
 * answers as soon as a new request arrives (or after 25 s with what there is).
 *
 * @module
 */
import { ApiError, api, type JournalEntry } from './api.js';
import { formatTime, h, replaceChildren } from './dom.js';
import { statusBadge } from './list.js';
import { report } from './report.js';
import { sleep } from './sleep.js';
import { formatBytes } from './validate.js';

/** How long one long-poll may be held by the server. */
export const WAIT_MS = 25_000;
/** Rows kept on screen (the server's ring holds 100 per endpoint by default). */
const MAX_ROWS = 200;

function queryString(query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function prettyBody(entry: JournalEntry): string {
  if (entry.json !== undefined && !entry.bodyTruncated) return JSON.stringify(entry.json, null, 2);
  return entry.body;
}

/** One row: a `<details>` whose summary is the request line. */
function entryRow(entry: JournalEntry, fresh: boolean): HTMLLIElement {
  const bodyBytes = new TextEncoder().encode(entry.body).byteLength;
  const headers = Object.entries(entry.headers).sort(([a], [b]) => a.localeCompare(b));
  const query = Object.entries(entry.query);
  const body = prettyBody(entry);
  return h(
    'li',
    { class: fresh ? 'entry fresh' : 'entry', dataset: { id: String(entry.id) } },
    h(
      'details',
      null,
      h(
        'summary',
        null,
        h('span', { class: `method m-${entry.method.toLowerCase()}` }, entry.method),
        h('span', { class: 'path' }, `${entry.path}${queryString(entry.query)}`),
        h(
          'span',
          { class: 'entry-meta' },
          entry.fault === 'reset' || entry.fault === 'hang' ? null : statusBadge(entry.statusCode),
          entry.queued
            ? h(
                'span',
                { class: 'queued', title: 'answered by a queued one-shot answer' },
                entry.fault === undefined ? 'queued' : `queued ${entry.fault}`,
              )
            : null,
          bodyBytes > 0 ? h('span', { class: 'size' }, formatBytes(bodyBytes)) : null,
          h('time', { dateTime: entry.receivedAt, title: entry.receivedAt }, formatTime(entry.receivedAt)),
        ),
      ),
      h(
        'div',
        { class: 'entry-body' },
        query.length > 0
          ? [
              h('h4', null, 'Query'),
              h(
                'table',
                { class: 'kv-table' },
                h(
                  'tbody',
                  null,
                  query.map(([k, v]) =>
                    h('tr', null, h('th', { scope: 'row' }, k), h('td', null, Array.isArray(v) ? v.join(', ') : v)),
                  ),
                ),
              ),
            ]
          : null,
        h('h4', null, `Headers (${headers.length})`),
        h(
          'table',
          { class: 'kv-table' },
          h(
            'tbody',
            null,
            headers.map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, v))),
          ),
        ),
        h(
          'h4',
          null,
          'Body',
          entry.json !== undefined ? h('span', { class: 'tag' }, 'JSON') : null,
          entry.bodyTruncated ? h('span', { class: 'tag tag-warn' }, 'truncated') : null,
        ),
        body === '' ? h('p', { class: 'empty' }, '(empty)') : h('pre', { class: 'code', tabIndex: 0 }, body),
      ),
    ),
  );
}

/**
 * The journal panel: one full read, then long-polls for requests newer than the
 * newest shown (`after`), which works the same once the server's ring is full.
 */
export class JournalView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #list: HTMLOListElement;
  readonly #state: HTMLElement;
  readonly #empty: HTMLElement;
  #abort = new AbortController();
  #entries: JournalEntry[] = [];
  #newestId = 0;
  #loaded = false;

  constructor(name: string, emptyHint: Node) {
    this.#name = name;
    this.#list = h('ol', { class: 'journal-list', 'aria-label': `Requests to ${name}, newest first` });
    this.#state = h('span', { class: 'live', role: 'status' }, 'Connecting…');
    this.#empty = h('div', { class: 'empty journal-empty' }, h('p', null, 'No requests yet. Send one:'), emptyHint);
    const clear = h('button', { type: 'button', class: 'btn btn-small' }, 'Clear');
    clear.addEventListener('click', () => void this.#clear());
    this.el = h(
      'section',
      { class: 'panel journal', 'aria-labelledby': 'journal-title' },
      h('div', { class: 'panel-head' }, h('h3', { id: 'journal-title' }, 'Requests'), this.#state, clear),
      this.#empty,
      this.#list,
    );
  }

  /** Starts the long-poll loop. */
  start(): void {
    void this.#loop(this.#abort.signal);
  }

  /** Stops it (leaving the view). */
  stop(): void {
    this.#abort.abort();
  }

  async #clear(): Promise<void> {
    try {
      await api.clearRequests(this.#name);
    } catch (error) {
      if (!(error instanceof ApiError)) report(error);
      this.#setState('error', `Could not clear: ${(error as Error).message}`);
      return;
    }
    // Restart the wait so that it counts from zero again.
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#apply([]);
    this.#loaded = false;
    this.start();
  }

  async #loop(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const page = await api.requests(
          this.#name,
          this.#loaded ? { wait: WAIT_MS, count: 1, after: this.#newestId, signal } : { signal },
        );
        if (signal.aborted) return;
        this.#apply(this.#loaded ? [...this.#entries, ...page.requests].slice(-MAX_ROWS) : page.requests, this.#loaded);
        this.#loaded = true;
        failures = 0;
        this.#setState('live', 'Live');
      } catch (error) {
        if (signal.aborted) return;
        if (!(error instanceof ApiError)) report(error);
        failures++;
        const wait = Math.min(10_000, 500 * 2 ** failures);
        this.#setState('error', `Reconnecting… (${(error as Error).message})`);
        await sleep(wait, signal);
      }
    }
  }

  #setState(kind: 'live' | 'error', text: string): void {
    this.#state.className = `live live-${kind}`;
    this.#state.textContent = text;
  }

  /** Shows `requests` (oldest first from the API) newest first, keeping rows already shown (and their open state). */
  #apply(requests: JournalEntry[], highlight = false): void {
    const shown = new Map<number, HTMLLIElement>();
    for (const li of this.#list.querySelectorAll<HTMLLIElement>(':scope > li')) shown.set(Number(li.dataset.id), li);
    const wanted = new Set(requests.map((r) => r.id));
    for (const [id, li] of shown) if (!wanted.has(id)) li.remove();
    const rows = requests
      .slice()
      .reverse()
      .map((entry) => shown.get(entry.id) ?? entryRow(entry, highlight));
    replaceChildren(this.#list, rows);
    this.#entries = requests;
    this.#newestId = requests.at(-1)?.id ?? this.#newestId;
    this.#empty.hidden = requests.length > 0;
  }
}
