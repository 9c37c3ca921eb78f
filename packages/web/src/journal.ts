/**
 * The live request journal of one name (an endpoint, or a name that has none),
 * newest first. It reads the journal once, then follows the journal stream
 * (`api/endpoints/{name}/requests/stream`, server-sent events, through core's
 * `watchRequests`): each request is pushed as it is recorded, and a broken
 * connection resumes after the newest id seen (`Last-Event-ID`). Where the
 * stream is not offered (a refusal, e.g. an older daemon or a proxy that blocks
 * it) or sends nothing (a proxy that buffers it), the page falls back to
 * long-polling `api/endpoints/{name}/requests?wait=25000&count=1&after=<newest id>`.
 *
 * Rows are updated in place: new ones are inserted at the top, old ones removed
 * at the bottom, and rows already shown are never rebuilt, so focus, a text
 * selection and an open entry survive new requests. Each arrival is announced to
 * screen readers through the page's polite live region.
 *
 * New rows never move what a person is using (no layout shift): while the list
 * is in use (the pointer over it, the focus in it, an entry open, or the page
 * scrolled into it) arrivals are held, and a "N new" button in the panel's head
 * (its space reserved, the head sticky while the list scrolls) inserts them on
 * demand. An idle list (or an empty one) takes new rows at once.
 *
 * Every answer names its journal (`journalId`). After any failure the next read
 * is a full one, and a new `journalId` (the daemon restarted: ids start again
 * at 1) is read from its start instead of waiting forever for ids past the old
 * cursor. The rows shown before stay, marked "before restart", below the new
 * journal's, until the user clears them ("Clear" asks first).
 *
 * Times are relative ("12 s ago", kept current), the exact time on hover.
 *
 * @module
 */
import { api, failureMessage, isApiFailure, type JournalEntry } from './api.js';
import { announce, confirmBar, formatAgo, formatTime, h } from './dom.js';
import { entryRow } from './entry-row.js';
import { JournalFilter } from './journal-filter.js';
import { report } from './report.js';
import { sleep } from './sleep.js';

/** How long one long-poll may be held by the server. */
export const WAIT_MS = 25_000;
/** Rows kept on screen (more than the server's ring of 100 per name by default: the page keeps what it saw). */
const MAX_ROWS = 200;
/** Longest pause between retries: a server that is back is noticed within this. */
const MAX_RETRY_MS = 2000;
/** A stream that has sent nothing (not even its first `journal` event) this long is given up for long-polling. */
const STREAM_SILENT_MS = 10_000;
/** How often the relative times ("12 s ago") are brought up to date. */
const AGO_REFRESH_MS = 5000;

