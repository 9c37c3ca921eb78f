/**
 * How an {@link EndpointRecord} is written as text: by stores that keep bytes
 * (LevelDB, Redis) and on the wire. One place, so every store reads what every
 * other wrote, and `data` keeps its exact JSON text all the way.
 *
 * @module
 */

import type { EndpointRecord } from '../api/schemas.js';
import { JsonText, jsonTextOf, scanJson } from '../codec/json-text.js';

/** The record as JSON text, `data` exactly as stored: `{"name":…,"data":…,"statusCode":…,"delay":…}`. */
export function recordJson(record: EndpointRecord): string {
  return `{"name":${JSON.stringify(record.name)},"data":${jsonTextOf(record.data)},"statusCode":${record.statusCode},"delay":${record.delay}}`;
}

/** The record without `data`, as JSON text (list summaries). */
export function recordSummaryJson(record: EndpointRecord): string {
  return `{"name":${JSON.stringify(record.name)},"statusCode":${record.statusCode},"delay":${record.delay}}`;
}

/** The stored text of a record (the same as {@link recordJson}). */
export function encodeRecord(record: EndpointRecord): string {
  return recordJson(record);
}

/** `{"name":"<name>","data":` — names never need escaping (`A–Z a–z 0–9 _ -`). */
const HEAD = /^\{"name":"([A-Za-z0-9_-]{1,64})","data":/;
/** `,"statusCode":<int>,"delay":<int>}` at the very end. */
const TAIL = /,"statusCode":(\d{3}),"delay":(\d{1,16})\}$/;
const TAIL_MAX = 48;

/**
 * The record back from {@link encodeRecord}'s text. Also reads what earlier
 * versions wrote (`JSON.stringify` of the record, the same layout). Text in the
 * layout written here is sliced, not scanned; anything else is scanned in full.
 */
export function decodeRecord(text: string): EndpointRecord {
  const head = HEAD.exec(text);
  // The tail is short: look only at the end, not through a large `data`.
  const from = Math.max(0, text.length - TAIL_MAX);
  const tail = head && TAIL.exec(text.slice(from));
  if (head && tail && from + tail.index > head[0].length) {
    return {
      name: head[1] as string,
      data: new JsonText(text.slice(head[0].length, from + tail.index)),
      statusCode: Number(tail[1]),
      delay: Number(tail[2]),
    };
  }
  const members = scanJson(text).members;
  const data = members?.get('data');
  if (members === undefined || data === undefined) throw new SyntaxError('stored record has no data');
  return {
    name: JSON.parse(members.get('name') ?? 'null') as string,
    data: new JsonText(data),
    statusCode: JSON.parse(members.get('statusCode') ?? 'null') as number,
    delay: JSON.parse(members.get('delay') ?? 'null') as number,
  };
}
