/**
 * `GET /api/endpoints?contains=…`: the endpoints whose name or stored `data`
 * (its exact JSON text) contains a piece of text, ignoring case. Every record is
 * read to answer (the stores index names, not bodies), so this is for finding
 * things by hand — a page's filter — not for a hot loop.
 *
 * @module
 */

import { jsonTextOf } from '../codec/json-text.js';
import { recordJson, recordSummaryJson } from '../store/record-codec.js';
import type { EndpointStore } from '../store/store.js';
import { withMember } from './list-member.js';

/** Records read from the store per step of the scan. */
const SCAN_PAGE = 1000;

/** The question {@link listContaining} answers. */
export interface ContainsQuery {
  /** The text to find, in the name or the data; case is ignored. */
  contains: string;
  /** Only names starting with this (case-sensitive). */
  prefix?: string;
  /** Only names after this one (a page's `next`). */
  after?: string;
  limit: number;
  /** Records without `data`. */
  summary: boolean;
  /** When given, each shown name gets `requests`: what this answers for the page's names, in order. */
  requestCounts?: (names: readonly string[]) => Promise<number[]>;
}

/** One listed item, serialised when shown. */
interface Found {
  name: string;
  json: string;
}

/** Whether `text` contains `needle` (already lower-cased), ignoring case. */
function has(text: string, needle: string): boolean {
  return text.toLowerCase().includes(needle);
}

/**
 * The answer's JSON text, `{ endpoints, next, total }` as the unfiltered list
 * answers: name order, `total` counting every match, names with routes and no
 * record matched by name alone.
 */
export async function listContaining(store: EndpointStore, query: ContainsQuery): Promise<string> {
  const needle = query.contains.toLowerCase();
  const routed = await store.routeNames({ prefix: query.prefix });
  const counts = new Map(routed.map((entry) => [entry.name, entry.routes]));
  const found: Found[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await store.list({ limit: SCAN_PAGE, after: cursor, prefix: query.prefix });
    for (const record of page.endpoints) {
      if (!has(record.name, needle) && !has(jsonTextOf(record.data), needle)) continue;
      const json = query.summary ? recordSummaryJson(record) : recordJson(record);
      found.push({ name: record.name, json: withMember(json, 'routes', counts.get(record.name)) });
    }
    if (page.next === null) break;
    cursor = page.next;
  }
  for (const entry of routed) {
    if (!entry.record && has(entry.name, needle)) {
      found.push({ name: entry.name, json: `{"name":${JSON.stringify(entry.name)},"routes":${entry.routes}}` });
    }
  }
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const after = query.after;
  const rest = after === undefined ? found : found.filter((entry) => entry.name > after);
  const shown = rest.slice(0, query.limit);
  const next = rest.length > shown.length ? (shown.at(-1) as Found).name : null;
  const held = await query.requestCounts?.(shown.map((entry) => entry.name));
  const parts = shown.map((entry, index) => withMember(entry.json, 'requests', held?.[index]));
  return `{"endpoints":[${parts.join(',')}],"next":${JSON.stringify(next)},"total":${found.length}}`;
}
