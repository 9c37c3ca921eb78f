/**
 * One recorded request as a journal row: a `<details>` whose summary is a
 * one-line preview (method, path with its subpath set apart, status, who
 * answered, the signature check's outcome, size, the first bytes of the body,
 * date and time) and whose body holds the query, headers and the full body.
 *
 * @module
 */
import type { JournalEntry } from './api.js';
import { bodyView } from './body-view.js';
import { formatAgo, formatDateTime, h } from './dom.js';
import { entryActions } from './entry-actions.js';
import {
  answeredMark,
  graphqlMark,
  graphqlRows,
  grpcMark,
  pathLine,
  signatureMark,
  signatureRows,
  socketMark,
  socketRows,
  validationRows,
} from './entry-marks.js';
import { grpcMessages, grpcRows } from './grpc-view.js';
import { rememberEntry } from './journal-filter.js';
import { statusBadge } from './list.js';
import { formatBytes } from './validate.js';

/** Characters of the body shown in the one-line preview. */
const PREVIEW_CHARS = 80;
const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|x-www-form-urlencoded|javascript|graphql))/i;

/**
 * True when the body is not text: the server sent its bytes in base64 (not
 * valid UTF-8), its content type says so, or it holds control characters.
 */
export function isBinary(entry: JournalEntry): boolean {
  if (entry.body === '') return false;
  if (entry.bodyEncoding === 'base64') return true;
  const type = entry.headers['content-type'];
  if (type !== undefined && !TEXT_TYPES.test(type.trim())) return true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
  return /[\uFFFD\u0000-\u0008\u000E-\u001F]/.test(entry.body);
}

/**
 * The body's size in bytes as sent: the Content-Length header when there is
 * one (a binary or truncated body's text is not its size), else its UTF-8 length.
 */
export function bodySize(entry: JournalEntry): number {
  const declared = Number(entry.headers['content-length']);
  if (entry.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0) {
    return declared;
  }
  return bodyBytes(entry).byteLength;
}

/** The recorded body's bytes (all of them, or the first ones when truncated). */
function bodyBytes(entry: JournalEntry): Uint8Array {
  if (entry.bodyEncoding !== 'base64') return new TextEncoder().encode(entry.body);
  try {
    return Uint8Array.from(atob(entry.body), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}

/** The first bytes in hex, 16 a line: a look at a binary body without garbling it. */
function hexDump(bytes: Uint8Array, max = 128): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.min(bytes.length, max); i += 16) {
    const row = [...bytes.subarray(i, Math.min(i + 16, max))].map((b) => b.toString(16).padStart(2, '0'));
    lines.push(`${i.toString(16).padStart(4, '0')}  ${row.join(' ')}`);
  }
  if (bytes.length > max) lines.push('…');
  return lines.join('\n');
}

/** A gRPC call's first request message as one line of proto3 JSON, cut like a body; none without one. */
function grpcPreview(entry: JournalEntry): string | undefined {
  const mark = entry.grpc;
  const message = mark?.message ?? mark?.messages?.[0];
  if (message === undefined) return undefined;
  const line = JSON.stringify(message);
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line;
}

/** The start of the body on one line, for the row's summary. */
export function bodyPreview(entry: JournalEntry): string {
  // A call's messages are in its grpc mark, in proto3 JSON: those, not its framed bytes.
  const message = grpcPreview(entry);
  if (message !== undefined) return message;
  if (entry.body === '') return '';
  if (isBinary(entry)) return `binary data, ${formatBytes(bodySize(entry))}`;
  const line = entry.body.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line;
}

function kvTable(rows: [string, string][]): HTMLElement {
  return h(
    'table',
    { class: 'kv-table' },
    h(
      'tbody',
      null,
      rows.map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, v))),
    ),
  );
}

function bodySection(entry: JournalEntry): Node[] {
  const binary = isBinary(entry);
  const heading = h(
    'h4',
    null,
    'Body',
    entry.json !== undefined ? h('span', { class: 'tag' }, 'JSON') : null,
    binary ? h('span', { class: 'tag' }, 'binary') : null,
    entry.bodyTruncated ? h('span', { class: 'tag tag-warn' }, 'truncated') : null,
  );
  if (entry.body === '') return [heading, h('p', { class: 'empty' }, '(empty)')];
  if (binary) {
    const type = entry.headers['content-type'] ?? 'no content type';
    return [
      heading,
      h(
        'p',
        { class: 'empty' },
        `${formatBytes(bodySize(entry))} of binary data (${type}): not shown as text, which would garble it. The first bytes:`,
      ),
      h(
        'pre',
        { class: 'code hex', tabIndex: 0, 'aria-label': 'First bytes of the body, in hex' },
        hexDump(bodyBytes(entry)),
      ),
    ];
  }
  // JSON laid out one member a line, every token (number, escape, key) as written; other text as sent.
  const json = entry.json !== undefined && !entry.bodyTruncated && entry.bodyEncoding === undefined;
  return [heading, bodyView({ text: entry.body, json, label: 'Request body', filename: `request-${entry.id}.txt` })];
}

