/**
 * `JSON.stringify` of a large value cut into event-loop turns: a 15 MB answer (a page of 100
 * objects, each with four objects spliced in by `expand[]`) is 200-900 ms of one native call on a
 * loaded machine, and nothing else is answered meanwhile (#86 H3: `/api/health` 0.9-1.0 s worst
 * while twenty such answers were built one after another). Here the value's arrays and objects are
 * walked down {@link SPLIT_DEPTH} levels and each member below is written by `JSON.stringify`
 * alone, with a turn ({@link TurnBudget}) whenever the work since the last one passed its
 * milliseconds. The text is the same, character for character, as `JSON.stringify(value)`'s.
 *
 * {@link jsonBytesInTurns} writes UTF-8 bytes as it goes (never the whole text as one string:
 * neither its copy nor its encoding is one block).
 *
 * @module
 */
import { TurnBudget } from './turn-budget.js';

/** Levels of arrays and objects walked in turns; below them a member is one `JSON.stringify`. */
const SPLIT_DEPTH = 4;

/** Characters of text gathered before they are encoded as one piece of bytes. */
const PIECE_CHARS = 64 * 1024;

/** Whether `value` is walked member by member: a plain array or object without `toJSON`. */
function walked(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Receives the text in order. */
type Sink = (text: string) => void;

/**
 * Writes `value` as `JSON.stringify` does, to `sink`; `false` when it writes nothing
 * (`undefined`, a function, a symbol: left out of an object, `null` in an array).
 */
async function write(value: unknown, sink: Sink, turns: TurnBudget, depth: number): Promise<boolean> {
  if (depth >= SPLIT_DEPTH || !walked(value)) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    sink(text);
    return true;
  }
  if (Array.isArray(value)) {
    sink('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) sink(',');
      if (!(await write(value[index], sink, turns, depth + 1))) sink('null');
      await turns.pause();
    }
    sink(']');
    return true;
  }
  sink('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    // What JSON.stringify leaves out of an object, without writing its key.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    sink(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    await write(member, sink, turns, depth + 1);
    await turns.pause();
  }
  sink('}');
  return true;
}

/** `JSON.stringify(value)`, written in turns; `undefined` where it is too. */
export async function jsonInTurns(value: unknown): Promise<string | undefined> {
  const parts: string[] = [];
  const wrote = await write(value, (text) => parts.push(text), new TurnBudget(), 0);
  return wrote ? parts.join('') : undefined;
}

const encoder = new TextEncoder();

/** `JSON.stringify(value)` as UTF-8 bytes, written and encoded in turns (`undefined` as above). */
export async function jsonBytesInTurns(value: unknown): Promise<Uint8Array | undefined> {
  const pieces: Uint8Array[] = [];
  let gathered: string[] = [];
  let chars = 0;
  let length = 0;
  const flush = () => {
    if (gathered.length === 0) return;
    const piece = encoder.encode(gathered.join(''));
    pieces.push(piece);
    length += piece.length;
    gathered = [];
    chars = 0;
  };
  const sink = (text: string) => {
    gathered.push(text);
    chars += text.length;
    if (chars >= PIECE_CHARS) flush();
  };
  // A piece always ends between two whole texts: never inside a surrogate pair.
  const wrote = await write(value, sink, new TurnBudget(), 0);
  flush();
  if (!wrote) return undefined;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}
