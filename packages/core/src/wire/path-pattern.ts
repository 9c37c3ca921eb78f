/**
 * Subpath patterns, the `path` of a request filter: literal segments, `:param`
 * segments and a trailing `*` (`/repos/:owner/:repo/issues`, `/files/*`). Parsed
 * once, matched against a request's subpath split into decoded segments. No
 * regular expression is built from user input.
 *
 * @module
 */

/** One segment of a pattern: a literal (compared exactly, after percent-decoding) or a named parameter. */
export type PatternSegment = { readonly literal: string } | { readonly param: string };

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

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
 * Parses `source` (`/`, `/users/:id`, `/files/*`).
 * @throws PathPatternError when it does not start with `/`, has a `?` or `#`, a
 *   `*` anywhere but as the whole last segment, an invalid or repeated `:param` name.
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
    if (part.startsWith(':')) {
      const name = part.slice(1);
      if (!PARAM_NAME.test(name)) {
        throw new PathPatternError(
          `path "${source}": parameter "${part}" must be : then a letter or _ and letters, digits or _`,
        );
      }
      if (seen.has(name)) throw new PathPatternError(`path "${source}": parameter :${name} appears twice`);
      seen.add(name);
      segments.push({ param: name });
    } else segments.push({ literal: decodeSegment(part) });
  });
  return { source, segments, wildcard };
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
    const segment = pattern.segments[i] as PatternSegment;
    const actual = segments[i] as string;
    if ('literal' in segment) {
      if (segment.literal !== actual) return undefined;
    } else if (actual === '') return undefined;
    else entries.push([segment.param, actual]);
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
    if ('literal' in segment && segment.literal !== actual) {
      return `segment ${i + 1} is "${actual}", route wants "${segment.literal}" (${pattern.source})`;
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
    if (actual === undefined || ('literal' in segment && segment.literal !== actual)) break;
    n++;
  }
  return n;
}
