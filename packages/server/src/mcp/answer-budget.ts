/**
 * What the `call_endpoint` calls of one MCP message may answer together. An
 * endpoint's body goes into the tool's text as a JSON string, and that text into
 * the message as another: a body of control characters grows 6 times in the first
 * and 7 times in the second, so the calls of one batch could hold gigabytes. Each
 * call reserves characters of the tool text before it reads the body (the body's
 * bytes are at least that many characters), keeps what its escaped body takes, and
 * gives the rest back.
 *
 * @module
 */

/** Characters of escaped body text the calls of one message may answer together. */
export const MESSAGE_BODY_CHARS = 2 * 1024 * 1024;

/** The characters of escaped body text the calls of one message have left. */
export class AnswerBudget {
  #left: number;

  constructor(chars = MESSAGE_BODY_CHARS) {
    this.#left = chars;
  }

  /**
   * Reserves up to `want` characters, and at most half of what is left, so that the
   * calls of a batch (which reserve at once) each get some; answers how many.
   */
  take(want: number): number {
    const got = Math.max(0, Math.min(want, Math.floor(this.#left / 2)));
    this.#left -= got;
    return got;
  }

  /** Gives back characters reserved and not used. */
  giveBack(chars: number): void {
    this.#left += chars;
  }
}

/**
 * The longest start of `text` whose JSON string (without the quotes) is at most
 * `max` characters, cut between whole characters (never inside a surrogate pair).
 */
export function escapedPrefix(text: string, max: number): { kept: string; escapedLength: number } {
  let length = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
    const next = pair ? text.charCodeAt(i + 1) : 0;
    const isPair = pair && next >= 0xdc00 && next <= 0xdfff;
    const cost = isPair ? 2 : escapedCost(code);
    if (length + cost > max) break;
    length += cost;
    i += isPair ? 2 : 1;
  }
  return { kept: text.slice(0, i), escapedLength: length };
}

/** The characters JSON.stringify writes for one UTF-16 code unit (a lone surrogate is escaped). */
function escapedCost(code: number): number {
  if (
    code === 0x22 ||
    code === 0x5c ||
    code === 0x08 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0c ||
    code === 0x0d
  )
    return 2;
  if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) return 6;
  return 1;
}
