/**
 * Reading one entry of a W3C `baggage` header
 * (https://www.w3.org/TR/baggage/): comma-separated list members
 * `key=value;property;…`, optional whitespace around each part, the value
 * percent-encoded.
 *
 * @module
 */

/**
 * The decoded value of entry `key` in a `baggage` header value (several header
 * lines joined with `,` read as one list), the first one when it repeats, or
 * `undefined` when it is absent or its value is not valid percent-encoding.
 */
export function baggageEntry(baggage: string, key: string): string | undefined {
  for (const member of baggage.split(',')) {
    const equals = member.indexOf('=');
    if (equals === -1 || member.slice(0, equals).trim() !== key) continue;
    const semicolon = member.indexOf(';', equals);
    const value = member.slice(equals + 1, semicolon === -1 ? undefined : semicolon).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
