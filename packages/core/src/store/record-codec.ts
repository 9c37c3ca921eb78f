/**
 * How an {@link EndpointRecord} is written as text by stores that keep bytes
 * (LevelDB, Redis). One place, so every store reads what every other wrote.
 *
 * @module
 */
import type { EndpointRecord } from '../schemas.js';

/** The stored text of a record. */
export function encodeRecord(record: EndpointRecord): string {
  return JSON.stringify(record);
}

/** The record back from {@link encodeRecord}'s text. */
export function decodeRecord(text: string): EndpointRecord {
  return JSON.parse(text) as EndpointRecord;
}
