/**
 * The detail view of one endpoint: its full URL and a ready curl command (both
 * copyable), the stored response, edit and delete, and the live request journal.
 *
 * @module
 */
import { ApiError, adminToken, api, type EndpointRecord, endpointUrl, type QueuedAnswer } from './api.js';
import { copyText, h, replaceChildren, toast } from './dom.js';
import { endpointForm } from './form.js';
import { JournalView } from './journal.js';
import { statusBadge } from './list.js';
import { report } from './report.js';
import { shellQuote } from './validate.js';

/** What the detail view tells the rest of the page. */
export interface DetailHooks {
  /** The endpoint changed (edited) or is gone (deleted). */
  onChanged(name: string, deleted: boolean): void;
}

/** Shown body is cut past this many characters (the stored value is not). */
const PREVIEW_CHARS = 20_000;

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

/** One queued answer in a few characters: `503 ×2`, `reset`, `200 (data)`. */
function describeAnswer(answer: QueuedAnswer): string {
  const what = answer.fault ?? (answer.statusCode === undefined ? 'record' : String(answer.statusCode));
  const data = Object.hasOwn(answer, 'data') && answer.fault === undefined ? ' (data)' : '';
  const delay = answer.delay ? ` after ${answer.delay} ms` : '';
  return `${what}${data}${delay}${answer.times > 1 ? ` ×${answer.times}` : ''}`;
}

/** A line listing the queued one-shot answers (read when the view opens); hidden when there are none. */
function queuedLine(name: string): HTMLElement {
  const line = h('p', { class: 'queued-line', hidden: true });
  api.queued(name).then(
    ({ answers }) => {
      if (answers.length === 0) return;
      line.textContent = `Queued one-shot answers (next first): ${answers.map(describeAnswer).join(' · ')}`;
      line.hidden = false;
    },
    () => undefined, // the rest of the view shows its own errors
  );
  return line;
}

/** Renders the detail view for `name` into `container`; returns a function that stops it (live journal). */
export function showDetail(container: HTMLElement, name: string, hooks: DetailHooks, edit: boolean): () => void {
  let journal: JournalView | undefined;
  let stopped = false;
  const title = h('h2', { tabIndex: -1, class: 'detail-title' }, name);
  replaceChildren(container, h('section', { class: 'panel' }, title, h('p', { class: 'empty' }, 'Loading…')));

  const render = (record: EndpointRecord) => {
    const commands = curlCommands(name);
    const body = JSON.stringify(record.data, null, 2) ?? 'null';
    const summary = h(
      'section',
      { class: 'panel detail', 'aria-labelledby': 'detail-title' },
      h(
        'div',
        { class: 'detail-head' },
        h('a', { href: '#/', class: 'back' }, '← All endpoints'),
        title,
        h(
          'div',
          { class: 'detail-badges' },
          statusBadge(record.statusCode),
          h('span', { class: 'delay' }, record.delay > 0 ? `${record.delay} ms delay` : 'no delay'),
        ),
      ),
      queuedLine(name),
      copyRow('URL', endpointUrl(name), 'detail-url'),
      copyRow('GET', commands.get, 'detail-curl'),
      copyRow('POST', commands.post, 'detail-curl-post'),
      h(
        'div',
        { class: 'stored' },
        h('h3', null, 'Response body'),
        h(
          'pre',
          { class: 'code', tabIndex: 0, 'aria-label': 'Stored response body' },
          body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}\n… (${body.length} characters)` : body,
        ),
      ),
      actions(record),
    );
    title.id = 'detail-title';
    journal?.stop();
    journal = new JournalView(name, h('code', { class: 'copy-text' }, commands.post));
    replaceChildren(container, summary, journal.el);
    if (edit) openEditor(summary, record);
    journal.start();
  };

  const actions = (record: EndpointRecord) => {
    const bar = h('div', { class: 'actions' });
    const editButton = h('button', { type: 'button', class: 'btn' }, 'Edit');
    const deleteButton = h('button', { type: 'button', class: 'btn btn-danger' }, 'Delete');
    editButton.addEventListener('click', () => {
      location.hash = `#/e/${encodeURIComponent(name)}/edit`;
    });
    deleteButton.addEventListener('click', () => {
      // Asks inline, so the question is keyboard- and screen-reader-friendly.
      const confirmButton = h('button', { type: 'button', class: 'btn btn-danger' }, `Delete “${name}”`);
      const cancel = h('button', { type: 'button', class: 'btn' }, 'Keep it');
      const question = h('p', { class: 'confirm-text' }, 'Delete this endpoint? Its URL will answer 404.');
      cancel.addEventListener('click', () => {
        bar.replaceWith(actions(record));
      });
      confirmButton.addEventListener('click', async () => {
        confirmButton.disabled = true;
        try {
          await api.remove(name);
          toast(`Deleted ${name}`);
          hooks.onChanged(name, true);
        } catch (error) {
          confirmButton.disabled = false;
          if (!(error instanceof ApiError)) report(error);
          if (error instanceof ApiError && error.code === 'UNAUTHORIZED') {
            const token = prompt('This server needs its admin token (ADMIN_TOKEN) for changes:');
            if (token) adminToken.set(token.trim());
          } else {
            toast(`Could not delete: ${(error as Error).message}`, 'error');
          }
        }
      });
      replaceChildren(bar, question, confirmButton, cancel);
      bar.classList.add('confirming');
      cancel.focus();
    });
    replaceChildren(bar, editButton, deleteButton);
    return bar;
  };

  const openEditor = (summary: HTMLElement, record: EndpointRecord) => {
    const form = endpointForm({
      mode: 'edit',
      initial: record,
      onSaved: () => {
        toast(`Saved ${name}`);
        hooks.onChanged(name, false);
        location.hash = `#/e/${encodeURIComponent(name)}`;
      },
      onCancel: () => {
        location.hash = `#/e/${encodeURIComponent(name)}`;
      },
    });
    const editor = h('div', { class: 'editor' }, h('h3', null, 'Edit'), form);
    summary.querySelector('.stored')?.replaceWith(editor);
    summary.querySelector('.actions')?.remove();
    (form.querySelector('textarea') as HTMLTextAreaElement).focus();
  };

  api.get(name).then(
    (record) => {
      if (stopped) return;
      render(record);
      if (!edit) title.focus({ preventScroll: true });
    },
    (error: unknown) => {
      if (stopped) return;
      if (!(error instanceof ApiError)) report(error);
      const notFound = error instanceof ApiError && error.code === 'NOT_FOUND';
      replaceChildren(
        container,
        h(
          'section',
          { class: 'panel' },
          h('a', { href: '#/', class: 'back' }, '← All endpoints'),
          title,
          h(
            'div',
            { class: 'notice notice-error', role: 'alert' },
            notFound ? `There is no endpoint named “${name}”.` : `Could not load it: ${(error as Error).message}`,
          ),
        ),
      );
      title.focus({ preventScroll: true });
    },
  );

  return () => {
    stopped = true;
    journal?.stop();
  };
}
