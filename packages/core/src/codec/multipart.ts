/**
 * `multipart/form-data` bodies (RFC 7578), read into their parts: each part's
 * field name, its file name when it is a file, its own content type and its
 * bytes. Bounded: at most {@link MAX_PARTS} parts, each part's headers at most
 * {@link MAX_PART_HEADER_BYTES}; a body that does not follow the form (no
 * opening boundary, a part with no blank line after its headers, no closing
 * boundary) is refused with a {@link MultipartProblem} naming what is wrong.
 * The work is one pass over the bytes whatever they hold.
 *
 * @module
 */

/** The most parts one body may hold. */
export const MAX_PARTS = 1000;
/** The most bytes of headers one part may have. */
export const MAX_PART_HEADER_BYTES = 8192;

/** One part of a form: a field (`filename` absent) or a file. */
export interface MultipartPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly body: Uint8Array;
}

/** Why a multipart body could not be read. */
export class MultipartProblem extends Error {}

const encoder = new TextEncoder();
const utf8 = new TextDecoder();
const CRLF = encoder.encode('\r\n');
const CRLF_CRLF = encoder.encode('\r\n\r\n');

/**
 * Where `needle` first occurs in `haystack` from `from`, or -1: the native scan for its first byte,
 * then a compare of at most the needle's length (a boundary is at most 74 bytes).
 */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(first, from); at !== -1 && at <= last; at = haystack.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

/**
 * The boundary a `Content-Type` names (`multipart/form-data; boundary=x`, quoted or not),
 * or `undefined` for another type or a boundary RFC 2046 does not allow (1–70 characters).
 */
export function boundaryOf(contentType: string): string | undefined {
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value.length >= 1 && value.length <= 70 ? value : undefined;
  }
  return undefined;
}

/** The three escapes browsers and fetch write in a quoted name (the HTML standard's form-data encoding). */
const ESCAPED = /%(22|0D|0A)/gi;
const UNESCAPED: Record<string, string> = { '22': '"', '0d': '\r', '0a': '\n' };

/**
 * A `Content-Disposition` parameter's value: quoted (with `\` escapes, and the `%22`, `%0D`, `%0A`
 * that browsers and fetch write for `"`, CR and LF) or a token.
 */
function dispositionParam(header: string, wanted: string): string | undefined {
  const param = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let found = param.exec(header); found !== null; found = param.exec(header)) {
    if ((found[1] as string).toLowerCase() !== wanted) continue;
    if (found[2] === undefined) return found[3] as string;
    return found[2]
      .replace(/\\(.)/g, '$1')
      .replace(ESCAPED, (_, code: string) => UNESCAPED[code.toLowerCase()] as string);
  }
  return undefined;
}

function partOf(headerText: string, body: Uint8Array): MultipartPart {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (disposition === undefined || !/^form-data\b/i.test(disposition)) {
    throw new MultipartProblem('a part has no "Content-Disposition: form-data" header');
  }
  const name = dispositionParam(disposition, 'name');
  if (name === undefined) throw new MultipartProblem('a part\'s Content-Disposition names no field ("name=")');
  const filename = dispositionParam(disposition, 'filename');
  return {
    name,
    ...(filename === undefined ? {} : { filename }),
    ...(contentType === undefined ? {} : { contentType }),
    body,
  };
}

/**
 * The parts of `bytes`, a `multipart/form-data` body sent with `boundary`
 * ({@link boundaryOf}). Throws a {@link MultipartProblem} for a body that is
 * not one, or holds more than {@link MAX_PARTS} parts.
 */
export function readMultipart(bytes: Uint8Array, boundary: string): MultipartPart[] {
  const body = bytes;
  const delimiter = encoder.encode(`--${boundary}`);
  // Every delimiter after the first is preceded by CRLF, which belongs to it, not to the part before.
  const between = encoder.encode(`\r\n--${boundary}`);
  let at = indexOfBytes(body, delimiter, 0);
  if (at === -1) throw new MultipartProblem(`the body holds no boundary "--${boundary.slice(0, 70)}"`);
  at += delimiter.length;
  const parts: MultipartPart[] = [];
  for (;;) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts; // "--": the closing delimiter
    // The rest of the delimiter's line (transport padding), then CRLF.
    const lineEnd = indexOfBytes(body, CRLF, at);
    if (lineEnd === -1) throw new MultipartProblem('the body ends inside a boundary line');
    const headersStart = lineEnd + 2;
    const headersEnd = indexOfBytes(body, CRLF_CRLF, headersStart);
    // A part with no headers at all starts with its blank line.
    const blank = body[headersStart] === 0x0d && body[headersStart + 1] === 0x0a;
    const headerEnd = blank ? headersStart : headersEnd;
    if (headerEnd === -1 || headerEnd - headersStart > MAX_PART_HEADER_BYTES) {
      throw new MultipartProblem(`a part's headers do not end with a blank line within ${MAX_PART_HEADER_BYTES} bytes`);
    }
    const contentStart = headerEnd + (blank ? 2 : 4);
    const next = indexOfBytes(body, between, contentStart);
    if (next === -1) throw new MultipartProblem(`the body does not close with "--${boundary.slice(0, 70)}--"`);
    if (parts.length === MAX_PARTS) throw new MultipartProblem(`a form of more than ${MAX_PARTS} parts`);
    parts.push(partOf(utf8.decode(body.subarray(headersStart, headerEnd)), body.subarray(contentStart, next)));
    at = next + between.length;
  }
}
