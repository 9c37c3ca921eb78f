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
  const out: string[] = [];
  const n = text.length;
  let depth = 0;
  let i = 0;
  const newline = () => {
    out.push('\n', INDENT.repeat(depth));
  };
  while (i < n) {
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
        depth++;
        newline();
        i++;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
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
      out.push(text.slice(start, i));
    }
  }
  return out.join('');
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 44 || c === 58 || c === 93 || c === 125 || c === 123 || c === 91 || c === 34;
}
