/**
 * Lossless JSON: a value kept as its own JSON text, and the scanner that checks
 * and minifies such text without turning it into JavaScript values (which would
 * round big integers, turn `1e400` into `null`, `-0` into `0` and reorder keys
 * like `"2"` before `"b"`).
 *
 * @module
 */

import type { TurnBudget } from '../turns/turn-budget.js';

/** JSON nested deeper than this is refused: it cannot be stored, copied or served safely. */
export const MAX_JSON_DEPTH = 512;

/**
 * A JSON value held as its exact text (minified outside strings). Immutable, so
 * it is shared rather than copied. `JSON.stringify` of it gives the parsed value
 * (lossy for big numbers): code that must keep the text uses {@link JsonText.text}.
 */
export class JsonText {
  /** The value's JSON text, e.g. `{"id":12345678901234567890}`. */
  readonly text: string;

  /** Wraps text that is known to be valid, minified JSON (use {@link JsonText.parse} otherwise). */
  constructor(text: string) {
    this.text = text;
    Object.freeze(this);
  }

  /** Checks and minifies `text`; throws {@link JsonSyntaxError} when it is not one JSON value. */
  static parse(text: string): JsonText {
    return new JsonText(scanJson(text).text);
  }

  /** The text of a JavaScript value (`JSON.stringify`); `undefined` is refused. */
  static from(value: unknown): JsonText {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError('JsonText.from: the value has no JSON form');
    return new JsonText(text);
  }

  /** The value as JavaScript (numbers beyond double precision are rounded). */
  value(): unknown {
    return JSON.parse(this.text);
  }

  /** For `JSON.stringify` of an object holding this text: the parsed value. */
  toJSON(): unknown {
    return this.value();
  }
}

/** The JSON text of a record's `data`: a {@link JsonText}'s own text, or `JSON.stringify` of a plain value. */
export function jsonTextOf(data: unknown): string {
  if (data instanceof JsonText) return data.text;
  return (JSON.stringify(data) as string | undefined) ?? 'null';
}

/**
 * `JSON.stringify(value)`, except that every {@link JsonText} inside `value`
 * goes as its own exact text (not its parsed value, as `toJSON` would give).
 * With `indent`, the structure around those texts is indented like
 * `JSON.stringify(value, null, indent)`; the texts stay as they are.
 */
export function stringifyExact(value: unknown, indent?: number): string {
  const texts: string[] = [];
  // A per-call marker no string of the value can collide with by chance.
  const mark = `\u0000jsontext:${Math.random().toString(36).slice(2)}:`;
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key, replaced: unknown) {
      const original = this[key];
      if (original instanceof JsonText) {
        texts.push(original.text);
        return `${mark}${texts.length - 1}`;
      }
      return replaced;
    },
    indent,
  ) as string | undefined;
  if (text === undefined) throw new TypeError('stringifyExact: the value has no JSON form');
  if (texts.length === 0) return text;
  const quoted = JSON.stringify(mark).slice(1, -1);
  return text.replace(new RegExp(`"${escapeRegExp(quoted)}(\\d+)"`, 'g'), (_, i: string) => texts[Number(i)] as string);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Why text is not accepted as JSON. */
export type JsonSyntaxProblem = 'syntax' | 'duplicate-key' | 'too-deep';

/** Text that is not one valid JSON value, has a duplicate key, or nests too deep. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  readonly problem: JsonSyntaxProblem;
  /** Offset in the text (UTF-16 code units) where the problem was found. */
  readonly position: number;

  constructor(problem: JsonSyntaxProblem, message: string, position: number) {
    super(message);
    this.problem = problem;
    this.position = position;
  }
}

/** What {@link scanJson} found. */
export interface ScannedJson {
  /** The value's text without whitespace outside strings. */
  text: string;
  /**
   * When the value is an object: each member's minified value text by key, in
   * the order they appear.
   */
  members?: Map<string, string>;
  /**
   * When the value is an object: each member's key as written, quotes and
   * escapes included (`"\u0041"` stays so, where the key of `members` is `A`).
   */
  keyTexts?: Map<string, string>;
  /** When the value is an array: each element's minified text, in order. */
  elements?: string[];
}

const Ch = {
  Tab: 9,
  Newline: 10,
  Return: 13,
  Space: 32,
  Quote: 34,
  Plus: 43,
  Comma: 44,
  Minus: 45,
  Dot: 46,
  Zero: 48,
  Nine: 57,
  Colon: 58,
  E: 69,
  OpenBracket: 91,
  Backslash: 92,
  CloseBracket: 93,
  LowerE: 101,
  OpenBrace: 123,
  CloseBrace: 125,
} as const;

