/**
 * Pretty-printing JSON text without turning it into JavaScript values: every
 * token (string, number, literal) is copied as written, only the whitespace
 * between tokens changes. So `12345678901234567890`, `1.0`, `-0`, `"\u00e9"` and a
 * key `"2"` before `"b"` stay exactly as they are (`JSON.parse` + `stringify`
 * would round, shorten, unescape and reorder them).
 *
 * @module
 */

/** Indentation of one nesting level. */
const INDENT = '  ';

/**
 * `text` (one valid JSON value, checked by the caller) with one member or
 * element per line, two spaces per level, `": "` after keys; empty objects and
 * arrays stay `{}` and `[]`. Tokens are kept byte for byte.
 */
export function formatJson(text: string): string {
  let out = '';
  for (const slice of formatJsonSlices(text, Number.POSITIVE_INFINITY)) out += slice;
  return out;
}

/**
 * {@link formatJson} in slices, each laying out at least `sliceChars` more
 * characters of `text` (to the end of a token): a big body is laid out a slice
 * per task, so the page stays responsive. The slices joined are `formatJson(text)`.
 * A `text` cut short (a preview) is laid out as far as it goes.
 */
export function* formatJsonSlices(text: string, sliceChars: number): Generator<string, void, undefined> {
  const at = { i: 0, depth: 0 };
  while (at.i < text.length) {
    const out: string[] = [];
    const stop = Math.min(text.length, at.i + sliceChars);
    while (at.i < stop) step(text, at, out);
    yield out.join('');
  }
}

/** Lays out the token at `at.i` (or skips whitespace) into `out`, moving `at` past it. */
function step(text: string, at: { i: number; depth: number }, out: string[]): void {
  const n = text.length;
  let i = at.i;
  const newline = () => {
    out.push('\n', INDENT.repeat(Math.max(0, at.depth)));
  };
  const c = text.charCodeAt(i);
  if (c === 34 /* " */) {
    const start = i;
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === 92 /* \ */) i += 2;
      else if (d === 34) break;
      else i++;
    }
    i++;
    out.push(text.slice(start, i));
  } else if (c === 32 || c === 9 || c === 10 || c === 13) {
    i++;
  } else if (c === 123 /* { */ || c === 91 /* [ */) {
    const close = c === 123 ? '}' : ']';
    let j = i + 1;
    while (j < n && isSpace(text.charCodeAt(j))) j++;
    if (text[j] === close) {
      out.push(c === 123 ? '{}' : '[]');
      i = j + 1;
    } else {
      out.push(text[i] as string);
      at.depth++;
      newline();
      i++;
    }
  } else if (c === 125 /* } */ || c === 93 /* ] */) {
    at.depth--;
    newline();
    out.push(text[i] as string);
    i++;
  } else if (c === 44 /* , */) {
    out.push(',');
    newline();
    i++;
  } else if (c === 58 /* : */) {
    out.push(': ');
    i++;
  } else {
    // A number or a literal: copied as one run.
    const start = i;
    while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
    // Not a token start (only in text that is not JSON): copied as it is.
    if (i === start) i++;
    out.push(text.slice(start, i));
  }
  at.i = i;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 44 || c === 58 || c === 93 || c === 125 || c === 123 || c === 91 || c === 34;
}
