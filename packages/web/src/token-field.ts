/**
 * The inline admin-token field, shown where a write was refused with
 * `UNAUTHORIZED` (creating, saving and deleting alike): never `window.prompt`.
 *
 * @module
 */
import { adminToken } from './api.js';
import { h } from './dom.js';

/** Options for {@link tokenField}. */
export interface TokenFieldOptions {
  /** Id of the input (unique on the page). */
  id: string;
  /** Called after the token is stored: retry the write. */
  onUse(): void;
}

/** A message, a password field and "Use token and retry"; the field takes the focus when shown. */
export function tokenField(options: TokenFieldOptions): HTMLElement {
  const input = h('input', { type: 'password', id: options.id, autocomplete: 'off', class: 'token-input' });
  const use = () => {
    adminToken.set(input.value.trim());
    options.onUse();
  };
  const button = h('button', { type: 'button', class: 'btn btn-small', onclick: use }, 'Use token and retry');
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      use();
    }
  });
  const el = h(
    'div',
    { class: 'token-prompt' },
    h(
      'p',
      null,
      adminToken.get()
        ? 'The admin token was refused. Enter the server’s MOCKPOINT_ADMIN_TOKEN:'
        : 'This server needs its admin token for changes. Enter the server’s MOCKPOINT_ADMIN_TOKEN:',
    ),
    h('div', { class: 'token-row' }, h('label', { for: options.id }, 'Admin token'), input, button),
  );
  queueMicrotask(() => input.focus());
  return el;
}
