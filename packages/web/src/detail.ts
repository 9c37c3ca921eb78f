/**
 * The detail view of one name. First, what a person opens it for: the name,
 * its URL (copyable), edit and delete, then the live journal of requests sent
 * to it — on screen without scrolling on a desktop and on a phone. Below them:
 * the stored response with ready curl commands (copyable), then the panels of
 * what answers besides the record and how requests are checked — queued
 * answers (queue-view.ts), routes (routes-view.ts), what the name remembers
 * (collections and state, memory-view.ts), the signature check
 * (signature-view.ts), the chaos (chaos-view.ts), the twin (twin-view.ts). A name with no record says what it is: one answered by
 * its routes is offered a stored response (added in place); one with nothing
 * (mistyped, deleted, not created yet) is offered "create it".
 *
 * {@link DetailView.refresh} re-reads the record and the panels, so an endpoint
 * created, changed or deleted elsewhere, or a queued answer used up, shows as it
 * is now.
 *
 * @module
 */
import { api, type ExactRecord, endpointUrl, failureMessage, isApiFailure } from './api.js';
import { bodyView } from './body-view.js';
import { ChaosView } from './chaos-view.js';
import { copyText, h, onEscape, replaceChildren, toast } from './dom.js';
import { type EndpointForm, endpointForm } from './form.js';
import { JournalView } from './journal.js';
import { statusBadge } from './list.js';
import { MemoryView } from './memory-view.js';
import { QueueView } from './queue-view.js';
import { report } from './report.js';
import { RoutesView } from './routes-view.js';
import { SignatureCheckView } from './signature-view.js';
import { tokenField } from './token-field.js';
import { TwinView } from './twin-view.js';
import { checkName, shellQuote } from './validate.js';

/** What the detail view tells the rest of the page. */
export interface DetailHooks {
  /** The endpoint was saved (edited). */
  onSaved(name: string): void;
  /** The endpoint was deleted from this view. */
  onDeleted(name: string): void;
  /** Leave edit mode (the page decides, so unsaved changes are asked about first). */
  onCancelEdit(): void;
}

/** HTTP sends no body with these statuses. */
const BODILESS = new Set([204, 205, 304]);

function copyRow(label: string, text: string, id: string): HTMLElement {
  const button = h('button', { type: 'button', class: 'btn btn-small copy', 'aria-describedby': id }, 'Copy');
  button.addEventListener('click', async () => {
    const ok = await copyText(text);
    button.textContent = ok ? 'Copied ✓' : 'Copy failed';
    toast(
      ok ? `${label === 'URL' ? 'URL' : 'Command'} copied` : 'Could not copy; select the text instead',
      ok ? 'ok' : 'error',
    );
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 1500);
  });
  return h(
    'div',
    { class: 'copy-row' },
    h('span', { class: 'copy-label' }, label),
    h('code', { id, class: 'copy-text' }, text),
    button,
  );
}

/** A command that sends a JSON request to the endpoint (so it shows in the journal). */
export function curlCommands(name: string): { get: string; post: string } {
  const url = shellQuote(endpointUrl(name));
  return {
    get: `curl -i ${url}`,
    post: `curl -i -X POST ${url} -H 'content-type: application/json' -d '{"hello":"world"}'`,
  };
}

type State =
  | { kind: 'loading' }
  | { kind: 'found'; record: ExactRecord }
  | { kind: 'missing'; deleted: boolean; routes: number; calls: boolean };

/** What is shown, as a string to compare: the data by its exact text (a JsonText's JSON form is its parsed value). */
function stateKey(state: State): string {
  if (state.kind !== 'found') return JSON.stringify(state);
  return JSON.stringify({ ...state, record: { ...state.record, data: state.record.data.text } });
}

/** The detail view of `name`. */
export class DetailView {
  readonly name: string;
  readonly el: HTMLElement;
  readonly #hooks: DetailHooks;
  readonly #title: HTMLElement;
  readonly #summary: HTMLElement;
  /** The stored response and the curl commands, below the journal. */
  readonly #response: HTMLElement;
  readonly #journal: JournalView;
  readonly #routes: RoutesView;
  readonly #queue: QueueView;
  readonly #memory: MemoryView;
  readonly #signature: SignatureCheckView;
  readonly #chaos: ChaosView;
  readonly #twin: TwinView;
  #state: State = { kind: 'loading' };
  #edit = false;
  #form: EndpointForm | undefined;
  #confirming = false;
  #stopped = false;

