/**
 * A Mockoon route's path as a request filter's, and back: Express matches
 * routes ignoring case and a trailing `/`, so the importer writes the regex
 * form (`(?i)/users/(?<id>[^/]+?)/?`), and the Mockoon export reads that form
 * back as the path it came from (`/users/:id`).
 *
 * @module
 */
import { type PathPattern, parsePathPattern, type SegmentPart } from '../pattern/path-pattern.js';
import { MAX_VALUE_PATTERN_LENGTH, type ValueMatcher } from '../pattern/value-pattern.js';

/**
 * The path filter for Mockoon's `path`: Express matches routes ignoring case
 * and a trailing `/`, so a path (a trailing `*` too) becomes the regex form
 * `(?i)/a/b/?`, each `:param` a named group (`(?<id>[^/]+?)`) that templates
 * read as `{{params.id}}`, percent-decoded as a pattern's parameters are. A
 * path with a character a client percent-encodes stays a pattern (matched
 * decoded, its literal segments compared case-sensitively).
 */
export function caseless(path: string): string | ValueMatcher {
  // The regex form is matched against the path as sent: only characters a client sends unencoded
  // (RFC 3986's unreserved and sub-delims, and `:` of a parameter) keep their meaning there.
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=@/:]*$/.test(path)) return path;
  let pattern: PathPattern;
  try {
    pattern = parsePathPattern(path);
  } catch {
    return path;
  }
  const literals = pattern.segments.flatMap((segment) => ('parts' in segment ? segment.parts : [segment]));
  if (!literals.some((part) => 'literal' in part && /[A-Za-z]/.test(part.literal))) return path;
  const quote = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  const part = (one: SegmentPart) => ('literal' in one ? quote(one.literal) : `(?<${one.param}>[^/]+?)`);
  const segments = pattern.segments.map((segment) =>
    'parts' in segment ? segment.parts.map(part).join('') : part(segment),
  );
  if (pattern.wildcard) segments.push('.*');
  const source = `(?i)${segments.length === 0 ? '' : `/${segments.join('/')}`}/?`;
  // A regex too long to save keeps the pattern (case-sensitive, but it loads).
  return source.length > MAX_VALUE_PATTERN_LENGTH ? path : { matches: source };
}

/**
 * The Mockoon path a {@link caseless} regex form was made from (`/users/:id`, a
 * trailing `/*`; a parameter pinned by {@link pinParam} as its value), or
 * `undefined` for any other regular expression.
 */
export function caselessPath(matcher: ValueMatcher): string | undefined {
  if (!('matches' in matcher)) return undefined;
  // A form with parameters pinned by params rules ({@link pinParam}): the path with those values in place.
  const pins = new Map(
    [...matcher.matches.matchAll(PINNED_GROUP)].map((pin) => [pin[1], (pin[2] ?? '').replace(/\\(.)/g, '$1')]),
  );
  if (pins.size > 0) {
    const open = matcher.matches.replace(PINNED_GROUP, (_, name: string) => `(?<${name}>[^/]+?)`);
    const path = caselessPath({ matches: open });
    return path
      ?.split('/')
      .map((segment) => (segment.startsWith(':') ? (pins.get(segment.slice(1)) ?? segment) : segment))
      .join('/');
  }
  const inner = /^\(\?i\)(.*)\/\?$/s.exec(matcher.matches)?.[1];
  if (inner === undefined) return undefined;
  const path = inner
    .replace(/\(\?<(\w+)>\[\^\/\]\+\?\)/g, ':$1')
    .replace(/\/\.\*$/, '/*')
    .replace(/\\(.)/g, '$1');
  const source = path === '' ? '/' : path;
  // Only what caseless() writes for that very path (any other regex is not one of its forms).
  return JSON.stringify(caseless(source)) === JSON.stringify(matcher) ? source : undefined;
}

/** A named group pinned by {@link pinParam}: `(?<id>(?-i:1))`. */
const PINNED_GROUP = /\(\?<(\w+)>\(\?-i:((?:\\.|[^\\)])*)\)\)/g;

/**
 * A {@link caseless} form with the parameter `name` pinned to `value` (as sent,
 * percent-encoded): Mockoon's `params` rule compares the value exactly while
 * the route's own path still ignores case and a trailing `/`. `undefined` when
 * the form has no open group of that name.
 */
export function pinParam(form: ValueMatcher, name: string, value: string): ValueMatcher | undefined {
  if (!('matches' in form)) return undefined;
  const open = `(?<${name}>[^/]+?)`;
  if (!form.matches.includes(open)) return undefined;
  const quoted = value.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  return { matches: form.matches.replace(open, `(?<${name}>(?-i:${quoted}))`) };
}

/**
 * A named group pinned to a value ({@link pinParam}) or narrowed by a `params` regex rule
 * (`(?<id>(?-is:9\\d+))`, `(?is:` ignoring case): what {@link mergePins} merges.
 */
const ANY_PIN = /\(\?<(\w+)>\(\?(?:-i|-?is):((?:\\.|[^\\)])*)\)\)/g;

/**
 * Two pinned forms of one route path as one (both pins hold), or `undefined`
 * when they pin one parameter to two values or are not of one path.
 */
export function mergePins(a: ValueMatcher, b: ValueMatcher): ValueMatcher | undefined {
  if (!('matches' in a) || !('matches' in b)) return undefined;
  const open = (source: string) => source.replace(ANY_PIN, (_, name: string) => `(?<${name}>[^/]+?)`);
  if (open(a.matches) !== open(b.matches)) return undefined;
  let merged = a.matches;
  for (const [group, name] of b.matches.matchAll(ANY_PIN)) {
    const mine = [...merged.matchAll(ANY_PIN)].find((pin) => pin[1] === name);
    if (mine !== undefined && mine[0] !== group) return undefined;
    merged = merged.replace(`(?<${name}>[^/]+?)`, group);
  }
  return { matches: merged };
}
