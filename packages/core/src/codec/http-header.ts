/**
 * What HTTP lets a header carry: the one rule for names and values, used
 * wherever a header map is taken (answers of routes, queues and streams,
 * deliveries, proxy and signature settings) and by templates, which make a
 * rendered value sendable with {@link headerSafeText}.
 *
 * @module
 */

/** RFC 9110 token characters: what a header name (and a WebSocket subprotocol) may be made of. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What a header value may hold when it is saved: tab, space and visible ASCII.
 * Control characters, DEL and every character past U+00FF cannot be sent at
 * all (Node refuses them when writing the head, the Fetch API's `Headers` too);
 * U+0080–U+00FF (RFC 9110's obsolete obs-text) can, but not as the same bytes
 * everywhere (Node sends them as UTF-8 when the head and a text body go out
 * together, as Latin-1 otherwise), so they are refused too.
 */
export const HEADER_VALUE_PATTERN = /^[\t\x20-\x7e]*$/;

/** The first character a saved header value may not hold. */
const NOT_ASCII_TEXT = /[^\t\x20-\x7e]/;
/** The first character no runtime can send in a header value at all. */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/** The rule, as the messages state it. */
export const HEADER_VALUE_RULE =
  'a header value holds tab, space and visible ASCII only (percent-encode other text: € is %E2%82%AC)';

/** True when `text` is an RFC 9110 token (a header name, a WebSocket subprotocol: RFC 6455 §4.1). */
export function isToken(text: string): boolean {
  return HEADER_NAME_PATTERN.test(text);
}

/** True when `name` is a valid header name (an RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return isToken(name);
}

/**
 * `undefined` when `name` can be sent as a header name, otherwise why not.
 * `__proto__` is a token, but not every runtime can send it: Node's `fetch` and
 * `@hono/node-server` copy headers into plain objects, where it is assigned as
 * the prototype and silently lost. It is refused, so that no header is stored,
 * shown and then not sent.
 */
export function headerNameProblem(name: string): string | undefined {
  if (!isHeaderName(name)) return `header name ${JSON.stringify(name)} is not a valid HTTP token`;
  if (name === '__proto__') {
    return 'header name __proto__ cannot be sent by every runtime (it is lost on its way through plain objects); use another name';
  }
  return undefined;
}

/** `U+20AC "€"`, `U+0001 (a control character)`, `U+D800 (a lone surrogate)`. */
function describeCharacter(text: string, at: number): string {
  const code = text.codePointAt(at) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return `${hex} (a control character)`;
  if (code >= 0xd800 && code <= 0xdfff) return `${hex} (a lone surrogate)`;
  if (code === 0x2028 || code === 0x2029) return `${hex} (a line separator)`;
  return `${hex} "${String.fromCodePoint(code)}"`;
}

/**
 * `undefined` when `value` can be sent as a header value, otherwise what is
 * wrong with it, for a message: `has U+20AC "€" at index 0; a header value holds …`.
 */
export function headerValueProblem(value: string): string | undefined {
  const at = value.search(NOT_ASCII_TEXT);
  if (at === -1) return undefined;
  return `has ${describeCharacter(value, at)} at index ${at}; ${HEADER_VALUE_RULE}`;
}

const encoder = new TextEncoder();

function hex(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** A run of characters the value rule does not allow, percent-encoded (see {@link headerSafeText}). */
function percentEncoded(run: string, bytes: boolean): string {
  let out = '';
  if (bytes) {
    // A request header's characters are its bytes (U+0000-U+00FF): one byte each (any other as UTF-8).
    for (const character of run) {
      const code = character.charCodeAt(0);
      out += code <= 0xff ? hex(code) : percentEncoded(character, false);
    }
    return out;
  }
  // A lone surrogate is encoded as U+FFFD (EF BF BD), as everywhere text becomes UTF-8.
  for (const byte of encoder.encode(run)) out += hex(byte);
  return out;
}

/** Runs of characters a saved header value may not hold. */
const NOT_ASCII_RUNS = /[^\t\x20-\x7e]+/g;

/**
 * `text` made sendable in a header value: each character the value rule does
 * not allow (controls, DEL, anything past ASCII) is percent-encoded, as its
 * UTF-8 bytes (`€` → `%E2%82%AC`, `é` → `%C3%A9`, CR LF → `%0D%0A`), or, with
 * `bytes`, as the one byte it stands for: for a request header's value, whose
 * characters are its bytes (raw UTF-8 `café` comes back as `caf%C3%A9` either
 * way). Everything else, `%` included, is left as it is.
 * @example headerSafeText('/items/€') // '/items/%E2%82%AC'
 */
export function headerSafeText(text: string, bytes = false): string {
  if (!NOT_ASCII_TEXT.test(text)) return text;
  return text.replace(NOT_ASCII_RUNS, (run) => percentEncoded(run, bytes));
}

/**
 * `undefined` when every name and value of `headers` can be sent at all,
 * otherwise what is wrong with the first one that cannot (`header x-e has
 * U+20AC …`). For answers kept by an earlier version, which did not check
 * values: U+0080–U+00FF, refused at save now, still go out as they did then.
 */
export function unsendableHeader(headers: Readonly<Record<string, string | readonly string[]>>): string | undefined {
  for (const name of Object.keys(headers)) {
    if (!isHeaderName(name)) return `header name ${JSON.stringify(name)} is not a valid HTTP token`;
    const value = headers[name] as string | readonly string[];
    for (const one of typeof value === 'string' ? [value] : value) {
      const at = one.search(UNSENDABLE);
      if (at !== -1) return `header ${name} has ${describeCharacter(one, at)} at index ${at}, which HTTP cannot carry`;
    }
  }
  return undefined;
}
