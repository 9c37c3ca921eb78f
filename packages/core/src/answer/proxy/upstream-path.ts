/**
 * The subpath a proxy route appends to its upstream's base path, kept below
 * that base. The upstream, or anything in front of it, may decode a path and
 * resolve its dot segments before it routes, so a subpath is judged as such a
 * server would read it: `.` and `..` segments literal or percent-encoded
 * (`%2e%2e`), `/` and `\` given as `%2f`/`%5c`, and a raw `\` (a URL parser
 * reads it as `/`) all count; a `..` right after an empty segment (`a//..`)
 * counts as leaving too, since a server that merges slashes reads it one level
 * higher. A subpath that would leave the base is refused; one that stays below
 * it is sent with its dot segments resolved and everything else as it came
 * (`%2F` in a segment stays encoded: APIs use it in names).
 *
 * @module
 */

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;
/** Separators as a server may read them: `/`, and `\` (URL parsers, Windows servers). */
const SEPARATOR = /[/\\]/;

/** Percent-decodes the escapes of ASCII bytes (`%2f` → `/`); others, and malformed ones, stay as they are. */
function decodeAscii(text: string): string {
  return text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * Resolves the dot segments of `segments` (`dot`/`dotDot` tell them); `undefined`
 * when a `..` would climb above the first segment or follows an empty one.
 */
function resolve(
  segments: readonly string[],
  dot: (segment: string) => boolean,
  dotDot: (segment: string) => boolean,
): string[] | undefined {
  const kept: string[] = [];
  for (const segment of segments) {
    if (dotDot(segment)) {
      const last = kept.pop();
      if (last === undefined || last === '') return undefined;
    } else if (!dot(segment)) kept.push(segment);
  }
  return kept;
}

/**
 * `subpath` (the request's path below `/endpoint/{name}`, as received, starting
 * with `/`) with its dot segments resolved, or `undefined` when it would leave
 * the base path once decoded.
 */
export function containedSubpath(subpath: string): string | undefined {
  const segments = subpath.slice(1).split(SEPARATOR);
  const raw = resolve(
    segments,
    (segment) => DOT.test(segment),
    (segment) => DOT_DOT.test(segment),
  );
  if (raw === undefined) return undefined;
  const last = segments.at(-1) as string;
  // As a URL parser does: a path ending in a dot segment keeps a trailing `/`.
  if (DOT.test(last) || DOT_DOT.test(last)) raw.push('');
  const sent = `/${raw.join('/')}`;
  // What is sent must stay below the base once decoded, too.
  if (!sent.includes('%')) return sent;
  const decoded = resolve(
    decodeAscii(sent).slice(1).split(SEPARATOR),
    (segment) => segment === '.',
    (segment) => segment === '..',
  );
  return decoded === undefined ? undefined : sent;
}
