/**
 * What one name remembers between requests, in its detail view (docs/state.md):
 * its scenarios (state machines), each at its value with a box to set it, and
 * its collections, each with its item count and its items one per row as the
 * exact JSON text the server holds (never parsed and re-serialised, so
 * `12345678901234567890` and `1.50` show as stored); Remove (asked first) and
 * Change per collection; a box that puts a collection exactly as typed; Reset,
 * which returns the collections to their seed and the scenarios to their start.
 * Errors from the API show with their code.
 *
 * Rows are kept per scenario and per collection and updated in place on a
 * refresh, so a value being typed, a focused button or an open question stays.
 *
 * @module
 */
import { api, collectionItems, collectionsText, putCollectionText } from './api.js';
import { h, onSubmit, replaceChildren, toast } from './dom.js';
import { formatJson } from './json-format.js';
import { codeArea, PanelWrites, panel, problemSlot, readQuietly } from './panel-actions.js';

/** Items listed per collection at most; the rest are counted (the API has them all). */
const MAX_SHOWN_ITEMS = 200;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** One scenario's row: its name, its value, and a box to set it. */
interface ScenarioRow {
  el: HTMLElement;
  value: HTMLElement;
}

/** One collection's block: its name and count, Change and Remove, and its items. */
interface CollectionBlock {
  el: HTMLElement;
  count: HTMLElement;
  items: HTMLElement;
  /** The items shown, as one string to compare. */
  shown: string;
  /** The items as the server holds them, for Change. */
  texts: string[];
}

/** A quiet line for an empty list: its `backticked` words as code. */
function emptyLine(text: string): HTMLElement {
  return h(
    'p',
    { class: 'empty' },
    text.split('`').map((part, i) => (i % 2 === 1 ? h('code', null, part) : part)),
  );
}

