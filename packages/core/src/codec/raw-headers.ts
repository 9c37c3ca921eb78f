/**
 * Reading raw headers: names and values alternating, as received (Node's
 * `rawHeaders`, a recorded request's). The one reader of them, so no caller
 * builds a header record (or lower-cases every name) to look at one header.
 *
 * @module
 */

/**
 * Whether raw header name `key` is `name` (lower case), ignoring ASCII case only:
 * a header name is an ASCII token, so `\u212A` (KELVIN SIGN, which `toLowerCase`
 * makes `k`) is not `k`. No string is built.
 */
export function isHeaderName(key: string, name: string): boolean {
  if (key.length !== name.length) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const l = name.charCodeAt(i);
    if (c !== l && !(l >= 97 && l <= 122 && c === l - 32)) return false;
  }
  return true;
}

/** The value of header `name` (lower case) in raw headers: the first one sent, or `undefined`. */
export function rawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (isHeaderName(rawHeaders[i] as string, name)) return rawHeaders[i + 1];
  }
  return undefined;
}

/** Every value of header `name` (lower case) joined with `, ` (as the journal shows them), or `undefined`. */
export function rawHeaderJoined(rawHeaders: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!isHeaderName(rawHeaders[i] as string, name)) continue;
    const next = rawHeaders[i + 1] as string;
    value = value === undefined ? next : `${value}, ${next}`;
  }
  return value;
}

/** Headers as a record: lower-cased names, repeated headers joined with `, `. */
export function headerRecord(rawHeaders: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = rawHeaders[i + 1] as string;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return { ...headers };
}

/** Raw headers as `[name, value]` lines, names as sent, in order. */
export function headerLines(rawHeaders: readonly string[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) lines.push([rawHeaders[i] as string, rawHeaders[i + 1] as string]);
  return lines;
}

/** True when the raw headers announce a body: a Content-Length other than `0`, or a Transfer-Encoding. */
export function declaresBody(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (isHeaderName(name, 'content-length')) {
      if (rawHeaders[i + 1] !== '0') return true;
    } else if (isHeaderName(name, 'transfer-encoding')) {
      return true;
    }
  }
  return false;
}
