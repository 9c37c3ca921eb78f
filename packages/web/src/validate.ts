/**
 * Form validation for the web page: the rules the server applies (its name rule
 * and limits come from @mockpoint/core), checked as the user types. Pure
 * functions (no DOM), so they are unit-tested in Node.
 *
 * @module
 */
import {
  DEFAULT_MAX_DELAY_MS,
  isValidName,
  JsonSyntaxError,
  STATUS_CODE_RANGE,
  scanJson,
} from '@mockpoint/core/client';

export const NAME_MAX = 64;

/** A field check: `undefined` when fine, otherwise the message to show. */
export type Problem = string | undefined;

/** Checks an endpoint name; `required` decides whether an empty name is a problem yet. */
export function checkName(name: string, required: boolean): Problem {
  if (name === '') return required ? 'Enter a name: it becomes the last part of the URL.' : undefined;
  if (isValidName(name)) return undefined;
  if (name.length > NAME_MAX) return `Too long: ${name.length} characters, at most ${NAME_MAX}.`;
  const bad = [...new Set(name.replace(/[A-Za-z0-9_-]/g, ''))].map((c) => (c === ' ' ? 'space' : `"${c}"`));
  return `Only letters, digits, _ and - are allowed (not ${bad.join(', ')}).`;
}

/** The outcome of {@link parseJson}. */
export type JsonResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1) ?? '').length + 1 };
}

/** Where JSON text stops being valid, and why (found by a small scanner, the same in every browser). */
export function locateJsonError(text: string): { offset: number; reason: string } | undefined {
  const n = text.length;
  let i = 0;
  const fail = (reason: string): never => {
    throw { offset: i, reason };
  };
  const found = () => (i >= n ? 'the end of the text' : `'${text[i]}'`);
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail('the string is not closed with "');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c === 92) {
        const e = text[i + 1] ?? '';
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('\\u must be followed by 4 hex digits');
          i += 6;
        } else if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
        else fail(`\\${e} is not a JSON escape`);
      } else if (c < 32) fail('a line break or control character inside a string must be escaped (\\n)');
      else i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  /** An object or array after its opening bracket: members separated by commas up to `close`. */
  const collection = (close: string, member: () => void): void => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === close) fail('a trailing comma is not allowed');
      member();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail(`expected ',' or '${close}', found ${found()}`);
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      collection('}', () => {
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${found()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ':' after the property name, found ${found()}`);
        i++;
        value();
      });
      return;
    }
    if (c === '[') {
      collection(']', value);
      return;
    }
    if (c === '"') {
      string();
      return;
    }
    if (c === "'") fail('strings need double quotes, not single quotes');
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      i += number[0].length;
      return;
    }
    fail(`expected a value, found ${found()}`);
  };
  try {
    value();
    ws();
    if (i < n) fail(`unexpected ${found()} after the end of the value`);
    return undefined;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'reason' in error) {
      return error as { offset: number; reason: string };
    }
    return undefined; // e.g. nesting too deep for the scanner: the browser's message is used
  }
}

/**
 * Parses the JSON editor's text, with a message that says where it goes wrong;
 * what the server refuses beyond syntax (a key twice in one object, nesting too
 * deep) is a mistake here too. The value is for describing the text only: the
 * text itself is what is saved.
 */
export function parseJson(text: string): JsonResult {
  if (text.trim() === '') return { ok: false, message: 'Enter a JSON value, e.g. {"ok": true}, [] or null.' };
  try {
    const value: unknown = JSON.parse(text);
    scanJson(text);
    return { ok: true, value };
  } catch (error) {
    if (error instanceof JsonSyntaxError && error.problem !== 'syntax') {
      const { line, column } = lineColumn(text, error.position);
      const reason = error.message.replace(/ \(position \d+\)/, '');
      return { ok: false, message: `Invalid JSON at line ${line}, column ${column}: ${reason}.` };
    }
    const where = locateJsonError(text);
    if (where === undefined) return { ok: false, message: `Invalid JSON: ${(error as Error).message}` };
    const { line, column } = lineColumn(text, where.offset);
    return { ok: false, message: `Invalid JSON at line ${line}, column ${column}: ${where.reason}.` };
  }
}

/**
 * Checks a whole number typed in a field, in `[min, max]`. Anything but digits
 * (an empty field included) is a problem, with `value` `NaN`.
 */
export function checkInteger(
  raw: string,
  range: { min: number; max: number; label: string; unit?: string },
): { value: number; problem: Problem } {
  const text = raw.trim();
  const unit = range.unit ? ` ${range.unit}` : '';
  const message = `${range.label} must be a whole number from ${range.min} to ${range.max}${unit}.`;
  if (!/^\d+$/.test(text)) return { value: Number.NaN, problem: message };
  const value = Number(text);
  return { value, problem: value < range.min || value > range.max ? message : undefined };
}

/** Status code range the server accepts. */
export const STATUS_RANGE = { ...STATUS_CODE_RANGE, label: 'Status code' } as const;

/**
 * Delay range, up to the server's MOCKPOINT_MAX_DELAY_MS (from `/api/health`; core's
 * default until the page has heard from the server).
 */
export function delayRange(maxDelayMs: number = DEFAULT_MAX_DELAY_MS) {
  return { min: 0, max: maxDelayMs, label: 'Delay', unit: 'ms' } as const;
}

/** Human-readable size, e.g. `1.2 kB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Quotes a string for a POSIX shell (single quotes). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