  constructor(name: string, hooks: DetailHooks) {
    this.name = name;
    this.#hooks = hooks;
    this.#title = h('h2', { tabIndex: -1, class: 'detail-title', id: 'detail-title' }, name);
    this.#summary = h('section', { class: 'panel detail', 'aria-labelledby': 'detail-title' });
    this.#response = h('section', { class: 'panel response-panel', 'aria-labelledby': 'response-title' });
    this.#response.hidden = true;
    this.#journal = new JournalView(name, h('code', { class: 'copy-text' }, curlCommands(name).post));
    // The journal shows once the panel above it has its final height, so it never moves down (layout shift).
    this.#journal.el.hidden = true;
    this.#routes = new RoutesView(name);
    this.#queue = new QueueView(name);
    this.#memory = new MemoryView(name);
    this.#signature = new SignatureCheckView(name);
    this.#chaos = new ChaosView(name);
    this.#twin = new TwinView(name);
    // Each panel shows once read (hidden when it cannot be read, e.g. for a name that cannot exist).
    this.#queue.el.hidden = true;
    this.#routes.el.hidden = true;
    this.#memory.el.hidden = true;
    this.#signature.el.hidden = true;
    this.#chaos.el.hidden = true;
    this.#twin.el.hidden = true;
    this.el = h(
      'div',
      { class: 'detail-view' },
      this.#summary,
      this.#journal.el,
      this.#response,
      this.#twin.el,
      this.#queue.el,
      this.#routes.el,
      this.#memory.el,
      this.#signature.el,
      this.#chaos.el,
    );
    this.#draw();
  }

  /** Loads the record and starts the journal; `edit` opens the editor once loaded. */
  start(edit: boolean): void {
    this.#edit = edit;
    this.#journal.start();
    void this.#read(true);
  }

  /** Stops the journal (leaving the view). */
  stop(): void {
    this.#stopped = true;
    this.#journal.stop();
  }

