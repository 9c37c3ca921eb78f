/**
 * Text read as JSON when it is JSON, and nothing when it is not: the one
 * helper for a body or a message that may or may not be JSON (the journal, a
 * template's `json`, a WebSocket message, a graphql-ws frame).
 *
 * @module
 */
import { jsonTooDeep } from './body.js';

/**
 * `text` parsed as JSON, or `undefined` when it is not one JSON value or nests
 * arrays/objects deeper than `MAX_JSON_DEPTH` (its parsed form could not be
 * matched, rendered or serialised back safely). JSON has no `undefined`, so
 * `undefined` always means "not JSON".
 */
export function jsonValueOf(text: string): unknown {
  if (text === '' || jsonTooDeep(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
