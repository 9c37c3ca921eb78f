/**
 * How a detail panel reads and writes. A read that failed leaves the panel as
 * it was (an API failure shows elsewhere, anything else is reported). The button that sent a write is disabled until it
 * is answered; a write that failed shows as one line in the panel's problem
 * slot, with the admin-token field (see token-field.ts) when the server said
 * `UNAUTHORIZED`; a destructive write is asked first, inline (see confirmBar).
 * Also the parts the detail panels share: the section, the problem slot and the JSON box.
 *
 * @module
 */
import { failureMessage, isApiFailure } from './api.js';
import { type Child, type ConfirmBarOptions, confirmBar, h, replaceChildren } from './dom.js';
import { report } from './report.js';
import { tokenField } from './token-field.js';

/** Resolves with what `read` resolves with, or undefined when it failed (reported unless an API failure). */
export async function readQuietly<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!isApiFailure(error)) report(error);
    return undefined;
  }
}

/**
 * A detail panel: `<section class="panel <kind>-panel">` named by its heading
 * `<h3 id="<kind>-title">` (with `aside` beside it, in a `.panel-head`, when given).
 */
export function panel(kind: string, title: string, aside: Child, ...children: Child[]): HTMLElement {
  const heading = h('h3', { id: `${kind}-title` }, title);
  return h(
    'section',
    { class: `panel ${kind}-panel`, 'aria-labelledby': `${kind}-title` },
    aside ? h('div', { class: 'panel-head' }, heading, aside) : heading,
    ...children,
  );
}

/** The element a panel's failures are written into (`id` for `aria-describedby`). */
export function problemSlot(id: string): HTMLElement {
  return h('div', { class: 'form-error', id, role: 'alert' });
}

/** A box for JSON text typed as is: monospace, no spellcheck, capitalisation or autocomplete. */
export function codeArea(options: {
  id: string;
  name: string;
  rows: number;
  describedBy: string;
  placeholder?: string;
}): HTMLTextAreaElement {
  const { id, name, rows, describedBy, placeholder } = options;
  return h('textarea', {
    id,
    name,
    rows,
    spellcheck: false,
    autocapitalize: 'off',
    autocomplete: 'off',
    class: 'code',
    placeholder,
    'aria-describedby': describedBy,
  });
}

/** What {@link PanelWrites.confirm} asks, and what it does once confirmed. */
export interface ConfirmedWrite extends Omit<ConfirmBarOptions, 'onConfirm'> {
  /** For the failure line: `Could not <what>: …`. */
  what: string;
  /** The write; a rejection leaves the bar asking, with the failure shown. */
  write(): Promise<unknown>;
  /** After the write succeeded (before the bar gives way). */
  done(): Promise<void> | void;
}

/** The writes of one panel, with failures shown in `problem` (the token field's input is `tokenId`). */
export class PanelWrites {
  readonly #problem: HTMLElement;
  readonly #tokenId: string;

  constructor(problem: HTMLElement, tokenId: string) {
    this.#problem = problem;
    this.#tokenId = tokenId;
  }

  /** Runs `write` with `button` disabled; a failure shows `Could not <what>` and can be retried. */
  async run(button: HTMLButtonElement, what: string, write: () => Promise<void>): Promise<void> {
    button.disabled = true;
    this.#problem.replaceChildren();
    try {
      await write();
    } catch (error) {
      this.#fail(what, error, () => void this.run(button, what, write));
    } finally {
      button.disabled = false;
    }
  }

  /** Asks inline, in place of `button`, before `options.write`; Escape or "keep" leaves things as they are. */
  confirm(button: HTMLButtonElement, options: ConfirmedWrite): void {
    const { what, write, done, ...asked } = options;
    const bar = confirmBar(button, {
      ...asked,
      onConfirm: async () => {
        this.#problem.replaceChildren();
        try {
          await write();
        } catch (error) {
          this.#fail(what, error, () => bar.confirm());
          return false;
        }
        await done();
        return true;
      },
    });
  }

  /**
   * Writes `Could not <what>: <CODE>: <message>` (an unexpected error is reported
   * too); on `UNAUTHORIZED`, adds the token field, whose "Use token and retry" calls `retry`.
   */
  #fail(what: string, error: unknown, retry: () => void): void {
    if (!isApiFailure(error)) report(error);
    const code = isApiFailure(error) ? `${error.code}: ` : '';
    replaceChildren(this.#problem, `Could not ${what}: ${code}${failureMessage(error)}`);
    if (isApiFailure(error) && error.code === 'UNAUTHORIZED') {
      this.#problem.append(tokenField({ id: this.#tokenId, onUse: retry }));
    }
  }
}