  /** Opens or closes the editor (the route changed between `#/e/x` and `#/e/x/edit`). */
  setEdit(edit: boolean): void {
    if (edit === this.#edit) return;
    this.#edit = edit;
    this.#form = undefined;
    this.#draw();
    if (!edit) this.#title.focus({ preventScroll: true });
  }

  /** True while the editor holds changes not saved yet. */
  isDirty(): boolean {
    return this.#edit && this.#form?.isDirty() === true;
  }

  /**
   * Asks, inline in the editor, whether to drop the unsaved changes: `discard`
   * runs on "Discard changes"; "Keep editing" returns to the form.
   */
  confirmDiscard(discard: () => void): void {
    const form = this.#form?.el;
    if (!form) {
      discard();
      return;
    }
    form.parentElement?.querySelector('.discard-bar')?.remove();
    const keep = h('button', { type: 'button', class: 'btn' }, 'Keep editing');
    const drop = h('button', { type: 'button', class: 'btn btn-danger' }, 'Discard changes');
    const bar = h(
      'div',
      { class: 'actions confirming discard-bar', role: 'group', 'aria-label': 'Unsaved changes' },
      h('p', { class: 'confirm-text' }, 'You have unsaved changes. Discard them?'),
      drop,
      keep,
    );
    const close = () => {
      bar.remove();
      this.#form?.focus();
    };
    keep.addEventListener('click', close);
    drop.addEventListener('click', () => {
      this.#form = undefined;
      bar.remove();
      discard();
    });
    onEscape(bar, close);
    form.before(bar);
    keep.focus();
  }

  /** Re-reads the record (live updates): an endpoint changed, created or deleted elsewhere shows as it is. */
  async refresh(): Promise<void> {
    if (this.#edit || this.#confirming || this.#stopped) return;
    await this.#read(false);
  }

  async #read(first: boolean): Promise<void> {
    let next: State;
    const routes = this.#routes.load();
    const queue = this.#queue.load();
    const memory = this.#memory.load();
    const signature = this.#signature.load();
    const chaos = this.#chaos.load();
    const twin = this.#twin.load();
    try {
      next = { kind: 'found', record: await api.getExact(this.name) };
    } catch (error) {
      if (this.#stopped) return;
      const code = isApiFailure(error) ? error.code : undefined;
      if (code === 'NOT_FOUND' || code === 'INVALID_NAME') {
        const count = (await routes) ?? 0;
        next = {
          kind: 'missing',
          deleted: this.#state.kind === 'found',
          routes: count,
          calls: this.#routes.answersCalls,
        };
      } else {
        if (!isApiFailure(error)) report(error);
        if (first) this.#showError(failureMessage(error));
        return; // a refresh that fails leaves the view as it was; the journal shows the connection state
      }
    }
    if (this.#stopped) return;
    const before = stateKey(this.#state);
    this.#state = next;
    if (stateKey(next) !== before) {
      if (next.kind === 'missing' && next.deleted) this.#edit = false;
      this.#journal.setEndpointExists(next.kind === 'found');
      this.#draw();
      if (first && !this.#edit) this.#title.focus({ preventScroll: true });
    }
    // The panel above the journal has its final height: the journal shows, and the panels below it as they are read.
    this.#journal.el.hidden = false;
    const [queued, routeCount, held, checked, faulted, twinned] = await Promise.all([
      queue,
      routes,
      memory,
      signature,
      chaos,
      twin,
    ]);
    if (this.#stopped) return;
    this.#queue.el.hidden = queued === undefined;
    this.#routes.el.hidden = routeCount === undefined;
    // Memory shows once the name holds a collection or a scenario, and stays (quietly empty) after they go.
    this.#memory.el.hidden = held === undefined || (held === 0 && this.#memory.el.hidden);
    this.#signature.el.hidden = checked === undefined;
    this.#chaos.el.hidden = faulted === undefined;
    this.#twin.el.hidden = twinned !== true;
  }

  #showError(message: string): void {
    this.#journal.el.hidden = false;
    replaceChildren(
      this.#summary,
      this.#head(),
      h('div', { class: 'notice notice-error', role: 'alert' }, `Could not load it: ${message}`),
    );
  }

  /** The head: back link, title and badges; the same in every state, so nothing moves when the record arrives. */
  #head(record?: ExactRecord): HTMLElement {
    return h(
      'div',
      { class: 'detail-head' },
      h('a', { href: '#/', class: 'back' }, '← All endpoints'),
      this.#title,
      h(
        'div',
        { class: 'detail-badges' },
        record ? statusBadge(record.statusCode) : null,
        record ? h('span', { class: 'delay' }, record.delay > 0 ? `${record.delay} ms delay` : 'no delay') : null,
      ),
    );
  }

  #draw(): void {
    const state = this.#state;
    this.#response.hidden = state.kind !== 'found' || this.#edit;
    if (state.kind === 'loading') {
      replaceChildren(this.#summary, this.#head(), h('p', { class: 'empty' }, 'Loading…'));
    } else if (state.kind === 'missing') {
      replaceChildren(
        this.#summary,
        this.#head(),
        this.#edit && state.routes > 0 ? this.#adder() : this.#missing(state.deleted, state.routes, state.calls),
      );
    } else {
      const { record } = state;
      const commands = curlCommands(this.name);
      replaceChildren(
        this.#summary,
        this.#head(record),
        copyRow('URL', endpointUrl(this.name), 'detail-url'),
        this.#edit ? this.#editor(record) : this.#actions(),
      );
      replaceChildren(
        this.#response,
        this.#stored(record),
        h('h4', null, 'Send a request'),
        copyRow('GET', commands.get, 'detail-curl'),
        copyRow('POST', commands.post, 'detail-curl-post'),
      );
    }
  }

  /** What a name with no endpoint means, and how to create it (or, for one answered by its routes, add a stored response). */
  #missing(deleted: boolean, routes: number, calls: boolean): HTMLElement {
    if (routes > 0) return this.#routed(routes, calls);
    const invalid = checkName(this.name, true);
    const said = deleted
      ? `“${this.name}” was deleted: its URL answers 404 now.`
      : `There is no endpoint named “${this.name}”.`;
    return h(
      'div',
      { class: 'notice notice-info missing', role: 'status' },
      h('p', null, said, ' Requests sent to it are still recorded: they are listed below.'),
      invalid
        ? h('p', null, `It cannot be created: ${invalid}`)
        : h(
            'p',
            null,
            h(
              'a',
              { class: 'btn btn-primary', href: `#/new/${encodeURIComponent(this.name)}` },
              `Create “${this.name}”`,
            ),
          ),
    );
  }

  /** A name answered by its routes alone: what answers, and a stored response to add for requests no route matches. */
  #routed(routes: number, calls: boolean): HTMLElement {
    const add = h('button', { type: 'button', class: 'btn btn-primary' }, 'Add a stored response');
    add.addEventListener('click', () => {
      location.hash = `#/e/${encodeURIComponent(this.name)}/edit`;
    });
    return h(
      'div',
      { class: 'notice notice-info missing', role: 'status' },
      h(
        'p',
        null,
        `“${this.name}” answers by its ${routes === 1 ? 'route' : `${routes} routes`} (listed below, after its requests). `,
        calls
          ? 'A gRPC call no route takes is answered in schema mode, from its protobuf definitions (a message of the method’s output type, status ok); any other request no route matches is answered 404 NO_ROUTE_MATCHED, and a stored response would answer those instead.'
          : 'A request no route matches is answered 404 NO_ROUTE_MATCHED; a stored response would answer it instead.',
      ),
      h('p', null, add),
    );
  }

  /** The form that adds a stored response to a name answered by its routes (its name fixed). */
  #adder(): HTMLElement {
    const form = endpointForm({
      mode: 'create',
      name: this.name,
      fixedName: true,
      onSaved: (saved) => {
        this.#state = { kind: 'found', record: saved };
        this.#journal.setEndpointExists(true);
        toast(`Added a stored response to ${this.name}`);
        this.#hooks.onSaved(this.name);
      },
      onCancel: () => this.#hooks.onCancelEdit(),
    });
    this.#form = form;
    queueMicrotask(() => form.focus());
    return h('div', { class: 'editor' }, h('h3', null, 'Add a stored response'), form.el);
  }

  #stored(record: ExactRecord): HTMLElement {
    const bodiless = BODILESS.has(record.statusCode);
    return h(
      'div',
      { class: 'stored' },
      h('h3', { id: 'response-title' }, bodiless ? 'Stored body (not sent)' : 'Response body'),
      bodiless
        ? h(
            'p',
            { class: 'hint bodiless' },
            `Status ${record.statusCode} answers have no body in HTTP, so this stored value is never sent. Choose another status to send it.`,
          )
        : null,
      bodyView({
        text: record.data.text,
        json: true,
        label: 'Stored response body',
        filename: `${record.name}.json`,
        className: bodiless ? 'unsent' : '',
      }),
    );
  }

