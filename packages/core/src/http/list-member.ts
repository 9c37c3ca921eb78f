/**
 * A listed item's JSON text with one more number member: the list answers add
 * `routes` and `requests` to the JSON text of a record without parsing it again.
 *
 * @module
 */

/** `json` (an object's text) with `key: value` added at its end; unchanged when `value` is undefined. */
export function withMember(json: string, key: string, value: number | undefined): string {
  return value === undefined ? json : `${json.slice(0, -1)},${JSON.stringify(key)}:${value}}`;
}
