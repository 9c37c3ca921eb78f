/**
 * The journal's filter: a search field that shows only the rows whose method,
 * path or body contains the text typed, ignoring case. It works on the rows
 * the journal shows (a `MutationObserver` applies it to rows as they arrive), so
 * it never asks the server and never moves the rows it keeps.
 *
 * @module
 */
import type { JournalEntry } from './api.js';
import { h } from './dom.js';

/** The entry each row shows, set by `entryRow` (the row's text holds only a preview of the body). */
const rowEntries = new WeakMap<Element, JournalEntry>();

/** Remembers which entry `row` shows, for the filter. */
export function rememberEntry(row: Element, entry: JournalEntry): void {
  rowEntries.set(row, entry);
}

/** What the filter looks in: method, path (with the query) and the body as text. */
function haystack(entry: JournalEntry): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(entry.query)) {
    for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
  }
  const body = entry.bodyEncoding === 'base64' ? '' : entry.body;
  return `${entry.method} ${entry.path}?${query} ${body}`.toLowerCase();
}

/** Whether `entry` has `needle` (lower-cased) in its method, path or body. */
export function entryMatches(entry: JournalEntry, needle: string): boolean {
  return needle === '' || haystack(entry).includes(needle);
}

/** The filter of one journal list. */
export class JournalFilter {
  readonly el: HTMLElement;
  readonly #list: HTMLElement;
  readonly #input: HTMLInputElement;
  readonly #count: HTMLElement;
  #needle = '';

  constructor(list: HTMLElement) {
    this.#list = list;
    const id = 'journal-filter';
    this.#input = h('input', {
      type: 'search',
      id,
      name: 'journal-filter',
      autocomplete: 'off',
      spellcheck: false,
      autocapitalize: 'off',
      placeholder: 'Path or body contains…',
      'aria-describedby': `${id}-count`,
    });
    this.#count = h('span', { class: 'filter-count', id: `${id}-count`, role: 'status' });
    this.#input.addEventListener('input', () => {
      this.#needle = this.#input.value.trim().toLowerCase();
      this.#applyAll();
    });
    this.el = h(
      'div',
      { class: 'journal-filter', role: 'search', 'aria-label': 'Journal filter' },
      h('label', { for: id }, 'Filter requests'),
      this.#input,
      this.#count,
    );
    new MutationObserver(() => {
      if (this.#needle !== '') this.#applyAll();
    }).observe(list, { childList: true });
  }

  #applyAll(): void {
    let shown = 0;
    let total = 0;
    for (const row of this.#list.children) {
      const entry = rowEntries.get(row);
      if (entry === undefined) continue;
      total++;
      const match = entryMatches(entry, this.#needle);
      (row as HTMLElement).hidden = !match;
      if (match) shown++;
    }
    this.#count.textContent = this.#needle === '' ? '' : `${shown} of ${total} shown`;
  }
}
