/**
 * A request filter's regular-expression form for a value (`{ "matches": "…" }`
 * or `{ "doesNotMatch": "…" }`): the pattern must match the WHOLE value, as
 * Java's `Matcher.matches()` and so WireMock's `matches` do. Patterns run by
 * RE2 (`re2js`), in time linear in the value, whatever the pattern; its syntax
 * is Java's for everything both share (classes, `\d \w \s \p{L}`, `(?i)`,
 * `\Q…\E`, named groups). What RE2 cannot run (lookahead, lookbehind,
 * backreferences, atomic groups, possessive quantifiers) is refused by name
 * when the filter is saved. Each source is compiled once (a bounded memo,
 * filled when the filter is validated), never per request.
 *
 * @module
 */
import { RE2JS } from 're2js';

/** The regular-expression form of a filter value. */
export type ValueMatcher = { matches: string } | { doesNotMatch: string };

/** Characters of a pattern at most. */
export const MAX_VALUE_PATTERN_LENGTH = 1024;

/** A compiled value pattern: whether a whole value matches it. */
export interface ValuePattern {
  matches(value: string): boolean;
  /** The named groups' text when the whole value matches (`{}` without named groups), else `undefined`. */
  groups(value: string): Record<string, string> | undefined;
}

/** Java constructs RE2 cannot run, each found at the start of the text (after a `(` or a quantifier). */
const GROUPS: [string, string][] = [
  ['(?<=', 'lookbehind (?<=…)'],
  ['(?<!', 'lookbehind (?<!…)'],
  ['(?=', 'lookahead (?=…)'],
  ['(?!', 'lookahead (?!…)'],
  ['(?>', 'atomic groups (?>…)'],
];

/** The construct of `source` RE2 cannot run, named, or `undefined`. */
function unsupported(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        if (end === -1) return undefined;
        i = end + 1;
        continue;
      }
      if (!inClass && /[1-9]/.test(next)) return `backreferences (\\${next})`;
      if (!inClass && next === 'k') return 'backreferences (\\k<name>)';
      // A class by name (`\p{Alpha}`): its braces are not a quantifier.
      if ((next === 'p' || next === 'P') && source[i + 2] === '{') {
        const close = source.indexOf('}', i + 3);
        i = close === -1 ? source.length : close;
        continue;
      }
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    if (ch === '(') {
      for (const [start, name] of GROUPS) if (source.startsWith(start, i)) return name;
      continue;
    }
    if ((ch === '*' || ch === '+' || ch === '?' || ch === '}') && source[i + 1] === '+') {
      return `possessive quantifiers (${ch}+)`;
    }
  }
  return undefined;
}

/** Java's POSIX classes (`\p{Alpha}`) by name, as RE2's (`[:alpha:]`). */
const POSIX: Record<string, string> = {
  Lower: 'lower',
  Upper: 'upper',
  ASCII: 'ascii',
  Alpha: 'alpha',
  Digit: 'digit',
  Alnum: 'alnum',
  Punct: 'punct',
  Graph: 'graph',
  Print: 'print',
  Blank: 'blank',
  Cntrl: 'cntrl',
  XDigit: 'xdigit',
  Space: 'space',
};

/**
 * `source` (Java syntax) in RE2's syntax where the two differ: `\p{Alpha}` and
 * the other POSIX classes, `\Z` (the end, or before a final line break).
 */
export function javaToRe2(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const stop = end === -1 ? source.length : end + 2;
        out += source.slice(i, stop);
        i = stop - 1;
        continue;
      }
      const posix = /^[pP]\{(\w+)\}/.exec(source.slice(i + 1));
      const name = posix === null ? undefined : POSIX[posix[1] as string];
      if (posix !== null && name !== undefined) {
        const negated = next === 'P' ? '^' : '';
        out += inClass ? `[:${negated}${name}:]` : `[[:${negated}${name}:]]`;
        i += posix[0].length;
        continue;
      }
      if (next === 'Z' && !inClass) {
        out += '(?:\\n?\\z)';
        i++;
        continue;
      }
      out += ch + next;
      i++;
      continue;
    }
    if (inClass && ch === ']') inClass = false;
    else if (!inClass && ch === '[') {
      inClass = true;
      out += ch;
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') out += source[++i];
      continue;
    }
    out += ch;
  }
  return out;
}