/** The journal panel. */
export class JournalView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #list: HTMLOListElement;
  readonly #state: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #notice: HTMLElement;
  #abort = new AbortController();
  /** Requests received but held (the list was in use), oldest first. */
  #pending: JournalEntry[] = [];
  /** The newest id received (shown or held): the cursor of the next read. */
  #newest = 0;
  #pointerInside = false;
  readonly #newButton: HTMLButtonElement;
  #journalId: string | undefined;
  /** Whether the next read may long-poll (false at first and after a failure or a new journal). */
  #synced = false;
  #endpointExists = true;
  #live = false;
  /** Whether the journal stream is used (false once it proved unusable here: long-polling instead). */
  #streaming = true;
  #agoTimer: ReturnType<typeof setInterval> | undefined;
  readonly #head: HTMLElement;
  readonly #clearButton: HTMLButtonElement;

  constructor(name: string, emptyHint: Node) {
    this.#name = name;
    this.#list = h('ol', { class: 'journal-list', 'aria-label': `Requests to ${name}, newest first` });
    this.#state = h('span', { class: 'live', role: 'status' }, 'Connecting…');
    this.#notice = h('div', { class: 'notice notice-info journal-notice', hidden: true });
    this.#empty = h('div', { class: 'empty journal-empty' }, h('p', null, 'No requests yet. Send one:'), emptyHint);
    this.#clearButton = h('button', { type: 'button', class: 'btn btn-small' }, 'Clear');
    this.#clearButton.addEventListener('click', () => this.#confirmClear());
    // The journal as a HAR 1.2 file for devtools and other tools (docs/har.md); a relative URL, as every URL here.
    const har = h(
      'a',
      {
        class: 'btn btn-small',
        href: `api/requests.har?name=${encodeURIComponent(name)}`,
        download: `mockpoint-${name}.har`,
      },
      'HAR',
    );
    har.title = `Download the requests to ${name} as a HAR file`;
    // Always laid out (hidden by visibility), so showing it moves nothing.
    this.#newButton = h('button', { type: 'button', class: 'btn btn-small new-requests' });
    this.#newButton.addEventListener('click', () => this.#showPending());
    this.#setPendingButton();
    this.#list.addEventListener('pointerenter', () => {
      this.#pointerInside = true;
    });
    this.#list.addEventListener('pointerleave', () => {
      this.#pointerInside = false;
    });
    this.#head = h(
      'div',
      { class: 'panel-head journal-head' },
      h('h3', { id: 'journal-title' }, 'Requests'),
      this.#newButton,
      this.#state,
      har,
      this.#clearButton,
    );
    this.el = h(
      'section',
      { class: 'panel journal', 'aria-labelledby': 'journal-title' },
      this.#head,
      new JournalFilter(this.#list).el,
      this.#notice,
      this.#empty,
      this.#list,
    );
  }

  /** Starts the long-poll loop. */
  start(): void {
    void this.#loop(this.#abort.signal);
    this.#agoTimer ??= setInterval(() => this.#refreshTimes(), AGO_REFRESH_MS);
  }

  /** Stops it (leaving the view). */
  stop(): void {
    this.#abort.abort();
    clearInterval(this.#agoTimer);
    this.#agoTimer = undefined;
  }

  /** Brings every row's "… ago" up to date (the text only: the time keeps its width class, nothing moves). */
  #refreshTimes(): void {
    if (document.visibilityState !== 'visible') return;
    const now = Date.now();
    for (const time of this.#list.querySelectorAll('time')) {
      const text = formatAgo(time.dateTime, now);
      if (time.textContent !== text) time.textContent = text;
    }
  }

  /** Asks inline before removing the recorded requests; Escape or "Keep them" leaves them. */
  #confirmClear(): void {
    const shown = this.#list.children.length;
    confirmBar(this.#clearButton, {
      text: `Remove ${shown === 1 ? 'the 1 request' : `all ${shown} requests`} recorded for “${this.#name}”?`,
      label: 'Clear the requests',
      onConfirm: () => this.#clear(),
    });
  }

  /** Whether the name has an endpoint: the state says what is recorded (a deleted endpoint is not "Live"). */
  setEndpointExists(exists: boolean): void {
    this.#endpointExists = exists;
    if (this.#live) this.#showLive();
  }

  /** Removes the recorded requests (on the server, and every row shown, those before a restart too). */
  async #clear(): Promise<boolean> {
    try {
      await api.clearRequests(this.#name);
    } catch (error) {
      if (!isApiFailure(error)) report(error);
      this.#setState('error', `Could not clear: ${failureMessage(error)}`);
      return false;
    }
    // Restart the wait so that it counts from zero again.
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#replace([]);
    this.#notice.hidden = true;
    this.#synced = false;
    this.start();
    announce('Requests cleared.');
    return true;
  }

  async #loop(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        if (this.#synced && this.#streaming) {
          // Returns when left, or when the stream proved unusable (then long-polling takes over).
          await this.#follow(signal);
          continue;
        }
        this.#state.dataset.transport = this.#synced ? 'long-poll' : 'read';
        const read = this.#synced ? { wait: WAIT_MS, count: 1, after: this.#newest, signal } : { signal };
        const page = await api.journal(this.#name, read);
        if (signal.aborted) return;
        if (this.#journalId !== undefined && page.journalId !== this.#journalId) {
          // A new journal: its ids mean other requests. What was shown stays, marked; the new journal goes on top.
          this.#restarted(page.requests);
          this.#noticeRestart(`${page.requests.length} request(s) since.`);
        } else if (!this.#synced && this.#journalId === undefined) {
          this.#replace(page.requests);
        } else {
          this.#add(page.requests);
        }
        this.#journalId = page.journalId;
        this.#synced = true;
        failures = 0;
        this.#live = true;
        this.#showLive();
      } catch (error) {
        if (signal.aborted) return;
        if (!isApiFailure(error)) report(error);
        failures++;
        this.#synced = false; // after a failure, read everything: the server may be a new one
        this.#live = false;
        this.#setState('error', `Reconnecting… (${failureMessage(error)})`);
        await sleep(Math.min(MAX_RETRY_MS, 250 * 2 ** failures), signal);
      }
    }
  }

  /**
   * Follows the journal stream from the newest id shown, until `signal` aborts
   * (it reconnects by itself meanwhile) or the stream proves unusable here.
   */
  async #follow(signal: AbortSignal): Promise<void> {
    const stream = new AbortController();
    const leave = () => stream.abort();
    signal.addEventListener('abort', leave, { once: true });
    let silence: ReturnType<typeof setTimeout> | undefined;
    const expectEvent = (withinMs: number) => {
      clearTimeout(silence);
      silence = setTimeout(() => stream.abort(), withinMs);
    };
    this.#state.dataset.transport = 'stream';
    expectEvent(STREAM_SILENT_MS);
    try {
      const entries = api.watchRequests(this.#name, {
        after: this.#newest,
        journalId: this.#journalId,
        signal: stream.signal,
        onJournal: (event) => {
          clearTimeout(silence);
          if (this.#journalId !== undefined && event.journalId !== this.#journalId) {
            // A new journal (the daemon restarted): the stream sends it from its start.
            this.#restarted([]);
            this.#noticeRestart('');
          }
          this.#journalId = event.journalId;
          this.#live = true;
          this.#showLive();
        },
        onDisconnect: (error, retryMs) => {
          this.#live = false;
          this.#setState('error', `Reconnecting… (${failureMessage(error)})`);
          expectEvent(retryMs + STREAM_SILENT_MS);
        },
      });
      for await (const entry of entries) this.#add([entry]);
    } catch (error) {
      // Refused (not retried by the client): this server or a proxy on the way does not offer it.
      if (!signal.aborted)
        console.warn(`mockpoint: the journal stream was refused, long-polling instead: ${failureMessage(error)}`);
    } finally {
      clearTimeout(silence);
      signal.removeEventListener('abort', leave);
    }
    // The stream ends only when left, refused or silent: the last two mean long-polling from now on.
    if (!signal.aborted) this.#streaming = false;
  }

  #noticeRestart(since: string): void {
    this.#showNotice(
      `The mockpoint server restarted (noticed at ${formatTime(new Date().toISOString())}): the rows marked “before restart” were recorded by the previous run and are kept here until you clear them; the server no longer has them.`,
    );
    announce(`The server restarted.${since ? ` ${since}` : ''}`);
  }

  #showLive(): void {
    if (this.#endpointExists) {
      this.#setState('live', 'Live');
      this.#state.removeAttribute('title');
    } else {
      // Still recording: requests to a name with no endpoint are answered 404 and kept.
      this.#setState('live', 'Live (no endpoint)');
      this.#state.title = 'Recording the requests sent to this name; it has no endpoint, so they are answered 404';
    }
  }

  #setState(kind: 'live' | 'error', text: string): void {
    const className = `live live-${kind}`;
    if (this.#state.className !== className) this.#state.className = className;
    if (this.#state.textContent !== text) this.#state.textContent = text;
  }

  #showNotice(text: string): void {
    this.#notice.textContent = text;
    this.#notice.hidden = false;
  }

  /** Replaces every row (a first read, a clear, a new journal). */
  #replace(requests: JournalEntry[]): void {
    const kept = requests.slice(-MAX_ROWS);
    this.#list.replaceChildren(...kept.map((entry) => entryRow(entry, false)).reverse());
    this.#newest = kept.at(-1)?.id ?? 0;
    this.#pending = [];
    this.#setPendingButton();
    this.#empty.hidden = kept.length > 0;
  }

  /**
   * The daemon restarted: the rows shown are marked "before restart" (their ids
   * belong to the old journal), and the new journal's requests go above them.
   */
  #restarted(requests: JournalEntry[]): void {
    // Requests held back belong to the old journal: they go in with its rows.
    if (this.#pending.length > 0) this.#insert(this.#pending.splice(0), false);
    for (const row of this.#list.querySelectorAll<HTMLElement>(':scope > li:not(.before-restart)')) {
      row.classList.add('before-restart');
      delete row.dataset.id;
      row
        .querySelector('.entry-meta')
        ?.prepend(
          h('span', { class: 'tag tag-restart', title: 'Recorded before the server restarted' }, 'before restart'),
        );
    }
    const kept = requests.slice(-MAX_ROWS);
    this.#list.prepend(...kept.map((entry) => entryRow(entry, false)).reverse());
    this.#newest = kept.at(-1)?.id ?? 0;
    this.#setPendingButton();
    while (this.#list.children.length > MAX_ROWS) this.#list.lastElementChild?.remove();
    this.#empty.hidden = this.#list.children.length > 0;
  }

  /**
   * Whether new rows inserted now could move something a person is using: the
   * pointer is over the list, the focus is in it, an entry is open, or the page
   * is scrolled into it (its top above the window's).
   */
  #inUse(): boolean {
    if (this.#list.children.length === 0) return false;
    if (this.#pointerInside || this.#list.contains(document.activeElement)) return true;
    if (this.#list.querySelector(':scope > li > details[open]')) return true;
    return this.#list.getBoundingClientRect().top < 0;
  }

  /** Takes requests past the cursor: shown at once when the list is idle, else held behind "N new". */
  #add(requests: JournalEntry[]): void {
    const fresh = requests.filter((entry) => entry.id > this.#newest);
    if (fresh.length === 0) return;
    this.#newest = (fresh.at(-1) as JournalEntry).id;
    const last = fresh.at(-1) as JournalEntry;
    if (this.#pending.length > 0 || this.#inUse()) {
      this.#pending.push(...fresh);
      // Held for a long time: only the newest ones can be shown anyway.
      if (this.#pending.length > MAX_ROWS) this.#pending.splice(0, this.#pending.length - MAX_ROWS);
      this.#setPendingButton();
      announce(
        `${this.#pending.length} new ${this.#pending.length === 1 ? 'request' : 'requests'}, the latest ${last.method} ${last.path}: use the “new” button to show them`,
      );
      return;
    }
    this.#insert(fresh, true);
    announce(
      fresh.length === 1
        ? `New request: ${last.method} ${last.path}`
        : `${fresh.length} new requests, the latest ${last.method} ${last.path}`,
    );
  }

  /** "N new" was pressed: the held rows go in at the top, the view goes to them, the focus to the newest. */
  #showPending(): void {
    const held = this.#pending.splice(0);
    this.#setPendingButton();
    if (held.length === 0) return;
    this.#insert(held, true);
    const newest = this.#list.querySelector<HTMLElement>(':scope > li summary');
    newest?.focus({ preventScroll: true });
    const head = this.#head.getBoundingClientRect();
    const top = this.#list.getBoundingClientRect().top;
    // The newest row just under the (sticky) head when the list starts above the window.
    if (top < head.bottom) window.scrollBy(0, top - head.bottom - 8);
    announce(`${held.length} new ${held.length === 1 ? 'request' : 'requests'} shown`);
  }

  #setPendingButton(): void {
    const count = this.#pending.length;
    this.#newButton.classList.toggle('is-idle', count === 0);
    this.#newButton.disabled = count === 0;
    this.#newButton.textContent = count === 0 ? '0 new' : `${count > 99 ? '99+' : count} new ↑`;
    this.#newButton.setAttribute(
      'aria-label',
      count === 0 ? 'No new requests' : `Show ${count} new ${count === 1 ? 'request' : 'requests'}`,
    );
  }

  /** Inserts rows at the top (newest first), dropping the oldest past the limit. */
  #insert(entries: JournalEntry[], fresh: boolean): void {
    for (const entry of entries) {
      this.#list.prepend(entryRow(entry, fresh));
    }
    // The oldest rows go first: those before a restart, then this journal's.
    while (this.#list.children.length > MAX_ROWS) this.#list.lastElementChild?.remove();
    this.#empty.hidden = true;
  }
}
