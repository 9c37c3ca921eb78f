/**
 * A body shown as text, at any size: JSON laid out one member a line (every
 * token as written), other text as it is with long lines wrapped. The first
 * {@link PREVIEW_CHARS} characters are shown at once; "Show all" lays out the
 * rest a slice per task (a 5 MB body never holds the page for long), and
 * "Download raw" saves the exact text.
 *
 * @module
 */
import { h } from './dom.js';
import { formatJsonSlices } from './json-format.js';
import { formatBytes } from './validate.js';

/** Characters of the body laid out before "Show all". */
export const PREVIEW_CHARS = 20_000;
/** Characters laid out per task after "Show all". */
const SLICE_CHARS = 256 * 1024;

/** What {@link bodyView} shows. */
export interface BodyViewOptions {
  /** The exact text. */
  text: string;
  /** Lay it out as JSON (the caller knows it is one complete JSON value). */
  json: boolean;
  /** The `<pre>`'s accessible name. */
  label: string;
  /** The name "Download raw" saves under. */
  filename: string;
  /** Extra classes for the `<pre>`. @default '' */
  className?: string;
}

/** Yields the text's slices, laid out as JSON or as they are. */
function* slices(text: string, json: boolean, sliceChars: number): Generator<string, void, undefined> {
  if (json) {
    yield* formatJsonSlices(text, sliceChars);
    return;
  }
  for (let i = 0; i < text.length; i += sliceChars) yield text.slice(i, i + sliceChars);
}

/** Resolves on the next task (lets the browser paint and handle input between slices). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The body: a `<pre>` and, for a body longer than the preview, "Show all" and "Download raw". */
export function bodyView(options: BodyViewOptions): HTMLElement {
  const { text, json } = options;
  const pre = h('pre', {
    class: `code${json ? '' : ' wrap'}${options.className ? ` ${options.className}` : ''}`,
    tabIndex: 0,
    'aria-label': options.label,
  });
  if (text.length <= PREVIEW_CHARS) {
    pre.textContent = [...slices(text, json, Number.POSITIVE_INFINITY)].join('');
    return h('div', { class: 'body-view' }, pre);
  }
  // The preview: the first characters laid out, cut at a token (JSON) or at the limit.
  pre.textContent = `${[...slices(text.slice(0, PREVIEW_CHARS), json, Number.POSITIVE_INFINITY)].join('')}\n…`;
  const size = formatBytes(new TextEncoder().encode(text).byteLength);
  const status = h(
    'span',
    { class: 'hint body-status', role: 'status' },
    `First ${PREVIEW_CHARS.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters shown.`,
  );
  const showAll = h('button', { type: 'button', class: 'btn btn-small' }, `Show all (${size})`);
  const download = h('button', { type: 'button', class: 'btn btn-small' }, 'Download raw');
  download.addEventListener('click', () => {
    // The exact text, as received or stored, made into a file on demand.
    const url = URL.createObjectURL(new Blob([text], { type: json ? 'application/json' : 'text/plain' }));
    const link = h('a', { href: url, download: options.filename, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  showAll.addEventListener('click', async () => {
    showAll.disabled = true;
    pre.replaceChildren();
    let done = 0;
    let carry = '';
    // Each slice's whole lines go into a block of their own: the browser lays out only the new block.
    const addBlock = (lines: string) => {
      if (lines !== '') pre.append(h('span', { class: 'body-slice' }, lines));
    };
    for (const slice of slices(text, json, SLICE_CHARS)) {
      const text = carry + slice;
      const cut = text.lastIndexOf('\n') + 1;
      addBlock(text.slice(0, cut));
      carry = text.slice(cut);
      done = Math.min(options.text.length, done + SLICE_CHARS);
      status.textContent = `Laying out… ${Math.round((done / options.text.length) * 100)} %`;
      await nextTask();
      if (!pre.isConnected) return;
    }
    addBlock(carry);
    status.textContent = `All ${options.text.length.toLocaleString('en')} characters shown.`;
    showAll.remove();
  });
  return h('div', { class: 'body-view' }, pre, h('div', { class: 'body-actions' }, status, showAll, download));
}
