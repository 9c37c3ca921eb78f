/**
 * Subpath patterns, the `path` of a request filter: literal segments, `:param`
 * segments (also written `{param}`), segments of parameters with literal text between them
 * (`/compare/:base...:head`, `/files/:name.json`) and a trailing `*`
 * (`/repos/:owner/:repo/issues`, `/files/*`). Parsed once, matched against a
 * request's subpath split into decoded segments, in one left-to-right pass per
 * segment. No regular expression is built from user input.
 *
 * @module
 */

/** A literal (compared exactly, after percent-decoding) or a named parameter. */
export type SegmentPart = { readonly literal: string } | { readonly param: string };

/**
 * One segment of a pattern: a literal, a named parameter (the whole segment),
 * or `parts`: parameters and literals in turn, never two parameters side by side.
 */
export type PatternSegment = SegmentPart | { readonly parts: readonly SegmentPart[]; readonly source: string };

/** A parsed subpath pattern. */
export interface PathPattern {
  /** The pattern as written. */
  readonly source: string;
  readonly segments: readonly PatternSegment[];
  /** A trailing `*`: any further segments (none included) match, kept as the `*` parameter. */
  readonly wildcard: boolean;
}

/** Why a pattern is refused (the message names the problem). */
export class PathPatternError extends Error {
  override readonly name = 'PathPatternError';
}

/** The longest segment with parameters and literal text (`:base...:head`), in UTF-16 units. */
export const MAX_MIXED_SEGMENT = 256;