  #actions(): HTMLElement {
    const bar = h('div', { class: 'actions' });
    const editButton = h('button', { type: 'button', class: 'btn' }, 'Edit');
    const deleteButton = h('button', { type: 'button', class: 'btn btn-danger' }, 'Delete');
    editButton.addEventListener('click', () => {
      location.hash = `#/e/${encodeURIComponent(this.name)}/edit`;
    });
    deleteButton.addEventListener('click', () => this.#confirmDelete(bar));
    replaceChildren(bar, editButton, deleteButton);
    return bar;
  }

  /** Asks inline, so the question is keyboard- and screen-reader-friendly; Escape keeps the endpoint. */
  #confirmDelete(bar: HTMLElement): void {
    this.#confirming = true;
    const confirmButton = h('button', { type: 'button', class: 'btn btn-danger' }, `Delete “${this.name}”`);
    const cancel = h('button', { type: 'button', class: 'btn' }, 'Keep it');
    const question = h('p', { class: 'confirm-text' }, 'Delete this endpoint? Its URL will answer 404.');
    const problem = h('div', { class: 'form-error' });
    const keep = () => {
      this.#confirming = false;
      const fresh = this.#actions();
      bar.replaceWith(fresh);
      fresh.querySelector<HTMLButtonElement>('.btn-danger')?.focus();
    };
    const remove = async () => {
      confirmButton.disabled = true;
      problem.replaceChildren();
      try {
        await api.remove(this.name);
        this.#confirming = false;
        toast(`Deleted ${this.name}`);
        this.#hooks.onDeleted(this.name);
      } catch (error) {
        confirmButton.disabled = false;
        if (!isApiFailure(error)) report(error);
        if (isApiFailure(error) && error.code === 'UNAUTHORIZED') {
          problem.replaceChildren(tokenField({ id: 'delete-token', onUse: () => void remove() }));
        } else {
          problem.textContent = `Could not delete: ${failureMessage(error)}`;
          toast(`Could not delete: ${failureMessage(error)}`, 'error');
        }
      }
    };
    cancel.addEventListener('click', keep);
    confirmButton.addEventListener('click', () => void remove());
    onEscape(bar, keep);
    replaceChildren(bar, question, confirmButton, cancel, problem);
    bar.classList.add('confirming');
    cancel.focus();
  }

  #editor(record: ExactRecord): HTMLElement {
    const form = endpointForm({
      mode: 'edit',
      initial: record,
      onSaved: (saved) => {
        this.#state = { kind: 'found', record: saved };
        toast(`Saved ${this.name}`);
        this.#hooks.onSaved(this.name);
      },
      onCancel: () => this.#hooks.onCancelEdit(),
    });
    this.#form = form;
    queueMicrotask(() => form.focus());
    return h('div', { class: 'editor' }, h('h3', null, 'Edit'), form.el);
  }
}
