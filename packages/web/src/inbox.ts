/**
 * The mistyped-name inbox: names that received requests but have no endpoint
 * (`GET api/requests/unknown`, newest first), each with how many requests it
 * got and when, a link to see them, and one button that creates the endpoint
 * (answering `200 {}`, to edit from its view). Shown only while there is one.
 *
 * @module
 */
import { api, failureMessage, isApiFailure } from './api.js';
import { conditionalGet } from './conditional-get.js';
import { formatAgo, formatDateTime, h, replaceChildren, toast } from './dom.js';
import { report } from './report.js';

/** One name of the inbox, as the server lists it. */
interface UnknownName {
  name: string;
  requests: number;
  lastReceivedAt: string;
  lastMethod: string;
}

/** Options for {@link UnknownNames}. */
export interface UnknownNamesOptions {
  /** An endpoint was created from the inbox. */
  onCreated(name: string): void;
}

/** The inbox panel. */
export class UnknownNames {
  readonly el: HTMLElement;
  readonly #list: HTMLElement;
  readonly #count: HTMLElement;
  readonly #options: UnknownNamesOptions;
  #names: UnknownName[] = [];
  #loading = false;

  constructor(options: UnknownNamesOptions) {
    this.#options = options;
    this.#count = h('span', { class: 'count' });
    this.#list = h('ul', { class: 'inbox-list' });
    this.el = h(
      'section',
      { class: 'panel inbox-panel', 'aria-labelledby': 'inbox-title', hidden: true },
      h('div', { class: 'panel-head' }, h('h2', { id: 'inbox-title' }, 'Mistyped URLs ', this.#count)),
      h('p', { class: 'hint' }, 'Requests arrived for these names, and no endpoint has them.'),
      this.#list,
    );
  }

  /** Reads the inbox again (conditionally: unchanged, nothing is redrawn). */
  async refresh(): Promise<void> {
    if (this.#loading) return;
    this.#loading = true;
    try {
      const { value, changed } = await conditionalGet<{ names: UnknownName[] }>('api/requests/unknown');
      if (changed) {
        this.#names = value.names;
        this.#render();
      }
    } catch (error) {
      // The list panel says when the server is unreachable; an older daemon has no inbox.
      if (!isApiFailure(error)) report(error);
    } finally {
      this.#loading = false;
    }
  }

  async #create(name: string, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      await api.add({ name, data: {} });
      toast(`Created ${name}`);
      this.#names = this.#names.filter((one) => one.name !== name);
      this.#render();
      this.#options.onCreated(name);
    } catch (error) {
      if (!isApiFailure(error)) report(error);
      toast(`Could not create ${name}: ${failureMessage(error)}`, 'error');
      button.disabled = false;
    }
  }

  #render(): void {
    const names = this.#names;
    this.el.hidden = names.length === 0;
    this.#count.textContent = String(names.length);
    const now = Date.now();
    replaceChildren(
      this.#list,
      names.map((one) => {
        const create = h(
          'button',
          { type: 'button', class: 'btn btn-small btn-primary', 'aria-label': `Create ${one.name}` },
          'Create',
        );
        create.addEventListener('click', () => void this.#create(one.name, create));
        return h(
          'li',
          { dataset: { name: one.name } },
          h(
            'a',
            { href: `#/e/${encodeURIComponent(one.name)}`, class: 'inbox-name' },
            h('span', { class: 'name' }, one.name),
            h(
              'span',
              { class: 'inbox-meta' },
              `${one.requests} request${one.requests === 1 ? '' : 's'}, last `,
              h(
                'time',
                { dateTime: one.lastReceivedAt, title: formatDateTime(one.lastReceivedAt) },
                formatAgo(one.lastReceivedAt, now),
              ),
            ),
          ),
          create,
        );
      }),
    );
  }
}
