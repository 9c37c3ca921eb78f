/**
 * The regular expressions of a route's JSON Schemas (`pattern`, the names of
 * `patternProperties`) run by RE2 (`re2js`, pure JavaScript, every runtime):
 * matching takes time linear in the text, so no pattern and no request can
 * stall the event loop the way a backtracking engine does on `^(a+)+$`. A
 * pattern RE2 cannot express (lookaround, backreferences) is refused when the
 * route is saved.
 *
 * @module
 */
import { RE2JS } from 're2js';

/** A compiled pattern: `test` finds it anywhere in a string, as JSON Schema's `pattern` does. */
export interface SchemaPattern {
  test(text: string): boolean;
  /** The size of RE2's program: matching costs about the text's length times (a constant plus) this. */
  programSize(): number;
}

/** Characters of a pattern at most (RE2's program grows with it; a real pattern is far shorter). */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * A pattern's ECMAScript escapes that RE2 would read differently instead of refusing:
 * `\k<name>` (a backreference; translated, it would match the letters `k<name>`).
 */
function unsupportedEscape(source: string): string | undefined {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    const next = source[++i];
    if (next === 'k') return 'backreferences (\\k<name>) are not supported';
  }
  return undefined;
}

/**
 * `source` compiled, or why it cannot be (a sentence naming the problem).
 * JSON Schema patterns are ECMAScript regular expressions; RE2 accepts the same
 * syntax but for lookahead, lookbehind and backreferences. `ignoreCase` is the `i` flag.
 */
export function compilePattern(source: string, options: { ignoreCase?: boolean } = {}): SchemaPattern | string {
  if (source.length > MAX_PATTERN_LENGTH) return `it is longer than ${MAX_PATTERN_LENGTH} characters`;
  const unsupported = unsupportedEscape(source);
  if (unsupported !== undefined) return unsupported;
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `${reason} (patterns run in linear time, by RE2: lookahead, lookbehind and backreferences are not supported)`;
  }
}
