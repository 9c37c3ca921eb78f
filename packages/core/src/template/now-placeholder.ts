/**
 * The date helpers of `{{now}}` (docs/clock.md): the app's clock as ISO 8601
 * (`{{now}}`), seconds or milliseconds since the epoch (`{{now.epoch}}`,
 * `{{now.epochMs}}`), the UTC date (`{{now.date}}`), each also a duration later
 * or earlier (`{{now.plus.1d}}`, `{{now.minus.30s.epoch}}`): a token that
 * expires tomorrow, a date last week, all following the clock.
 *
 * @module
 */
import { durationMs } from '../codec/duration.js';

/** How `{{now…}}` is written: `epoch` and `epochMs` are numbers, the others text. */
type NowForm = 'iso' | 'epoch' | 'epochMs' | 'date';

const FORMS = new Set(['epoch', 'epochMs', 'date']);

/** The largest time a JavaScript Date holds (±100,000,000 days from the epoch). */
const MAX_DATE_MS = 8.64e15;

/** What a `{{now…}}` path asks for, or `undefined` when it is not one of the helpers. */
function nowPath(path: readonly string[]): { offsetMs: number; form: NowForm } | undefined {
  let offsetMs = 0;
  let rest = path;
  if (rest[0] === 'plus' || rest[0] === 'minus') {
    const ms = durationMs(rest[1]);
    if (ms === undefined) return undefined;
    offsetMs = rest[0] === 'plus' ? ms : -ms;
    rest = rest.slice(2);
  }
  if (rest.length === 0) return { offsetMs, form: 'iso' };
  if (rest.length === 1 && FORMS.has(rest[0] as string)) return { offsetMs, form: rest[0] as NowForm };
  return undefined;
}

/** Whether `path` (the keys after `now`) is a date helper. */
export function isNowPath(path: readonly string[]): boolean {
  return nowPath(path) !== undefined;
}

/** Whether `{{now…}}` with `path` renders a number (`epoch`, `epochMs`), so a JSON token of it alone is one. */
export function nowIsNumber(path: readonly string[]): boolean {
  const form = nowPath(path)?.form;
  return form === 'epoch' || form === 'epochMs';
}

/** The fewest bytes `{{now…}}` with `path` renders: 24 for ISO 8601, 10 for a date, 1 for a number. */
export function nowMinBytes(path: readonly string[]): number {
  const form = nowPath(path)?.form ?? 'iso';
  return form === 'iso' ? 24 : form === 'date' ? 10 : 1;
}

/** `{{now…}}` with `path` (checked at save) at clock time `nowMs`. */
export function renderNow(nowMs: number, path: readonly string[]): string | number {
  const { offsetMs, form } = nowPath(path) ?? { offsetMs: 0, form: 'iso' };
  const at = Math.min(MAX_DATE_MS, Math.max(-MAX_DATE_MS, nowMs + offsetMs));
  if (form === 'epoch') return Math.floor(at / 1000);
  if (form === 'epochMs') return at;
  const iso = new Date(at).toISOString();
  return form === 'date' ? iso.slice(0, iso.indexOf('T')) : iso;
}