/**
 * A string (kept, as `$1`) or a run of whitespace outside strings (dropped). Only
 * applied to text the scanner has checked, where this split is unambiguous.
 */
const OUTSIDE_STRINGS_SPACE = /("(?:[^"\\]|\\.)*")|[ \t\n\r]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Drops the whitespace outside strings of checked JSON text. On its UTF-8 bytes
 * (a plain loop: large bodies pass here, and it beat a regular expression, see
 * docs/performance.md); text with lone surrogates, which UTF-8 cannot carry,
 * takes the regular expression.
 */
function dropSpace(text: string): string {
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? !LONE_SURROGATE.test(text);
  if (!wellFormed) return text.replace(OUTSIDE_STRINGS_SPACE, '$1');
  const bytes = encoder.encode(text);
  const out = new Uint8Array(bytes.length);
  let j = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    if (inString) {
      out[j++] = c;
      if (c === Ch.Backslash) out[j++] = bytes[++i] as number;
      else if (c === Ch.Quote) inString = false;
    } else if (!isWhitespace(c)) {
      if (c === Ch.Quote) inString = true;
      out[j++] = c;
    }
  }
  return decoder.decode(out.subarray(0, j));
}

function isWhitespace(c: number): boolean {
  return c === Ch.Space || c === Ch.Newline || c === Ch.Return || c === Ch.Tab;
}

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * Checks that `text` is exactly one JSON value (RFC 8259), with no object holding
 * the same key twice and no nesting deeper than `maxDepth`, and returns it
 * without whitespace outside strings. Strings and numbers are kept as written.
 * A linear scan: no JavaScript values are built except object keys.
 * @throws JsonSyntaxError
 */
export function scanJson(text: string, maxDepth: number = MAX_JSON_DEPTH): ScannedJson {
  return new Scanner(text, maxDepth, false).scan();
}

/**
 * {@link scanJson} of text known to be valid JSON (a value {@link scanJson} returned,
 * or a member or element of one): its long strings are not searched again for
 * control characters, the one check such text cannot fail. Everything else is
 * checked the same.
 */
export function scanCheckedJson(text: string): ScannedJson {
  return new Scanner(text, MAX_JSON_DEPTH, true).scan();
}

/**
 * {@link scanJson} (or, `checked`, {@link scanCheckedJson}) a slice at a time: `budget`
 * pauses before each member of an object, each element of an array, and each element
 * of an array that is a member of the object (a `{ "routes": [ … ] }` body, a stored list).
 * @throws JsonSyntaxError
 */
export function scanJsonInTurns(text: string, budget: TurnBudget, checked = false, deep = 0): Promise<ScannedJson> {
  return new Scanner(text, MAX_JSON_DEPTH, checked, deep).scanInTurns(budget);
}

/** JSON text from this length on is parsed a part at a time ({@link parseJsonInTurns}). */
export const PARSE_IN_TURNS_CHARS = 64 * 1024;

/**
 * `JSON.parse` of checked JSON text (a member {@link scanJson} accepted) a slice
 * per event-loop turn: an object or array of {@link PARSE_IN_TURNS_CHARS} or more
 * is scanned in turns (two levels deep) and built member by member, each member
 * parsed the same way, so a multi-megabyte document never holds the loop for long.
 */
export async function parseJsonInTurns(text: string, budget: TurnBudget): Promise<unknown> {
  if (text.length < PARSE_IN_TURNS_CHARS) return JSON.parse(text);
  await budget.pause();
  const scanned = await scanJsonInTurns(text, budget, true, 2);
  if (scanned.members !== undefined) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of scanned.members) {
      await budget.pause();
      const value = await parseJsonInTurns(member, budget);
      // As JSON.parse makes it: an own property, even `__proto__`.
      Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    }
    return out;
  }
  if (scanned.elements !== undefined) {
    const out: unknown[] = [];
    for (const element of scanned.elements) {
      await budget.pause();
      out.push(await parseJsonInTurns(element, budget));
    }
    return out;
  }
  return parseCheckedJson(text);
}

/**
 * `JSON.parse` of checked JSON text (as {@link scanCheckedJson} takes): a long
 * string without escapes is its text between the quotes, not copied and checked again
 * (a multi-megabyte `bodyBase64`).
 */
