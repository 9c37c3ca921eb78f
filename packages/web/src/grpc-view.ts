/**
 * A gRPC-family call in an opened journal entry: its service, method,
 * protocol and status in a table, then each message its `grpc` mark holds
 * (the request message, and any other message fields the mark carries) in
 * proto3 JSON, laid out one member a line, where the binary body alone would
 * show only bytes.
 *
 * @module
 */
import type { JournalEntry } from './api.js';
import { bodyView } from './body-view.js';
import { h } from './dom.js';

/** The mark's fields shown in the table; every other field is a message (or list of them) shown as JSON. */
const TABLE = ['service', 'method', 'protocol', 'code', 'statusMessage'] as const;

/** The rows of the call's table. */
export function grpcRows(entry: JournalEntry): [string, string][] {
  const mark = entry.grpc as Record<string, unknown> | undefined;
  if (mark === undefined) return [];
  const rows: [string, string][] = [];
  for (const key of TABLE) if (typeof mark[key] === 'string') rows.push([`grpc ${key}`, mark[key] as string]);
  return rows;
}

/** The heading and view of each message the call's mark holds, or nothing for a request that is no call. */
export function grpcMessages(entry: JournalEntry): HTMLElement[] {
  const mark = entry.grpc as Record<string, unknown> | undefined;
  if (mark === undefined) return [];
  const out: HTMLElement[] = [];
  for (const [key, value] of Object.entries(mark)) {
    if ((TABLE as readonly string[]).includes(key) || value === undefined) continue;
    const title = key === 'message' ? 'Request message' : `gRPC ${key}`;
    out.push(
      h('h4', null, title, h('span', { class: 'tag' }, 'proto3 JSON')),
      bodyView({ text: JSON.stringify(value), json: true, label: title, filename: `grpc-${key}-${entry.id}.json` }),
    );
  }
  return out;
}
