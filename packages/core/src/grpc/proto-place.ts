/**
 * Where a problem in `.proto` sources is, and the `INVALID_PROTO` error that
 * names it: the file and, when known, its line and column.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';

/** Where a problem is: a file and, when known, its 1-based line and column. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

export function invalid(place: Place, reason: string): MockpointError {
  const where = [place.file, place.line, place.column].filter((part) => part !== undefined).join(':');
  return new MockpointError('INVALID_PROTO', `invalid proto: ${where}: ${reason}`, { details: { ...place } });
}

/** The 1-based line and column of the first `token` on `line` of `source` (column 1 when not found). */
export function placeOn(file: string, source: string, line: number, token?: string): Place {
  const text = source.split('\n')[line - 1] ?? '';
  const index = token === undefined ? -1 : text.indexOf(token);
  return { file, line, column: index < 0 ? 1 : index + 1 };
}

/** The place of the first match of `pattern` in `source`, or the file alone. */
export function placeOf(file: string, source: string, pattern: RegExp): Place {
  const match = pattern.exec(source);
  if (match === null) return { file };
  const before = source.slice(0, match.index).split('\n');
  return { file, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
