/**
 * `JSON.parse` for a large text whose long strings are kept as slices of it. `JSON.parse` copies
 * every string it reads: a 4 MB field of a stored item becomes a second 4 MB string each time the
 * item is read (a list of four such items parses 16 MB beside the 16 MB its texts already hold).
 * Here each long string without escapes is cut out of the text as a slice (V8 keeps a slice as a
 * reference into its parent, not a copy), and only the rest of the text is given to `JSON.parse`.
 * The value is the one `JSON.parse(text)` gives, key for key (`__proto__` as an own key too).
 *
 * @module
 */

/** Strings from this many UTF-16 units up are sliced, not copied. */
export const SLICED_STRING_CHARS = 64 * 1024;

const QUOTE = '"';
const BACKSLASH = '\\';
const BACKSLASH_CODE = 0x5c;

/** Whether the `"` at `at` ends its string: an even number of backslashes stand before it. */
function ends(text: string, at: number): boolean {
  let run = 0;
  for (let i = at - 1; text.charCodeAt(i) === BACKSLASH_CODE; i--) run++;
  return run % 2 === 0;
}

/** Whether the string that ends at `end` (its closing quote) is a key: `:` is the next token. */
function isKey(text: string, end: number): boolean {
  for (let i = end + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return code === 0x3a;
  }
  return false;
}

/** A mark no text holds: it stands for a sliced string in the text given to `JSON.parse`. */
function freshMark(): string {
  return `\u0000sliced:${crypto.randomUUID()}:`;
}

/**
 * The value of `text` (valid JSON, as `JSON.parse` takes it), its string values of at least
 * `minChars` units without escapes kept as slices of `text`. Throws as `JSON.parse` does.
 */
export function parseSliced(text: string, minChars = SLICED_STRING_CHARS): unknown {
  if (text.length < minChars) return JSON.parse(text);
  const slices: string[] = [];
  const parts: string[] = [];
  let mark: string | undefined;
  let copiedTo = 0;
  let from = 0;
  // The first backslash at or after the string being read (Infinity: none left): found once, not per string.
  let backslash = -1;
  for (;;) {
    // Outside a string every `"` opens one: no other JSON token holds a quote.
    const open = text.indexOf(QUOTE, from);
    if (open === -1) break;
    let close = text.indexOf(QUOTE, open + 1);
    if (close === -1) break; // not JSON: JSON.parse below says so
    if (backslash < open) {
      const next = text.indexOf(BACKSLASH, open);
      backslash = next === -1 ? Number.POSITIVE_INFINITY : next;
    }
    const escaped = backslash < close;
    while (close !== -1 && !ends(text, close)) close = text.indexOf(QUOTE, close + 1);
    if (close === -1) break;
    from = close + 1;
    if (escaped || close - open - 1 < minChars || isKey(text, close)) continue;
    mark ??= freshMark();
    parts.push(text.slice(copiedTo, open), JSON.stringify(mark + slices.length));
    slices.push(text.slice(open + 1, close));
    copiedTo = close + 1;
  }
  if (mark === undefined) return JSON.parse(text);
  parts.push(text.slice(copiedTo));
  const found = mark;
  return JSON.parse(parts.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(found) ? slices[Number(value.slice(found.length))] : value,
  );
}