/** Who answered, and what the route saw: the subpath below the endpoint's URL and the pattern's parameters. */
function answerRows(entry: JournalEntry): [string, string][] {
  // Journals written before answer marks have none.
  const by = entry.answeredBy as JournalEntry['answeredBy'] | undefined;
  if (by === undefined) return [['subpath', entry.subpath ?? entry.path], ...signatureRows(entry)];
  const who =
    by === 'record'
      ? 'the stored response'
      : by === 'graphql'
        ? "the endpoint's GraphQL schema"
        : by === 'grpc'
          ? `the endpoint's protobuf definitions (${entry.grpc?.service}/${entry.grpc?.method}: ${entry.grpc?.code})`
          : by === 'none'
            ? `nobody (${entry.statusCode})`
            : by === 'twin'
              ? "the endpoint's twin"
              : 'queue' in by
                ? `a queued one-shot answer${entry.fault ? ` (${entry.fault})` : ''}`
                : 'chaos' in by
                  ? `a fault ${by.namespace ? "the namespace's" : "the endpoint's"} chaos injected (${by.chaos})`
                  : `route ${by.route}`;
  const rows: [string, string][] = [
    ['answered by', who],
    ['subpath', entry.subpath],
    ...signatureRows(entry),
    ...validationRows(entry),
    ...graphqlRows(entry),
    ...grpcRows(entry),
    ...socketRows(entry),
  ];
  for (const [name, value] of Object.entries(entry.params ?? {})) rows.push([`:${name}`, value]);
  return rows;
}

/** Builds the row for `entry`; `fresh` rows are highlighted briefly. */
export function entryRow(entry: JournalEntry, fresh: boolean): HTMLLIElement {
  const size = bodySize(entry);
  const preview = bodyPreview(entry);
  const body = h('div', { class: 'entry-body' });
  const details = h(
    'details',
    null,
    h(
      'summary',
      null,
      h('span', { class: `method m-${entry.method.toLowerCase()}` }, entry.method),
      pathLine(entry),
      h(
        'span',
        { class: 'entry-meta' },
        // A reset or a hang sends no status line: no status to show.
        entry.fault === 'reset' || entry.fault === 'hang' ? null : statusBadge(entry.statusCode),
        answeredMark(entry),
        graphqlMark(entry),
        grpcMark(entry),
        socketMark(entry),
        signatureMark(entry),
        size > 0 ? h('span', { class: 'size' }, formatBytes(size)) : null,
        // How long ago, kept current by the journal; the exact time on hover.
        h(
          'time',
          { dateTime: entry.receivedAt, title: `${formatDateTime(entry.receivedAt)} (${entry.receivedAt})` },
          formatAgo(entry.receivedAt),
        ),
      ),
      preview ? h('span', { class: 'body-preview' }, preview) : null,
    ),
    body,
  );
  // Built when first opened (at the click, so it is there as the entry opens; or when opened otherwise):
  // a journal of big bodies costs nothing until one is read.
  const build = () => {
    if (body.hasChildNodes()) return;
    const headers = Object.entries(entry.headers).sort(([a], [b]) => a.localeCompare(b));
    const query = Object.entries(entry.query).map(([k, v]): [string, string] => [
      k,
      Array.isArray(v) ? v.join(', ') : v,
    ]);
    body.append(
      entryActions(entry),
      h('h4', null, 'Answer'),
      kvTable(answerRows(entry)),
      ...grpcMessages(entry),
      ...(query.length > 0 ? [h('h4', null, 'Query'), kvTable(query)] : []),
      h('h4', null, `Headers (${headers.length})`),
      kvTable(headers),
      ...bodySection(entry),
    );
  };
  details.querySelector('summary')?.addEventListener('click', build);
  details.addEventListener('toggle', () => {
    if (details.open) build();
  });
  const row = h('li', { class: fresh ? 'entry fresh' : 'entry', dataset: { id: String(entry.id) } }, details);
  rememberEntry(row, entry);
  return row;
}
