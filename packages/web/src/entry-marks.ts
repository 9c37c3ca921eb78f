/**
 * The marks of one journal row, compact enough for a 360 px phone: the path
 * with its subpath set apart (the part below `/endpoint/{name}`, which routes
 * match), who answered (`queued`, `route <id>`, `record`, `none`) and, where the
 * name checks signatures, the outcome (`signature valid` … `replayed`) with the
 * reason on hover and in the opened entry.
 *
 * @module
 */
import type { JournalEntry } from './api.js';
import { h } from './dom.js';
import { queryString } from './entry-actions.js';

/**
 * The request's path and query as one line: the endpoint's own URL muted (it
 * gives way first when the line is cut), the subpath and query as they came.
 * Its text is the path and query exactly.
 */
export function pathLine(entry: JournalEntry): HTMLElement {
  const query = queryString(entry.query);
  const subpath = entry.subpath;
  if (subpath === undefined || subpath === '/' || !entry.path.endsWith(subpath)) {
    return h('span', { class: 'path' }, `${entry.path}${query}`);
  }
  return h(
    'span',
    { class: 'path path-split' },
    h('span', { class: 'path-base' }, entry.path.slice(0, entry.path.length - subpath.length)),
    h('span', { class: 'subpath', title: `subpath ${subpath}` }, `${subpath}${query}`),
  );
}

/** Who answered, in a word or two; the journal of an older daemon may not say (then only `queued` is known). */
export function answeredMark(entry: JournalEntry): HTMLElement | null {
  const by = entry.answeredBy as JournalEntry['answeredBy'] | undefined;
  if ((by !== undefined && typeof by === 'object' && 'queue' in by) || (by === undefined && entry.queued)) {
    return h(
      'span',
      { class: 'queued', title: 'answered by a queued one-shot answer' },
      entry.fault === undefined ? 'queued' : `queued ${entry.fault}`,
    );
  }
  if (by === undefined) return null;
  if (by === 'record') return h('span', { class: 'by', title: 'answered by the stored response' }, 'record');
  if (by === 'graphql') return h('span', { class: 'by', title: "answered by the endpoint's GraphQL schema" }, 'schema');
  // The call itself (service/method and status) is grpcMark's, for every call however answered.
  if (by === 'grpc')
    return h('span', { class: 'by', title: "answered by the endpoint's protobuf definitions" }, 'schema');
  if (by === 'twin') return h('span', { class: 'by', title: "answered by the endpoint's twin" }, 'twin');
  if (by === 'none') {
    return h('span', { class: 'by by-none', title: 'no queued answer, route or stored response answered it' }, 'none');
  }
  if ('chaos' in by) {
    const whose = by.namespace ? "the namespace's" : "the endpoint's";
    const text = by.namespace ? `chaos ${by.chaos} · namespace` : `chaos ${by.chaos}`;
    return h('span', { class: 'by by-chaos', title: `a fault ${whose} chaos injected` }, text);
  }
  return h('span', { class: 'by by-route', title: `answered by route ${by.route}` }, `route ${by.route}`);
}

/**
 * A gRPC-family call: `grpc shop.v1.Orders/GetOrder ok`, whoever answered it (schema mode, a route,
 * a queued answer); the protocol on hover. From the journal's `grpc` mark, not the path.
 */
export function grpcMark(entry: JournalEntry): HTMLElement | null {
  const call = entry.grpc;
  if (call === undefined) return null;
  return h(
    'span',
    { class: 'gql grpc-call', title: `${call.protocol} call, status ${call.code}` },
    `grpc ${call.service}/${call.method} ${call.code}`,
  );
}

/** A GraphQL request's operation: its type and name (`query GetUser`), `+N` for the rest of a batch, variables on hover. */
export function graphqlMark(entry: JournalEntry): HTMLElement | null {
  const mark = entry.graphql;
  if (mark === undefined) return null;
  const more = mark.batch !== undefined && mark.batch.length > 1 ? ` +${mark.batch.length - 1}` : '';
  const text = `${mark.operationType ?? 'graphql'} ${mark.operationName ?? '(anonymous)'}${more}`;
  const title = mark.variables === undefined ? 'GraphQL operation' : `variables ${JSON.stringify(mark.variables)}`;
  return h('span', { class: 'gql', title }, text);
}

/** A GraphQL request's operations and variables for the opened entry's answer table. */
export function graphqlRows(entry: JournalEntry): [string, string][] {
  const mark = entry.graphql;
  if (mark === undefined) return [];
  return (mark.batch ?? [mark]).flatMap((operation, index): [string, string][] => {
    const label = mark.batch === undefined ? 'graphql' : `graphql [${index}]`;
    const rows: [string, string][] = [
      [label, `${operation.operationType ?? '(no operation selected)'} ${operation.operationName ?? '(anonymous)'}`],
    ];
    if (operation.variables !== undefined) rows.push([`${label} variables`, JSON.stringify(operation.variables)]);
    return rows;
  });
}

/** The outcome of the name's signature check, the reason on hover; nothing when the name checks none. */
export function signatureMark(entry: JournalEntry): HTMLElement | null {
  const mark = entry.signature;
  if (mark === undefined) return null;
  return h(
    'span',
    { class: `sig sig-${mark.status}`, title: `${mark.scheme}: ${mark.reason}` },
    `signature ${mark.status}`,
  );
}

/** The signature check's outcome for the opened entry's answer table. */
export function signatureRows(entry: JournalEntry): [string, string][] {
  const mark = entry.signature;
  return mark === undefined ? [] : [['signature', `${mark.status} (${mark.scheme}): ${mark.reason}`]];
}

/** The answering route's request validation for the opened entry: `fits`, or each error (`body /name: …`). */
export function validationRows(entry: JournalEntry): [string, string][] {
  const mark = entry.validation;
  if (mark === undefined) return [];
  if (mark.errors.length === 0) return [['validation', "fits the route's schemas"]];
  const more = mark.total === undefined ? '' : ` (${mark.total} in all)`;
  return mark.errors.map((error, i): [string, string] => [
    i === 0 ? `validation${more}` : 'validation',
    `${error.in}${error.path}: ${error.message}`,
  ]);
}

/** A WebSocket message's way and connection (`in ← c1`, `out → c1`; a close adds its code), the connection on hover. */
export function socketMark(entry: JournalEntry): HTMLElement | null {
  const mark = entry.websocket;
  if (mark === undefined) return null;
  const arrow = mark.direction === 'in' ? 'in ←' : 'out →';
  const close = entry.method === 'CLOSE' ? ` close ${mark.code ?? ''}`.trimEnd() : '';
  const from = mark.direction === 'in' ? 'from the client' : 'from mockpoint';
  return h(
    'span',
    { class: 'ws', title: `WebSocket connection ${mark.connection}, ${from}` },
    `${arrow} ${mark.connection}${close}`,
  );
}

/** The opened WebSocket entry's rows: its connection, its way and, for a close, the code. */
export function socketRows(entry: JournalEntry): [string, string][] {
  const mark = entry.websocket;
  if (mark === undefined) return [];
  const rows: [string, string][] = [
    ['connection', mark.connection],
    ['direction', mark.direction === 'in' ? 'in (from the client)' : 'out (from mockpoint)'],
  ];
  if (mark.code !== undefined) rows.push(['close code', String(mark.code)]);
  return rows;
}