const memo = new Map<string, ValuePattern | string>();
const MAX_MEMO = 2000;

/**
 * `source` compiled (the whole value must match), or why it cannot be: a
 * sentence naming the problem, e.g. `lookahead (?=…) is not supported (…)`.
 */
export function compileValuePattern(source: string): ValuePattern | string {
  const known = memo.get(source);
  if (known !== undefined) return known;
  const result = compile(source);
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(source, result);
  return result;
}

function compile(source: string): ValuePattern | string {
  if (source.length > MAX_VALUE_PATTERN_LENGTH) return `it is longer than ${MAX_VALUE_PATTERN_LENGTH} characters`;
  const construct = unsupported(source);
  if (construct !== undefined) {
    return `${construct} is not supported: patterns run in linear time, by RE2 (no lookaround, backreferences, atomic groups or possessive quantifiers)`;
  }
  try {
    const pattern = RE2JS.compile(javaToRe2(source));
    const names = Object.keys(pattern.namedGroups());
    return {
      matches: (value) => pattern.matches(value),
      groups: (value) => {
        if (names.length === 0) return pattern.matches(value) ? {} : undefined;
        const matcher = pattern.matcher(value);
        if (!matcher.matches()) return undefined;
        // Object.fromEntries: a group named `__proto__` is an own key. A group that took no part is left out.
        return Object.fromEntries(
          names.flatMap((name) => {
            const text = matcher.group(name);
            return text === null || text === undefined ? [] : [[name, text]];
          }),
        );
      },
    };
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `${reason} (patterns run in linear time, by RE2: lookaround, backreferences, atomic groups and possessive quantifiers are not supported)`;
  }
}

/** Whether `value` is the regex form (an object with exactly `matches` or `doesNotMatch`, a string). */
export function isValueMatcher(value: unknown): value is ValueMatcher {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const key = keys[0] as string;
  return (key === 'matches' || key === 'doesNotMatch') && typeof (value as Record<string, unknown>)[key] === 'string';
}

/** Why `matcher`'s pattern cannot be saved, or `undefined` when it compiles. */
export function valueMatcherProblem(matcher: ValueMatcher): string | undefined {
  const source = 'matches' in matcher ? matcher.matches : matcher.doesNotMatch;
  const compiled = compileValuePattern(source);
  return typeof compiled === 'string' ? compiled : undefined;
}

/**
 * The named groups of a `matches` pattern when the whole `value` matches it
 * (`{}` when it has none), else `undefined` (as for a `doesNotMatch` form).
 */
export function valueGroups(matcher: ValueMatcher, value: string): Record<string, string> | undefined {
  if (!('matches' in matcher)) return undefined;
  const compiled = compileValuePattern(matcher.matches);
  return typeof compiled === 'string' ? undefined : compiled.groups(value);
}

/**
 * Whether `value` satisfies `matcher` (`undefined`: the value is absent, which
 * satisfies neither form, as in WireMock a missing header matches no pattern).
 */
export function valueMatches(matcher: ValueMatcher, value: string | undefined): boolean {
  if (value === undefined) return false;
  const negated = !('matches' in matcher);
  const source = 'matches' in matcher ? matcher.matches : matcher.doesNotMatch;
  const compiled = compileValuePattern(source);
  if (typeof compiled === 'string') return false;
  return compiled.matches(value) !== negated;
}

/** A header or query parameter that must not be sent at all (WireMock's `absent`): `{ "absent": true }`. */
export interface AbsentMatcher {
  absent: true;
}

/** Whether `value` is `{ absent: true }`. */
export function isAbsentMatcher(value: unknown): value is AbsentMatcher {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { absent?: unknown }).absent === true &&
    Object.keys(value).length === 1
  );
}