/** The memory panel (collections and state) of `name`. */
export class MemoryView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #count: HTMLElement;
  readonly #scenarioList: HTMLElement;
  readonly #scenarioEmpty: HTMLElement;
  readonly #scenarioHint: HTMLElement;
  readonly #collectionsTitle: HTMLElement;
  readonly #collectionList: HTMLElement;
  readonly #collectionEmpty: HTMLElement;
  readonly #writes: PanelWrites;
  readonly #problem: HTMLElement;
  readonly #collectionName: HTMLInputElement;
  readonly #text: HTMLTextAreaElement;
  readonly #put: HTMLButtonElement;
  readonly #resetButton: HTMLButtonElement;
  readonly #putDetails: HTMLDetailsElement;
  readonly #scenarios = new Map<string, ScenarioRow>();
  readonly #collections = new Map<string, CollectionBlock>();
  /** The collections' text last drawn: a refresh that reads the same text draws nothing. */
  #shownText: string | undefined;

  constructor(name: string) {
    this.#name = name;
    this.#count = h('span', { class: 'hint memory-count' });
    this.#problem = problemSlot('memory-problem');
    this.#writes = new PanelWrites(this.#problem, 'memory-token');

    this.#scenarioList = h('ul', { class: 'memory-states', 'aria-labelledby': 'memory-states-title' });
    this.#scenarioEmpty = emptyLine(
      'No scenarios. A route with `match.state` answers only while a scenario is at a value, and `answer.setState` moves it; each starts at `started`.',
    );
    this.#scenarioHint = h(
      'p',
      { class: 'hint memory-state-hint', id: 'memory-state-hint' },
      'Set puts every scenario at its value shown here, which also becomes the start Reset returns to.',
    );
    this.#collectionsTitle = h('h4', { id: 'memory-collections-title', tabIndex: -1 }, 'Collections');
    this.#collectionList = h('div', { class: 'memory-collections' });
    this.#collectionEmpty = emptyLine(
      'No collections. A route answering `{"resource": "users"}` serves one as REST; put one below.',
    );

    this.#collectionName = h('input', {
      id: 'memory-collection-name',
      name: 'collection',
      class: 'memory-input',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: false,
      placeholder: 'users',
      'aria-describedby': 'memory-problem',
    });
    this.#text = codeArea({
      id: 'memory-text',
      name: 'items',
      rows: 4,
      placeholder: '[{"id": 1, "name": "Ada"}]',
      describedBy: 'memory-text-hint memory-problem',
    });
    this.#put = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Put collection');
    const form = h(
      'form',
      { class: 'memory-form', noValidate: true },
      h('label', { for: 'memory-collection-name' }, 'Collection'),
      this.#collectionName,
      h('label', { for: 'memory-text' }, 'Items (JSON: a list of objects)'),
      h(
        'p',
        { class: 'hint', id: 'memory-text-hint' },
        'Replaces the collection (or creates it) and makes it the seed Reset returns to. Sent exactly as typed.',
      ),
      this.#text,
      h('div', { class: 'actions' }, this.#put),
    );
    onSubmit(form, () => void this.#putCollection());
    this.#putDetails = h('details', { class: 'memory-put' }, h('summary', null, 'Put a collection'), form);

    this.#resetButton = h('button', { type: 'button', class: 'btn', 'aria-describedby': 'memory-reset-hint' }, 'Reset');
    this.#resetButton.addEventListener('click', () => void this.#reset());

    this.el = panel(
      'memory',
      'Memory: state and collections',
      this.#count,
      h('h4', { id: 'memory-states-title' }, 'State'),
      this.#scenarioEmpty,
      this.#scenarioList,
      this.#scenarioHint,
      this.#problem,
      this.#collectionsTitle,
      this.#collectionEmpty,
      this.#collectionList,
      this.#putDetails,
      h(
        'div',
        { class: 'actions' },
        this.#resetButton,
        h(
          'span',
          { class: 'hint', id: 'memory-reset-hint' },
          'Collections back to their seed, scenarios to their start.',
        ),
      ),
    );
  }

  /** Reads the state and the collections; resolves with how many scenarios and collections there are (undefined when they cannot be read). */
  async load(): Promise<number | undefined> {
    const [states, text] = await Promise.all([
      readQuietly(() => api.getState(this.#name)),
      readQuietly(() => collectionsText(this.#name)),
    ]);
    if (states === undefined || text === undefined) return undefined;
    this.#showStates(states);
    if (text !== this.#shownText) {
      this.#showCollections(collectionItems(text));
      this.#shownText = text;
    }
    const scenarios = this.#scenarios.size;
    const collections = this.#collections.size;
    this.#count.textContent =
      scenarios + collections === 0
        ? 'nothing held'
        : `${plural(scenarios, 'scenario')}, ${plural(collections, 'collection')}`;
    return scenarios + collections;
  }

  #showStates(states: Record<string, string>): void {
    const names = Object.keys(states);
    for (const [scenario, row] of this.#scenarios) {
      if (!Object.hasOwn(states, scenario)) {
        row.el.remove();
        this.#scenarios.delete(scenario);
      }
    }
    names.forEach((scenario, index) => {
      let row = this.#scenarios.get(scenario);
      if (row === undefined) {
        row = this.#scenarioRow(scenario);
        this.#scenarios.set(scenario, row);
        this.#scenarioList.insertBefore(row.el, this.#scenarioList.children[index] ?? null);
      }
      row.value.textContent = states[scenario] ?? '';
    });
    this.#scenarioEmpty.hidden = names.length > 0;
    this.#scenarioList.hidden = names.length === 0;
    this.#scenarioHint.hidden = names.length === 0;
  }

  #scenarioRow(scenario: string): ScenarioRow {
    const id = `memory-state-${scenario}`;
    const value = h('code', { class: 'memory-value' });
    const input = h('input', {
      id,
      name: 'value',
      class: 'memory-input',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: false,
      placeholder: 'new value',
      'aria-describedby': 'memory-state-hint memory-problem',
    });
    const set = h('button', { type: 'submit', class: 'btn btn-small', 'aria-label': `Set ${scenario}` }, 'Set');
    const form = h(
      'form',
      { class: 'memory-set', noValidate: true },
      h('label', { for: id, class: 'offscreen' }, `New value of ${scenario}`),
      input,
      set,
    );
    onSubmit(form, () => void this.#setState(scenario, input, set));
    const el = h('li', { class: 'memory-state' }, h('code', { class: 'memory-scenario' }, scenario), value, form);
    return { el, value };
  }

  /**
   * Sets one scenario: the state is read again and put whole with that one
   * changed (a PUT leaves out nothing, or what it leaves out goes back to started).
   */
  async #setState(scenario: string, input: HTMLInputElement, button: HTMLButtonElement): Promise<void> {
    this.#problemAfter(this.#scenarioHint);
    await this.#writes.run(button, 'set the state', async () => {
      const states = await api.getState(this.#name);
      const value = input.value;
      await api.setState(this.#name, { ...states, [scenario]: value });
      input.value = '';
      toast(`Set ${scenario} of ${this.#name} to ${value}`);
      await this.load();
    });
  }

  #showCollections(collections: Map<string, string[]>): void {
    for (const [collection, block] of this.#collections) {
      if (!collections.has(collection)) {
        block.el.remove();
        this.#collections.delete(collection);
      }
    }
    [...collections].forEach(([collection, texts], index) => {
      let block = this.#collections.get(collection);
      if (block === undefined) {
        block = this.#collectionBlock(collection);
        this.#collections.set(collection, block);
        this.#collectionList.insertBefore(block.el, this.#collectionList.children[index] ?? null);
      }
      this.#showItems(collection, block, texts);
    });
    this.#collectionEmpty.hidden = collections.size > 0;
    this.#collectionList.hidden = collections.size === 0;
  }

  #collectionBlock(collection: string): CollectionBlock {
    const titleId = `memory-collection-${collection}`;
    const count = h('span', { class: 'hint' });
    // "Change", not "Edit": the endpoint's own Edit button stays the one button of that name.
    const change = h(
      'button',
      { type: 'button', class: 'btn btn-small', 'aria-label': `Change ${collection}` },
      'Change',
    );
    const remove = h(
      'button',
      { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Remove collection ${collection}` },
      'Remove',
    );
    const items = h('div', { class: 'memory-items' });
    const block: CollectionBlock = {
      el: h(
        'section',
        { class: 'memory-collection', 'aria-labelledby': titleId },
        h(
          'div',
          { class: 'memory-collection-head' },
          h('h5', { id: titleId }, h('code', null, collection)),
          count,
          h('span', { class: 'memory-collection-actions' }, change, remove),
        ),
        items,
      ),
      count,
      items,
      shown: '',
      texts: [],
    };
    change.addEventListener('click', () => this.#change(collection, block.texts));
    remove.addEventListener('click', () => this.#confirmRemove(collection, remove));
    return block;
  }

  #showItems(collection: string, block: CollectionBlock, texts: string[]): void {
    block.texts = texts;
    const key = JSON.stringify(texts);
    if (key === block.shown) return;
    block.shown = key;
    block.count.textContent = plural(texts.length, 'item');
    const shown = texts.slice(0, MAX_SHOWN_ITEMS);
    replaceChildren(
      block.items,
      texts.length === 0
        ? h('p', { class: 'empty' }, 'Empty: the first POST to its resource route adds an item.')
        : h(
            'ol',
            // Scrolls past 22rem (a twin's events): reachable by keyboard.
            { class: 'memory-item-list', tabIndex: 0, 'aria-label': `Items of ${collection}, exact JSON` },
            shown.map((text) => h('li', null, h('code', { class: 'memory-item' }, text))),
          ),
      texts.length > shown.length
        ? h(
            'p',
            { class: 'hint' },
            `The first ${shown.length} of ${texts.length} items; GET /api/endpoints/${this.#name}/collections/${collection} has them all.`,
          )
        : null,
    );
  }

  /** Moves the problem slot (one for the panel) below `el`: a failure shows beside what was written. */
  #problemAfter(el: Element): void {
    if (this.#problem.previousElementSibling === el) return;
    this.#problem.replaceChildren();
    el.after(this.#problem);
  }

  /** Opens the put form with `collection`'s name and its items, laid out with every token as stored. */
  #change(collection: string, texts: string[]): void {
    const details = this.#text.closest('details');
    if (details) details.open = true;
    this.#collectionName.value = collection;
    this.#text.value = formatJson(`[${texts.join(',')}]`);
    this.#text.focus();
  }

  async #putCollection(): Promise<void> {
    this.#problemAfter(this.#text);
    const collection = this.#collectionName.value.trim();
    if (collection === '') {
      replaceChildren(this.#problem, 'Could not put the collection: give it a name.');
      this.#collectionName.focus();
      return;
    }
    await this.#writes.run(this.#put, 'put the collection', async () => {
      await putCollectionText(this.#name, collection, this.#text.value);
      this.#text.value = '';
      this.#collectionName.value = '';
      toast(`Put collection ${collection} of ${this.#name}`);
      await this.load();
    });
  }

  /** Asks inline before removing one collection and its seed; Escape or "Keep it" leaves it. */
  #confirmRemove(collection: string, button: HTMLButtonElement): void {
    const head = button.closest('.memory-collection-head');
    if (head) this.#problemAfter(head);
    this.#writes.confirm(button, {
      text: `Remove the collection “${collection}” and its seed?`,
      label: `Remove collection ${collection}`,
      confirm: `Remove “${collection}”`,
      keep: 'Keep it',
      what: 'remove the collection',
      write: () => api.removeCollection(this.#name, collection),
      done: async () => {
        toast(`Removed collection ${collection} of ${this.#name}`);
        await this.load();
        // Its block is gone with the question: the keyboard continues at the collections.
        if (!this.#collections.has(collection)) this.#collectionsTitle.focus();
      },
    });
  }

  async #reset(): Promise<void> {
    this.#problemAfter(this.#putDetails);
    await this.#writes.run(this.#resetButton, 'reset', async () => {
      await api.resetEndpoint(this.#name);
      toast(`Reset ${this.#name}: collections back to their seed, scenarios to their start`);
      await this.load();
    });
  }
}