export function parseCheckedJson(text: string): unknown {
  if (text.length >= LONG_STRING && text.charCodeAt(0) === Ch.Quote && !text.includes('\\')) return text.slice(1, -1);
  return JSON.parse(text);
}

/** From this length on, the rest of a string is found by search ({@link Scanner}). */
const LONG_STRING = 256;
/** A control character (U+0000 to U+001F), which a JSON string must escape. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL = /[\u0000-\u001f]/g;

class Scanner {
  readonly #text: string;
  readonly #maxDepth: number;
  #pos = 0;
  /** Whether whitespace was seen outside strings (then the text is minified). */
  #spaced = false;
  /** Top-level members: key, key as written, and [start, end) offsets of the value in the input. */
  readonly #spans: [string, string, number, number][] = [];
  /** Top-level elements: [start, end) offsets in the input. */
  readonly #elementSpans: [number, number][] = [];
  #depth = 0;
  /** Whether the text is known to be valid (no control characters in its strings). */
  readonly #checked: boolean;
  /** The next quote at or after the last long string's search (the text's length: none). */
  #quoteAt = -1;
  /** The next backslash at or after the last long string's search (the text's length: none). */
  #backslashAt = -1;
  /** The next control character at or after the last long string's search (the text's length: none). */
  #controlAt = -1;

  /** Levels of objects and arrays below the top's members read in turns too (0: only the top's). */
  readonly #deep: number;

  constructor(text: string, maxDepth: number, checked: boolean, deep = 0) {
    this.#text = text;
    this.#maxDepth = maxDepth;
    this.#checked = checked;
    this.#deep = deep;
  }

  scan(): ScannedJson {
    this.#skipWhitespace();
    let members: Map<string, string> | undefined;
    const first = this.#peek();
    if (first === Ch.OpenBrace) members = new Map();
    if (first === Ch.OpenBracket) this.#array(true);
    else this.#value(members);
    return this.#result(first, members);
  }

  /**
   * {@link scan}, `budget` pausing before each member of a top-level object, each element
   * of a top-level array, and each element of an array that is a top-level member.
   */
  async scanInTurns(budget: TurnBudget): Promise<ScannedJson> {
    this.#skipWhitespace();
    const first = this.#peek();
    const members = first === Ch.OpenBrace ? new Map<string, string>() : undefined;
    if (first === Ch.OpenBracket) await this.#arrayInTurns(budget, true, this.#deep);
    else if (first === Ch.OpenBrace) await this.#objectInTurns(budget);
    else this.#value();
    return this.#result(first, members);
  }

  /** The value at `#pos`; `levels` more levels of its objects and arrays read a member (element) per pause. */
  async #valueInTurns(budget: TurnBudget, levels: number): Promise<void> {
    const c = this.#peek();
    if (levels > 0 && c === Ch.OpenBrace) await this.#nestedObjectInTurns(budget, levels - 1);
    else if (levels > 0 && c === Ch.OpenBracket) await this.#arrayInTurns(budget, false, levels - 1);
    else this.#value();
  }

  /** An object below the top, a member per pause (none recorded). */
  async #nestedObjectInTurns(budget: TurnBudget, levels: number): Promise<void> {
    if (!this.#open(Ch.CloseBrace)) return;
    const keys = new Set<string>();
    for (;;) {
      await budget.pause();
      this.#key(keys);
      await this.#valueInTurns(budget, levels);
      if (!this.#more(Ch.CloseBrace, "expected ',' or '}' in an object")) return;
    }
  }

  async #arrayInTurns(budget: TurnBudget, top: boolean, levels = 0): Promise<void> {
    if (!this.#open(Ch.CloseBracket)) return;
    for (;;) {
      await budget.pause();
      const start = this.#pos;
      await this.#valueInTurns(budget, levels);
      if (top) this.#elementSpans.push([start, this.#pos]);
      if (!this.#more(Ch.CloseBracket, "expected ',' or ']' in an array")) return;
    }
  }

  /** The top-level object: its members recorded, a member that is an array read element by element. */
  async #objectInTurns(budget: TurnBudget): Promise<void> {
    if (!this.#open(Ch.CloseBrace)) return;
    const keys = new Set<string>();
    for (;;) {
      await budget.pause();
      const [key, raw] = this.#key(keys);
      const valueStart = this.#pos;
      if (this.#peek() === Ch.OpenBracket) await this.#arrayInTurns(budget, false, this.#deep);
      else await this.#valueInTurns(budget, this.#deep);
      this.#spans.push([key, raw, valueStart, this.#pos]);
      if (!this.#more(Ch.CloseBrace, "expected ',' or '}' in an object")) return;
    }
  }

  /** What a scan found, once the value at the start is read. */
  #result(first: number, members: Map<string, string> | undefined): ScannedJson {
    this.#skipWhitespace();
    if (this.#pos < this.#text.length) this.#fail('unexpected text after the JSON value');
    const minify = (part: string) => (this.#spaced ? dropSpace(part) : part);
    const text = minify(this.#text);
    if (first === Ch.OpenBracket) {
      return { text, elements: this.#elementSpans.map(([start, end]) => minify(this.#text.slice(start, end))) };
    }
    if (members === undefined) return { text };
    const keyTexts = new Map<string, string>();
    for (const [key, raw, start, end] of this.#spans) {
      members.set(key, minify(this.#text.slice(start, end)));
      keyTexts.set(key, raw);
    }
    return { text, members, keyTexts };
  }

  #peek(): number {
    return this.#pos < this.#text.length ? this.#text.charCodeAt(this.#pos) : -1;
  }

  #fail(what: string, problem: JsonSyntaxProblem = 'syntax', at: number = this.#pos): never {
    const found =
      at >= this.#text.length ? 'the end of the text' : `${JSON.stringify(this.#text.charAt(at))} at position ${at}`;
    const message = problem === 'syntax' ? `${what} (found ${found})` : what;
    throw new JsonSyntaxError(problem, message, at);
  }

  #skipWhitespace(): void {
    const start = this.#pos;
    while (this.#pos < this.#text.length && isWhitespace(this.#text.charCodeAt(this.#pos))) this.#pos++;
    if (this.#pos > start) this.#spaced = true;
  }

  #value(topMembers?: Map<string, string>): void {
    const c = this.#peek();
    if (c === Ch.OpenBrace) this.#object(topMembers);
    else if (c === Ch.OpenBracket) this.#array();
    else if (c === Ch.Quote) this.#string();
    else if (c === Ch.Minus || isDigit(c)) this.#number();
    else if (!this.#literal('true') && !this.#literal('false') && !this.#literal('null')) {
      this.#fail('expected a JSON value');
    }
  }

  #enter(): void {
    if (++this.#depth > this.#maxDepth) {
      this.#fail(`arrays/objects nest deeper than ${this.#maxDepth} levels`, 'too-deep');
    }
  }

  /** Enters the object or array at `#pos`; false (and already left) when it is empty. */
  #open(close: number): boolean {
    this.#enter();
    this.#pos++; // { or [
    this.#skipWhitespace();
    if (this.#peek() !== close) return true;
    this.#pos++;
    this.#depth--;
    return false;
  }

  /** After a member or element: true when a comma follows, false (and left) at `close`. */
  #more(close: number, expected: string): boolean {
    this.#skipWhitespace();
    const next = this.#peek();
    this.#pos++;
    if (next === close) {
      this.#depth--;
      return false;
    }
    if (next !== Ch.Comma) this.#fail(expected, 'syntax', this.#pos - 1);
    this.#skipWhitespace();
    return true;
  }

  #object(members?: Map<string, string>): void {
    if (!this.#open(Ch.CloseBrace)) return;
    const keys = new Set<string>();
    for (;;) {
      const [key, raw] = this.#key(keys);
      const valueStart = this.#pos;
      this.#value();
      if (members !== undefined) this.#spans.push([key, raw, valueStart, this.#pos]);
      if (!this.#more(Ch.CloseBrace, "expected ',' or '}' in an object")) return;
    }
  }

  /** The key at `#pos` (not one of `keys`, then added) and its text as written; `#pos` is then at its value. */
  #key(keys: Set<string>): [string, string] {
    if (this.#peek() !== Ch.Quote) this.#fail('expected a string key in an object');
    const keyStart = this.#pos;
    const hasEscape = this.#string();
    const raw = this.#text.slice(keyStart, this.#pos);
    const key = hasEscape ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    if (keys.has(key)) {
      this.#fail(
        `the key ${JSON.stringify(key)} appears twice in one object (position ${keyStart}); keys must be distinct`,
        'duplicate-key',
        keyStart,
      );
    }
    keys.add(key);
    this.#skipWhitespace();
    if (this.#peek() !== Ch.Colon) this.#fail("expected ':' after an object key");
    this.#pos++;
    this.#skipWhitespace();
    return [key, raw];
  }

  /** An array; `top` collects its elements' spans (the scanned value itself). */
  #array(top = false): void {
    if (!this.#open(Ch.CloseBracket)) return;
    for (;;) {
      const start = this.#pos;
      this.#value();
      if (top) this.#elementSpans.push([start, this.#pos]);
      if (!this.#more(Ch.CloseBracket, "expected ',' or ']' in an array")) return;
    }
  }

  /** Scans a string at `#pos` (a quote); returns whether it holds an escape. */
  #string(): boolean {
    const text = this.#text;
    let pos = this.#pos + 1;
    let hasEscape = false;
    // Short strings (keys, most values) character by character; the rest of a long one by search.
    const searchFrom = pos + LONG_STRING;
    for (;;) {
      if (pos >= text.length) {
        this.#pos = pos;
        this.#fail('unterminated string');
      }
      if (pos >= searchFrom) return this.#longString(pos, hasEscape);
      const c = text.charCodeAt(pos);
      if (c === Ch.Quote) break;
      if (c < 0x20) {
        this.#pos = pos;
        this.#fail('control character in a string (escape it, e.g. \\n)');
      }
      if (c === Ch.Backslash) {
        hasEscape = true;
        pos = this.#escape(pos);
        continue;
      }
      pos++;
    }
    this.#pos = pos + 1;
    return hasEscape;
  }

  /**
   * The rest of a long string from `pos`, found by native searches (`indexOf` for the
   * closing quote and the next backslash, a regular expression for the next control
   * character) rather than a loop per character: a multi-megabyte `bodyBase64` is one
   * string. The same checks, failures and positions as {@link #string}.
   */
  #longString(from: number, escaped: boolean): boolean {
    const text = this.#text;
    let pos = from;
    let hasEscape = escaped;
    for (;;) {
      // Each search is kept until the scan passes it, so a string of many escapes costs one pass,
      // not one search to the end of the text per escape.
      if (this.#quoteAt < pos) {
        const found = text.indexOf('"', pos);
        this.#quoteAt = found === -1 ? text.length : found;
      }
      const end = this.#quoteAt;
      if (this.#backslashAt < pos) {
        const found = text.indexOf('\\', pos);
        this.#backslashAt = found === -1 ? text.length : found;
      }
      if (!this.#checked && this.#controlAt < pos) {
        CONTROL.lastIndex = pos;
        this.#controlAt = CONTROL.exec(text)?.index ?? text.length;
      }
      const backslash = this.#backslashAt;
      const control = this.#checked ? text.length : this.#controlAt;
      if (control < end && control < backslash) {
        this.#pos = control;
        this.#fail('control character in a string (escape it, e.g. \\n)');
      }
      if (backslash < end) {
        hasEscape = true;
        pos = this.#escape(backslash);
        continue;
      }
      if (end === text.length) {
        this.#pos = text.length;
        this.#fail('unterminated string');
      }
      this.#pos = end + 1;
      return hasEscape;
    }
  }

  /** Checks the escape whose backslash is at `pos`; the position after it. */
  #escape(pos: number): number {
    const text = this.#text;
    const e = text.charCodeAt(pos + 1);
    if (e === 117 /* u */) {
      for (let i = 2; i < 6; i++) {
        if (!isHex(text.charCodeAt(pos + i))) {
          this.#pos = pos + i;
          this.#fail('expected four hex digits after \\u');
        }
      }
      return pos + 6;
    }
    // " \ / b f n r t
    if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) {
      this.#pos = pos + 1;
      this.#fail('invalid escape in a string');
    }
    return pos + 2;
  }

  #digits(): void {
    if (!isDigit(this.#peek())) this.#fail('expected a digit');
    while (isDigit(this.#peek())) this.#pos++;
  }

  #number(): void {
    if (this.#peek() === Ch.Minus) this.#pos++;
    if (this.#peek() === Ch.Zero) {
      this.#pos++;
      if (isDigit(this.#peek())) this.#fail('a number may not have a leading zero');
    } else this.#digits();
    if (this.#peek() === Ch.Dot) {
      this.#pos++;
      this.#digits();
    }
    const e = this.#peek();
    if (e === Ch.E || e === Ch.LowerE) {
      this.#pos++;
      const sign = this.#peek();
      if (sign === Ch.Plus || sign === Ch.Minus) this.#pos++;
      this.#digits();
    }
  }

  #literal(word: string): boolean {
    if (!this.#text.startsWith(word, this.#pos)) return false;
    this.#pos += word.length;
    return true;
  }
}
