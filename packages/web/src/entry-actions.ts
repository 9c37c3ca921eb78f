/**
 * What can be done with one recorded request: copy its body, copy it as a curl
 * command that sends the same request again (method, headers, exact body bytes,
 * the URL on this daemon), and replay it from the page.
 *
 * A body the journal truncated cannot be sent again as it was: curl and replay
 * are offered only for whole bodies.
 *
 * @module
 */
import { type JournalEntry, pageUrl } from './api.js';
import { copyText, h, toast } from './dom.js';
import { shellQuote } from './validate.js';

/**
 * Headers not copied: the ones curl and the browser set from the request itself
 * (host, length, framing, connection), and those a proxy added on the way.
 */
const NOT_COPIED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-prefix',
  'x-real-ip',
  'forwarded',
]);

/** `?a=1&b=2` for a query (empty for none). */
export function queryString(query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The request's URL on the daemon serving this page (through its proxy prefix, if any). */
export function requestUrl(entry: JournalEntry): string {
  return pageUrl(`${entry.path.replace(/^\/+/, '')}${queryString(entry.query)}`);
}

/** The headers sent again, in name order. */
function headersToSend(entry: JournalEntry): [string, string][] {
  return Object.entries(entry.headers)
    .filter(([name]) => !NOT_COPIED.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The body's exact bytes (text as UTF-8, base64 decoded). */
function bodyBytes(entry: JournalEntry): Uint8Array {
  if (entry.bodyEncoding !== 'base64') return new TextEncoder().encode(entry.body);
  return Uint8Array.from(atob(entry.body), (c) => c.charCodeAt(0));
}

/**
 * A curl command sending this request again: same method, URL, headers and
 * body bytes (a binary body through `base64 -d`). Undefined for a truncated body.
 */
export function curlCommand(entry: JournalEntry): string | undefined {
  if (entry.bodyTruncated) return undefined;
  const parts = ['curl', '-X', entry.method, shellQuote(requestUrl(entry))];
  for (const [name, value] of headersToSend(entry)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (entry.body === '') return parts.join(' ');
  if (entry.bodyEncoding === 'base64') {
    return `printf %s ${shellQuote(entry.body)} | base64 -d | ${parts.join(' ')} --data-binary @-`;
  }
  return `${parts.join(' ')} --data-binary ${shellQuote(entry.body)}`;
}

/** Sends the request again from the page; resolves to the status it got. */
export async function replay(entry: JournalEntry): Promise<number> {
  const headers = new Headers();
  for (const [name, value] of headersToSend(entry)) {
    try {
      headers.append(name, value);
    } catch {
      // a value the browser will not send (it refuses some characters): left out
    }
  }
  const hasBody = entry.body !== '' && entry.method !== 'GET' && entry.method !== 'HEAD';
  const response = await fetch(requestUrl(entry), {
    method: entry.method,
    headers,
    body: hasBody ? (bodyBytes(entry) as BodyInit) : undefined,
    cache: 'no-store',
    credentials: 'omit',
  });
  await response.arrayBuffer();
  return response.status;
}

function copyButton(label: string, text: () => string, done: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'btn btn-small' }, label);
  button.addEventListener('click', async () => {
    const ok = await copyText(text());
    toast(ok ? done : 'Could not copy; select the text instead', ok ? 'ok' : 'error');
  });
  return button;
}

/** The row of actions under an opened request. */
export function entryActions(entry: JournalEntry): HTMLElement {
  const bar = h('div', { class: 'entry-actions', role: 'group', 'aria-label': 'This request' });
  if (entry.body !== '' && entry.bodyEncoding !== 'base64') {
    bar.append(
      copyButton(entry.bodyTruncated ? 'Copy body (truncated)' : 'Copy body', () => entry.body, 'Body copied'),
    );
  }
  // A WebSocket message is no HTTP request: nothing to send again with curl.
  if (entry.websocket !== undefined) return bar;
  const curl = curlCommand(entry);
  if (curl === undefined) {
    bar.append(
      h('span', { class: 'hint' }, 'The journal kept only the start of this body: it cannot be sent again as it was.'),
    );
    return bar;
  }
  bar.append(copyButton('Copy as curl', () => curl, 'curl command copied'));
  const again = h('button', { type: 'button', class: 'btn btn-small' }, 'Replay');
  again.addEventListener('click', async () => {
    again.disabled = true;
    try {
      const status = await replay(entry);
      toast(`Replayed ${entry.method} ${entry.path}: ${status}`);
    } catch (error) {
      toast(`Replay failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
    } finally {
      again.disabled = false;
    }
  });
  bar.append(again);
  return bar;
}