const NAME_START = /[A-Za-z_]/;
/** A whole segment `{name}`: the parameter `:name` written the OpenAPI way. */
const BRACED_PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Percent-decodes one segment; a malformed escape leaves it as it is. */
export function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Parses `source` (`/`, `/users/:id`, `/compare/:base...:head`, `/files/*`); a whole segment
 * `{id}` (OpenAPI's way) is the parameter `:id`. In a
 * segment, `:` followed by a letter or `_` starts a parameter, whose name runs
 * over letters, digits and `_`, when it begins the segment or follows a
 * character that cannot end a name (see `startsParam`); any other text is
 * literal (`/items:batchGet` is one literal; a literal `:` after `.` or `-` and
 * before a letter is written `%3A`).
 * @throws PathPatternError when it does not start with `/`, has a `?` or `#`, a
 *   `*` anywhere but as the whole last segment, a segment starting with `:` and
 *   no name, a repeated `:param` name, two parameters with no literal text
 *   between them, or a segment with parameters and text longer than {@link MAX_MIXED_SEGMENT}.
 */
export function parsePathPattern(source: string): PathPattern {
  if (!source.startsWith('/')) throw new PathPatternError(`path "${source}" must start with /`);
  if (/[?#\s]/.test(source)) throw new PathPatternError(`path "${source}" must not contain ?, # or white space`);
  const parts = splitPath(source);
  const segments: PatternSegment[] = [];
  const seen = new Set<string>();
  let wildcard = false;
  parts.forEach((part, index) => {
    if (part === '*' && index === parts.length - 1) {
      wildcard = true;
      return;
    }
    if (part.includes('*')) {
      throw new PathPatternError(`path "${source}": * is allowed only as the whole last segment`);
    }
    // `{id}`, as OpenAPI and WireMock write a parameter, is `:id`: taken literally it matched nothing.
    const braced = BRACED_PARAM.exec(part)?.[1];
    if (braced !== undefined) {
      if (seen.has(braced)) throw new PathPatternError(`path "${source}": parameter :${braced} appears twice`);
      seen.add(braced);
      segments.push({ param: braced });
      return;
    }
    if (part.startsWith(':') && !NAME_START.test(part.charAt(1))) {
      throw new PathPatternError(
        `path "${source}": parameter "${part}" must be : then a letter or _ and letters, digits or _`,
      );
    }
    const pieces = segmentParts(source, part);
    for (const piece of pieces) {
      if (!('param' in piece)) continue;
      if (seen.has(piece.param))
        throw new PathPatternError(`path "${source}": parameter :${piece.param} appears twice`);
      seen.add(piece.param);
    }
    segments.push(pieces.length === 1 ? (pieces[0] as SegmentPart) : { parts: pieces, source: part });
  });
  return { source, segments, wildcard };
}

/**
 * Whether the `:` at `i`, after literal text, starts a parameter: at the start
 * of the segment, or after a character that cannot end a name (`.`, `-`, `~`,
 * a percent-escape). A `:` right after a literal letter, digit or `_` is
 * literal, so `/v1/items:batchGet` (a Google-style custom method) keeps its
 * colon, as it did when a parameter could only be a whole segment. (Right after
 * a parameter, a `:` starts another, which is refused: see `segmentParts`.)
 */
function startsParam(part: string, i: number): boolean {
  if (i === 0 || !NAME_CHAR.test(part.charAt(i - 1))) return true;
  return i >= 3 && part.charCodeAt(i - 3) === 37 /* % */ && /^[0-9A-Fa-f]{2}$/.test(part.slice(i - 2, i));
}

/** The literals (decoded) and parameters of one pattern segment, in order. */
function segmentParts(source: string, part: string): SegmentPart[] {
  const pieces: SegmentPart[] = [];
  let literal = '';
  let i = 0;
  while (i < part.length) {
    const afterParam = literal === '' && pieces.length > 0;
    if (
      part.charCodeAt(i) === 58 /* : */ &&
      NAME_START.test(part.charAt(i + 1)) &&
      (afterParam || startsParam(part, i))
    ) {
      let end = i + 2;
      while (end < part.length && NAME_CHAR.test(part.charAt(end))) end++;
      if (literal !== '') pieces.push({ literal: decodeSegment(literal) });
      else if (pieces.length > 0) {
        throw new PathPatternError(
          `path "${source}": segment "${part}" has two parameters with no literal text between them (:${(pieces.at(-1) as { param: string }).param} and :${part.slice(i + 1, end)}), so where one ends is unknown`,
        );
      }
      literal = '';
      pieces.push({ param: part.slice(i + 1, end) });
      i = end;
    } else literal += part.charAt(i++);
  }
  if (literal !== '' || pieces.length === 0) pieces.push({ literal: decodeSegment(literal) });
  if (pieces.length > 1 && part.length > MAX_MIXED_SEGMENT) {
    throw new PathPatternError(
      `path "${source}": segment "${part.slice(0, 40)}…" mixes parameters and text over ${part.length} characters, more than ${MAX_MIXED_SEGMENT}`,
    );
  }
  return pieces;
}

/**
 * The segments of a subpath (`/a/b/` → `a`, `b`), not decoded: the leading `/`
 * and one trailing `/` are dropped, so `/users/42` and `/users/42/` are the same.
 */
export function splitPath(subpath: string): string[] {
  let end = subpath.length;
  if (end > 1 && subpath.charCodeAt(end - 1) === 47 /* / */) end--;
  if (end <= 1) return [];
  return subpath.slice(1, end).split('/');
}

/**
 * Whether `actual` (one decoded segment) fits `parts`, its parameters pushed on
 * `entries`. Each parameter takes a non-empty run of the segment, as short as
 * the literal after it allows (its first occurrence after one character); a
 * literal that ends the pattern segment must end the request's. One pass, left
 * to right: the cost is linear in the segment's length for a bounded pattern.
 */
function matchParts(parts: readonly SegmentPart[], actual: string, entries: [string, string][]): boolean {
  let start = 0;
  let end = actual.length;
  let first = 0;
  let last = parts.length;
  const head = parts[0] as SegmentPart;
  if ('literal' in head) {
    if (!actual.startsWith(head.literal)) return false;
    start = head.literal.length;
    first = 1;
  }
  const tail = parts[last - 1] as SegmentPart;
  if ('literal' in tail) {
    if (!actual.endsWith(tail.literal)) return false;
    end -= tail.literal.length;
    last--;
  }
  // parts[first..last) is a parameter, then (literal, parameter) pairs.
  for (let i = first; i < last; i += 2) {
    const { param } = parts[i] as { param: string };
    if (i + 1 === last) {
      if (end - start < 1) return false;
      entries.push([param, actual.slice(start, end)]);
      break;
    }
    const { literal } = parts[i + 1] as { literal: string };
    const at = actual.indexOf(literal, start + 1);
    if (at === -1 || at + literal.length > end) return false;
    entries.push([param, actual.slice(start, at)]);
    start = at + literal.length;
  }
  return true;
}

/** Whether one decoded segment fits one pattern segment, its parameters pushed on `entries`. */
function matchSegment(segment: PatternSegment, actual: string, entries: [string, string][]): boolean {
  if ('literal' in segment) return segment.literal === actual;
  if ('param' in segment) {
    if (actual === '') return false;
    entries.push([segment.param, actual]);
    return true;
  }
  return matchParts(segment.parts, actual, entries);
}

/** A pattern segment as written in words (`"issues"`, `:id`, `":base...:head"`). */
function shownSegment(segment: PatternSegment): string {
  if ('literal' in segment) return `"${segment.literal}"`;
  if ('param' in segment) return `:${segment.param}`;
  return `"${segment.source}"`;
}

/**
 * The parameters when `segments` (decoded) match `pattern`, else `undefined`.
 * Built with `Object.fromEntries`, so a parameter named `__proto__` is an own key.
 */
export function matchPathPattern(
  pattern: PathPattern,
  segments: readonly string[],
): Record<string, string> | undefined {
  const fixed = pattern.segments.length;
  if (segments.length < fixed || (!pattern.wildcard && segments.length !== fixed)) return undefined;
  const entries: [string, string][] = [];
  for (let i = 0; i < fixed; i++) {
    if (!matchSegment(pattern.segments[i] as PatternSegment, segments[i] as string, entries)) return undefined;
  }
  if (pattern.wildcard) entries.push(['*', segments.slice(fixed).join('/')]);
  return Object.fromEntries(entries);
}

/**
 * The first thing in `segments` that `pattern` does not accept, in words
 * (`segment 3 is "issue", route wants "issues"`), or `undefined` when it matches.
 */
export function explainPathMismatch(pattern: PathPattern, segments: readonly string[]): string | undefined {
  const fixed = pattern.segments.length;
  for (let i = 0; i < fixed; i++) {
    const segment = pattern.segments[i] as PatternSegment;
    const actual = segments[i];
    if (actual === undefined) {
      return `path has ${segments.length} segment${segments.length === 1 ? '' : 's'}, route wants ${pattern.wildcard ? 'at least ' : ''}${fixed} (${pattern.source})`;
    }
    if (!('param' in segment) && !matchSegment(segment, actual, [])) {
      return `segment ${i + 1} is "${actual}", route wants ${shownSegment(segment)} (${pattern.source})`;
    }
  }
  if (!pattern.wildcard && segments.length > fixed) {
    return `path has ${segments.length} segments, route wants ${fixed} (${pattern.source})`;
  }
  return undefined;
}

/** How many leading segments of `segments` agree with `pattern` (for ranking near misses). */
export function matchingPrefix(pattern: PathPattern, segments: readonly string[]): number {
  let n = 0;
  for (const segment of pattern.segments) {
    const actual = segments[n];
    if (actual === undefined || (!('param' in segment) && !matchSegment(segment, actual, []))) break;
    n++;
  }
  return n;
}
