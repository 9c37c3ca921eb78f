/**
 * A tiny DOM builder: `h('button', { type: 'button', onclick }, 'Save')`.
 * Text is always set as text (never parsed as HTML).
 *
 * @module
 */

export type Child = Node | string | number | false | null | undefined | Child[];
type Props = Record<string, unknown> & { class?: string; dataset?: Record<string, string> };

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
  } else {
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * Creates an element. Props starting with `on` become listeners; names with a dash
 * (`aria-*`), `for` and `role` are attributes (skipped when `false`); others are properties.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === 'class') el.className = String(value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (key.includes('-') || key === 'for' || key === 'role') {
      if (value !== false) el.setAttribute(key, value === true ? '' : String(value));
    } else (el as unknown as Record<string, unknown>)[key] = value;
  }
  for (const child of children) append(el, child);
  return el;
}

/** Calls `action` when `form` is submitted, instead of the browser's navigation (`preventDefault`). */
export function onSubmit(form: HTMLFormElement, action: () => void): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    action();
  });
}

/** Calls `action` when Escape is pressed inside `el`, marking the key handled (`preventDefault`). */
export function onEscape(el: HTMLElement, action: () => void): void {
  el.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      action();
    }
  });
}

/** Replaces the children of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  for (const child of children) append(el, child);
}

/** Announces a short message to assistive technology and shows it briefly. */
export function toast(message: string, kind: 'ok' | 'error' = 'ok'): void {
  const region = document.getElementById('toast');
  if (!region) return;
  const item = h('div', { class: `toast toast-${kind}` }, message);
  region.appendChild(item);
  setTimeout(() => item.remove(), kind === 'error' ? 6000 : 2500);
}

/** Copies text to the clipboard, falling back to a selection where the Clipboard API is unavailable (plain HTTP). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection fallback
  }
  const area = h('textarea', { value: text, readOnly: true, class: 'offscreen', 'aria-hidden': 'true' });
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Formats an ISO time as local `HH:MM:SS`. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(undefined, { hour12: false });
}

/** Formats an ISO time as local `YYYY-MM-DD HH:MM:SS` (a journal kept for days needs the date). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${formatTime(iso)}`;
}

/**
 * How long ago `iso` was, from `now`: `just now`, `12 s ago`, `5 min ago`,
 * `3 h ago`, then the date and time. A time in the future (clocks apart) is `just now`.
 */
export function formatAgo(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.floor((now - then) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDateTime(iso);
}

/**
 * Says `message` to screen readers through the page's polite live region
 * (`#announce`, always present and visually hidden), without moving the focus.
 */
export function announce(message: string): void {
  const region = document.getElementById('announce');
  if (!region) return;
  // A change of text is what assistive technology announces: clear, then set.
  region.textContent = '';
  setTimeout(() => {
    region.textContent = message;
  }, 50);
}

/** What {@link confirmBar} asks. */
export interface ConfirmBarOptions {
  /** The question, e.g. `Remove every route of “hook”?`. */
  text: string;
  /** The bar's accessible name, e.g. `Clear the routes`. */
  label: string;
  /**
   * Runs on the confirming button (disabled meanwhile); resolves `true` when done
   * (the bar gives way to `button` again, focused) or `false` to stay asking.
   */
  onConfirm(): Promise<boolean>;
  /** The confirming button's text. @default 'Remove them' */
  confirm?: string;
  /** The cancelling button's text. @default 'Keep them' */
  keep?: string;
}

/** The bar {@link confirmBar} put in place of its button. */
export interface ConfirmBar {
  el: HTMLElement;
  /** Confirms again (after a refused attempt, e.g. once an admin token is given). */
  confirm(): void;
}

/**
 * Asks inline before a destructive action: puts a bar (the question, a danger
 * button, a keep button) in place of `button` and focuses "keep"; "keep" or
 * Escape puts `button` back. Buttons are as small as `button` (`btn-small`).
 */
export function confirmBar(button: HTMLButtonElement, options: ConfirmBarOptions): ConfirmBar {
  const size = button.classList.contains('btn-small') ? ' btn-small' : '';
  const yes = h('button', { type: 'button', class: `btn${size} btn-danger` }, options.confirm ?? 'Remove them');
  const keep = h('button', { type: 'button', class: `btn${size}` }, options.keep ?? 'Keep them');
  const el = h(
    'div',
    { class: 'confirming clear-confirm', role: 'group', 'aria-label': options.label },
    h('span', { class: 'confirm-text' }, options.text),
    yes,
    keep,
  );
  const close = () => {
    if (!el.isConnected) return;
    el.replaceWith(button);
    button.focus();
  };
  const confirm = async () => {
    yes.disabled = true;
    if (await options.onConfirm()) close();
    else yes.disabled = false;
  };
  keep.addEventListener('click', close);
  yes.addEventListener('click', () => void confirm());
  onEscape(el, close);
  button.replaceWith(el);
  keep.focus();
  return { el, confirm: () => void confirm() };
}
