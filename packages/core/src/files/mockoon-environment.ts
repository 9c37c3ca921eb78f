/**
 * A Mockoon environment (the JSON file the Mockoon app saves and the Mockoon
 * CLI runs) as a mock file: one endpoint whose routes answer as Mockoon's do.
 *
 * - A route's responses become routes in Mockoon's order of choice: each
 *   response with rules (their `match`), then the default response (the one
 *   marked `default`, else the first) for every other request of the route.
 *   `FALLBACK` leaves the default out (the next route is tried, as in
 *   Mockoon); `DISABLE_RULES` keeps only it; `SEQUENTIAL` (and `RANDOM`, which
 *   has no random choice here) answer the responses in turn through a state
 *   machine of their own that starts again after the last.
 * - Rules: `equals` on a query parameter, a header, a route parameter, the
 *   method, the path, the raw body or a field of a JSON body; `AND` merges them
 *   into one `match`, `OR` makes one route per rule. A regular expression that
 *   is a literal (`^text$`) becomes `equals`; any other is listed: routes here
 *   match no regular expressions (paths are literal segments and `:params`, see
 *   pattern/path-pattern.ts), so none is run, guarded or not.
 * - Templating: `urlParam`, `queryParam`, `header`, `body 'path'`, `uuid`,
 *   `guid` and `now` become placeholders; a body with any other helper is
 *   served as written (not rendered) and the helper is listed by name.
 * - Data buckets that are JSON arrays become collections (exact text); a CRUD
 *   route becomes a `resource` route over its bucket (`crudKey` its idField).
 * - Headers are served as Mockoon's Express sends them: the environment's,
 *   then the response's, and a text body's `Content-Type` with
 *   `charset=utf-8` (`text/html` when none is given).
 *
 * Whatever cannot be carried over is in `leftOut`, never dropped silently.
 * Pure: files a response serves are read through `options.readFile`.
 *
 * @module
 */
import { BODILESS_STATUS } from '../answer/read-response.js';
import type { RequestFilter } from '../api/journal-json.js';
import { type AnswerHeaders, FORBIDDEN_HEADERS, type Route, type RouteAnswer } from '../api/route.js';
import { toBase64 } from '../codec/base64.js';
import { headerNameProblem, headerValueProblem, isHeaderName } from '../codec/http-header.js';
import { JsonText, stringifyExact } from '../codec/json-text.js';
import { quoted } from '../codec/quoted.js';
import { utf8TextKeepingBom } from '../codec/utf8.js';
import { COLLECTION_NAME } from '../collections/collection-store.js';
import { matchPathPattern, PathPatternError, parsePathPattern, splitPath } from '../pattern/path-pattern.js';
import { type ValueMatcher, valueMatcherProblem, valueMatches } from '../pattern/value-pattern.js';
import { MockpointError } from '../registry/errors.js';
import { DEFAULT_MAX_DELAY_MS } from '../registry/record-defaults.js';
import { IdSet, safeEncode, slugOf } from './import-ids.js';
import type { LeftOut } from './left-out.js';
import { MOCK_FILE_VERSION } from './mock-file-schema.js';
import { caseless, mergePins, pinParam } from './mockoon-path.js';

/** Options for {@link mockoonMockFile}. */
export interface MockoonImportOptions {
  /** The endpoint's name. */
  name: string;
  /** The environment file's name, for messages. @default 'environment.json' */
  file?: string;
  /**
   * The bytes of a file a response serves (`filePath` as the environment has
   * it, relative to the environment file), or why it is not read (`is outside
   * the environment's folder (…)`), or `undefined` when it cannot be read: the
   * CLI reads inside the environment's folder only (files/read-inside.ts).
   * Absent: every file response is left out.
   */
  readFile?: (filePath: string) => Uint8Array | string | undefined;
}

/** What {@link mockoonMockFile} made. */
export interface MockoonImport {
  /** The mock file, JSON. */
  text: string;
  routes: number;
  collections: string[];
  leftOut: LeftOut[];
}

interface MockoonHeader {
  key?: unknown;
  value?: unknown;
}

interface MockoonRule {
  target?: unknown;
  modifier?: unknown;
  value?: unknown;
  invert?: unknown;
  operator?: unknown;
}

interface MockoonResponse {
  uuid?: unknown;
  label?: unknown;
  rules?: MockoonRule[];
  rulesOperator?: unknown;
  statusCode?: unknown;
  headers?: MockoonHeader[];
  body?: unknown;
  latency?: unknown;
  bodyType?: unknown;
  filePath?: unknown;
  databucketID?: unknown;
  sendFileAsBody?: unknown;
  disableTemplating?: unknown;
  default?: unknown;
  crudKey?: unknown;
  callbacks?: unknown[];
}

interface MockoonRoute {
  uuid?: unknown;
  type?: unknown;
  method?: unknown;
  endpoint?: unknown;
  responses?: MockoonResponse[];
  responseMode?: unknown;
}

interface MockoonBucket {
  uuid?: unknown;
  id?: unknown;
  name?: unknown;
  value?: unknown;
}

interface FolderChild {
  type?: unknown;
  uuid?: unknown;
}

interface MockoonEnvironment {
  name?: unknown;
  endpointPrefix?: unknown;
  latency?: unknown;
  headers?: MockoonHeader[];
  cors?: unknown;
  proxyMode?: unknown;
  tlsOptions?: { enabled?: unknown };
  routes?: MockoonRoute[];
  rootChildren?: FolderChild[];
  folders?: { uuid?: unknown; children?: FolderChild[] }[];
  data?: MockoonBucket[];
  callbacks?: unknown[];
}

/** File types Mockoon renders as templates (commons' `MimeTypesWithTemplating`). */
const TEMPLATED_TYPES = new Set([
  'application/json',
  'text/html',
  'text/css',
  'text/csv',
  'application/javascript',
  'application/typescript',
  'text/plain',
  'application/xhtml+xml',
  'application/xml',
  'text/x-handlebars-template',
]);

/** The media type of a file by its extension (the common ones; others get none, as an unknown one in Mockoon). */
const MIME_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
  text: 'text/plain',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  js: 'application/javascript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  bin: 'application/octet-stream',
};

/** Routes one import writes at most (the daemon's default route limit). */
const MAX_ROUTES = 10_000;

/** Most alternatives one response's rules may expand to (AND of fields whose JSON type is unknown). */
const MAX_ALTERNATIVES = 16;

/** True when `text` is plainly a Mockoon environment: a JSON object with `routes` and Mockoon's own keys. */
export function isMockoonEnvironment(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      Array.isArray(parsed.routes) &&
      (typeof parsed.lastMigration === 'number' ||
        typeof parsed.endpointPrefix === 'string' ||
        Array.isArray(parsed.rootChildren))
    );
  } catch {
    return false;
  }
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Express's `res.send(text)` Content-Type: `text/html; charset=utf-8` when none
 * is given, else the type (lower case) with its parameters, `charset=utf-8`
 * among them, in name order (the `content-type` package's format).
 */
function withCharset(type: string | undefined): string {
  if (type === undefined || type.trim() === '') return 'text/html; charset=utf-8';
  const [media = '', ...params] = type.split(';');
  const named = new Map<string, string>();
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq > 0) named.set(param.slice(0, eq).trim().toLowerCase(), param.slice(eq + 1).trim());
  }
  named.set('charset', 'utf-8');
  const sorted = [...named].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [media.trim().toLowerCase(), ...sorted.map(([name, value]) => `${name}=${value}`)].join('; ');
}

const CHARSET = /;\s*charset\s*=/i;

/**
 * `text` in the charset `type` names, as Mockoon sends it (`Buffer.from(text, encoding)`):
 * the text itself when that is its UTF-8 (or ASCII text), else the bytes;
 * `undefined` for a charset not handled here.
 */
function encodeIn(text: string, type: string): string | Uint8Array | undefined {
  const charset = (/;\s*charset\s*=\s*"?([^;"]+)"?/i.exec(type)?.[1] ?? '').trim().toLowerCase();
  const ascii = [...text].every((char) => (char.codePointAt(0) as number) < 0x80);
  if (['utf-8', 'utf8'].includes(charset)) return text;
  if (
    [
      'iso-8859-1',
      'latin1',
      'binary',
      'windows-1252',
      'iso88591',
      'iso_8859_1',
      'iso_8859-1',
      'ascii',
      'us-ascii',
    ].includes(charset)
  ) {
    if (ascii) return text;
    const mask = charset.includes('ascii') ? 0x7f : 0xff;
    return Uint8Array.from(text, (char) => (char.codePointAt(0) as number) & mask);
  }
  if (['utf-16le', 'utf16le', 'ucs-2', 'ucs2', 'utf-16', 'utf16'].includes(charset)) {
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      bytes[i * 2] = unit & 0xff;
      bytes[i * 2 + 1] = unit >> 8;
    }
    return bytes;
  }
  return undefined;
}

/**
 * Express's `res.set('Content-Type', value)`: a text, JSON or JavaScript type
 * without a charset gets `; charset=utf-8`.
 */
function setContentType(value: string): string {
  if (CHARSET.test(value)) return value;
  // mime 1.x's charsets.lookup, as Express calls it: case-sensitive, on the text before the first ;.
  const media = value.split(';')[0] ?? '';
  return /^text\/|^application\/(javascript|json)/.test(media) ? `${value}; charset=utf-8` : value;
}

/** Headers as Express sets them, one after the other (a later one replaces, `Set-Cookie` adds). */
class HeaderList {
  readonly #values = new Map<string, { name: string; values: string[] }>();

  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    const seen = this.#values.get(lower);
    if (lower === 'set-cookie' && seen !== undefined) seen.values.push(value);
    else this.#values.set(lower, { name: lower, values: [value] });
  }

  get(name: string): string | undefined {
    return this.#values.get(name.toLowerCase())?.values[0];
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  answerHeaders(): AnswerHeaders | undefined {
    if (this.#values.size === 0) return undefined;
    const out: AnswerHeaders = {};
    for (const { name, values } of this.#values.values())
      out[name] = values.length === 1 ? (values[0] as string) : values;
    return out;
  }
}

/** One `{{…}}` of a Handlebars template: its text and where it is. */
interface Mustache {
  start: number;
  end: number;
  inner: string;
}

/** The `{{…}}` and `{{{…}}}` of `text`, or the problem (an unclosed one). */
function mustachesOf(text: string): Mustache[] | string {
  const out: Mustache[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{{', at);
    if (open === -1) return out;
    const triple = text.startsWith('{{{', open);
    const closer = triple ? '}}}' : '}}';
    const close = text.indexOf(closer, open + closer.length);
    if (close === -1) return 'a "{{" that does not close';
    out.push({ start: open, end: close + closer.length, inner: text.slice(open + closer.length, close).trim() });
    at = close + closer.length;
  }
}

/** The quoted arguments of a helper call (`'a' "b"`), or `undefined` when any is not a plain quoted string. */
function quotedArgs(text: string): string[] | undefined {
  const args: string[] = [];
  const re = /\s*(?:'([^']*)'|"([^"]*)")/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const found = re.exec(text);
    if (found === null) return text.slice(at).trim() === '' ? args : undefined;
    args.push(found[1] ?? found[2] ?? '');
    at = re.lastIndex;
  }
  return args;
}

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** One Mockoon helper call as a mockpoint placeholder, or `undefined` when it has none. */
function placeholderOf(inner: string): string | undefined {
  const found = /^([A-Za-z_][A-Za-z0-9_]*)(.*)$/s.exec(inner);
  if (found === null) return undefined;
  const [, helper, rest = ''] = found;
  const args = quotedArgs(rest);
  if (args === undefined) return undefined;
  switch (helper) {
    case 'uuid':
    case 'guid':
      return args.length === 0 ? '{{uuid}}' : undefined;
    case 'now':
      return args.length === 0 ? '{{now}}' : undefined;
    case 'urlParam':
      return args.length === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(args[0] as string)
        ? `{{params.${args[0]}}}`
        : undefined;
    case 'queryParam':
      return args.length === 1 && PLAIN_KEY.test(args[0] as string) ? `{{query.${args[0]}}}` : undefined;
    case 'header':
      return args.length === 1 && PLAIN_KEY.test(args[0] as string)
        ? `{{headers.${(args[0] as string).toLowerCase()}}}`
        : undefined;
    case 'body': {
      // The whole body is Mockoon's raw text, here the JSON re-written: not the same bytes.
      const path = args[0];
      if (args.length !== 1 || path === undefined || path === '' || path.startsWith('$')) return undefined;
      const keys = path.split('.');
      return keys.every((key) => PLAIN_KEY.test(key)) ? `{{body.${path}}}` : undefined;
    }
    default:
      return undefined;
  }
}

/** The helper a mustache calls, for the left-out list (`faker`, `#repeat` → `repeat`, `!` → a comment). */
function helperName(inner: string): string {
  if (inner.startsWith('!')) return 'a comment ({{! … }})';
  const name = /^[#/^>~&]?\s*([^\s}]+)/.exec(inner)?.[1] ?? inner;
  return name.slice(0, 60);
}

/** A Mockoon template as a mockpoint one: its text and whether it has placeholders, or the helpers it cannot carry. */
function convertTemplate(text: string): { text: string; template: boolean } | { unsupported: string[] } {
  const mustaches = mustachesOf(text);
  if (typeof mustaches === 'string') return { unsupported: [mustaches] };
  if (mustaches.length === 0) return { text, template: false };
  const unsupported = new Set<string>();
  let out = '';
  let at = 0;
  for (const mustache of mustaches) {
    // A backslash before `{{` is Handlebars' escape: the braces are text, which a template here cannot write.
    if (mustache.start > 0 && text.charAt(mustache.start - 1) === '\\') unsupported.add('an escaped \\{{');
    const placeholder = placeholderOf(mustache.inner);
    if (placeholder === undefined) unsupported.add(helperName(mustache.inner));
    else out += text.slice(at, mustache.start) + placeholder;
    at = mustache.end;
  }
  if (unsupported.size > 0) return { unsupported: [...unsupported] };
  return { text: out + text.slice(at), template: true };
}

/** What a rule adds to a route's match: alternatives (any of them), or why it cannot be carried over. */
type RuleFilters = RequestFilter[] | string;

/** A body value for `equals`: Mockoon compares `String(value)`, so `"5"` is the number 5 or the string "5". */
function bodyValues(value: string): unknown[] {
  const out: unknown[] = [value];
  if (value === 'true' || value === 'false') out.push(value === 'true');
  else if (value === '') out.push(null);
  else if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value) && String(Number(value)) === value) {
    out.push(Number(value));
  }
  return out;
}

/** The text a regular expression matches when it is a literal anchored at both ends (`^abc$`, `^a\.b$`), else `undefined`. */
function literalRegex(source: string): string | undefined {
  const found = /^\^((?:[^\\^$.|?*+()[\]{}]|\\[\\^$.|?*+()[\]{}/-])*)\$$/.exec(source);
  return found === null ? undefined : (found[1] as string).replace(/\\(.)/g, '$1');
}

/** One Mockoon rule as filters on the route's request (see the module's comment). */
function ruleFilters(rule: MockoonRule, path: string): RuleFilters {
  const target = str(rule.target);
  const operator = str(rule.operator);
  const modifier = str(rule.modifier);
  let value = typeof rule.value === 'string' ? rule.value : rule.value === null ? '' : undefined;
  if (rule.invert === true)
    return 'an inverted rule (invert) has no equivalent: a route matches what is, not what is not';
  if (operator === 'regex' || operator === 'regex_i') {
    const literal = operator === 'regex' && value !== undefined ? literalRegex(value) : undefined;
    if (literal === undefined && target === 'params') {
      return paramRegexFilters(path, modifier, operator === 'regex_i', value ?? '');
    }
    if (literal === undefined) return regexRuleFilters(target, modifier, operator === 'regex_i', value ?? '');
    value = literal;
  } else if (operator !== 'equals') {
    return `operator ${operator || '(none)'} has no equivalent (equals is carried over, and a literal regex)`;
  }
  if (value === undefined) return 'the rule has no value';
  if (/\{\{/.test(value) || /\{\{/.test(modifier)) return 'a templated rule value or modifier is not carried over';
  switch (target) {
    case 'query':
      if (!PLAIN_KEY.test(modifier))
        return `query rule on ${JSON.stringify(modifier)}: only one plain parameter name is carried over`;
      return [{ query: { [modifier]: value } }];
    case 'header':
      if (!isHeaderName(modifier)) return `header rule on ${JSON.stringify(modifier)}: not a header name`;
      return [{ headers: { [modifier.toLowerCase()]: value } }];
    case 'params': {
      const pattern = `:${modifier}`;
      const segments = path.split('/');
      const index = segments.indexOf(pattern);
      if (index === -1)
        return `params rule on ${JSON.stringify(modifier)}: the route's path has no whole segment :${modifier}`;
      if (value === '' || value.includes('/')) return 'a route parameter is never empty nor holds a /';
      const encoded = safeEncode(value);
      if (encoded === undefined) return 'the value is not text a URL can carry (a lone surrogate)';
      // The route's own path ignores case; the parameter's value is compared exactly.
      const form = caseless(path);
      const pinned = typeof form === 'string' ? undefined : pinParam(form, modifier, encoded);
      if (pinned !== undefined) return [{ path: pinned }];
      segments[index] = encoded;
      return [{ path: segments.join('/') }];
    }
    case 'method':
      if (!/^[a-z]+$/.test(value))
        return `method rule ${JSON.stringify(value)} never matches (Mockoon compares the lower-case method)`;
      return [{ method: value.toUpperCase() }];
    case 'path': {
      if (!value.startsWith('/') || value.includes('?')) {
        return `path rule ${JSON.stringify(value)}: only a path without a query is carried over`;
      }
      const encoded = value.split('/').map((segment) => safeEncode(decodeOr(segment)));
      if (encoded.some((segment) => segment === undefined))
        return 'the path is not text a URL can carry (a lone surrogate)';
      return [{ path: encoded.join('/') }];
    }
    case 'body': {
      if (modifier === '') return [{ body: value }];
      if (modifier.startsWith('$'))
        return `body rule on the JSONPath ${JSON.stringify(modifier)}: only a dotted path of names is carried over`;
      const keys = modifier.split('.');
      if (!keys.every((key) => PLAIN_KEY.test(key) && !/^\d+$/.test(key))) {
        return `body rule on ${JSON.stringify(modifier)}: only a dotted path of names (no array index) is carried over`;
      }
      return bodyValues(value).map((one) => {
        let body: unknown = one;
        for (const key of [...keys].reverse()) body = { [key]: body };
        return { body };
      });
    }
    default:
      return `target ${target || '(none)'} has no equivalent (query, header, params, method, path and body are carried over)`;
  }
}

/**
 * A `regex` / `regex_i` rule on a query parameter, a header or the whole body
 * as the filter's regex form: Mockoon's `RegExp.test` finds the pattern
 * anywhere, so it is wrapped in `(?s).*(?:…).*` (`(?is)` for `regex_i`).
 */
function regexRuleFilters(target: string, modifier: string, ignoreCase: boolean, source: string): RuleFilters {
  const shown = `(${JSON.stringify(source.slice(0, 80))})`;
  if (/\{\{/.test(source) || /\{\{/.test(modifier)) return 'a templated rule value or modifier is not carried over';
  const regex: ValueMatcher = { matches: `(?${ignoreCase ? 'i' : ''}s).*(?:${source}).*` };
  const problem = valueMatcherProblem(regex);
  if (problem !== undefined) return `operator regex ${shown}: ${problem}`;
  switch (target) {
    case 'query':
      if (!PLAIN_KEY.test(modifier))
        return `query rule on ${JSON.stringify(modifier)}: only one plain parameter name is carried over`;
      return [{ query: { [modifier]: regex } }];
    case 'header':
      if (!isHeaderName(modifier)) return `header rule on ${JSON.stringify(modifier)}: not a header name`;
      return [{ headers: { [modifier.toLowerCase()]: regex } }];
    case 'body':
      if (modifier === '') return [{ bodyPatterns: [regex] }];
      return `operator regex ${shown} on the body field ${JSON.stringify(modifier)}: only a regex over the whole body is carried over`;
    default:
      return `operator regex ${shown} on ${target || '(none)'}: only query, header and whole-body regexes are carried over`;
  }
}

/**
 * The part of a `params` regex a path segment holds: `source` without groups nor alternation, its
 * `^` / `$` anchors kept as the segment's ends, every `.` as `[^/]`; `undefined` when it could match
 * a `/` (a negated class, `\\D \\W \\S \\p`, a class with `/`) or has a construct this subset leaves out.
 */
function segmentRegex(source: string): string | undefined {
  let inner = source;
  const start = inner.startsWith('^');
  if (start) inner = inner.slice(1);
  const end = inner.endsWith('$') && (/(\\*)\$$/.exec(inner)?.[1]?.length ?? 0) % 2 === 0;
  if (end) inner = inner.slice(0, -1);
  if (inner === '') return undefined;
  let out = '';
  let inClass = false;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (ch === '\\') {
      // \d \w \s, and an escaped punctuation character other than `/`.
      const next = inner[i + 1] ?? '';
      if (!/^[dws.\-\\^$*+?()[\]{}|]$/.test(next)) return undefined;
      out += ch + next;
      i++;
      continue;
    }
    if (inClass) {
      if (ch === '/' || ch === '[' || ch === '&') return undefined;
      if (ch === '-' && inner[i + 1] !== ']' && inner[i - 1] !== '[') {
        const low = (inner[i - 1] ?? '').charCodeAt(0);
        const high = (inner[i + 1] ?? '').charCodeAt(0);
        if (low <= 0x2f && high >= 0x2f) return undefined;
      }
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      if (inner[i + 1] === '^' || inner[i + 1] === ']') return undefined;
      inClass = true;
      out += ch;
    } else if (ch === '.') out += '[^/]';
    else if ('()|^$/'.includes(ch)) return undefined;
    else out += ch;
  }
  if (inClass) return undefined;
  return `${start ? '' : '[^/]*?'}${out}${end ? '' : '[^/]*?'}`;
}

/**
 * A `regex` / `regex_i` rule on a route parameter (`^9\\d+$`) as the route's case-insensitive path
 * with that parameter's group narrowed: `(?<id>(?-is:9\\d+))` (`(?is:` for `regex_i`). Mockoon tests
 * the decoded value; here the value as sent is, the same for the characters a client sends as they are.
 */
function paramRegexFilters(path: string, modifier: string, ignoreCase: boolean, source: string): RuleFilters {
  const shown = `operator regex (${JSON.stringify(source.slice(0, 80))}) on the route parameter ${JSON.stringify(modifier)}`;
  if (/\{\{/.test(source) || /\{\{/.test(modifier)) return 'a templated rule value or modifier is not carried over';
  if (!path.split('/').includes(`:${modifier}`)) return `${shown}: the route's path has no whole segment :${modifier}`;
  const segment = segmentRegex(source);
  if (segment === undefined) {
    return `${shown}: only a regex without groups nor alternation, that cannot match a /, is carried over for a route parameter (docs/import.md)`;
  }
  const form = caseless(path);
  if (typeof form === 'string' || !('matches' in form) || !form.matches.includes(`(?<${modifier}>[^/]+?)`)) {
    return `${shown}: the route's path has no regex form here (no letter in its literal segments)`;
  }
  const narrowed: ValueMatcher = {
    matches: form.matches.replace(`(?<${modifier}>[^/]+?)`, `(?<${modifier}>(?${ignoreCase ? '' : '-'}is:${segment}))`),
  };
  const problem = valueMatcherProblem(narrowed);
  if (problem !== undefined) return `${shown}: ${problem}`;
  return [{ path: narrowed }];
}

function decodeOr(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path filters `a` and `b` as one, or `undefined` when no path holds both. */
function mergePaths(a: RequestFilter['path'], b: NonNullable<RequestFilter['path']>): RequestFilter['path'] {
  if (a === undefined) return b;
  if (typeof a === 'string' && typeof b === 'string') {
    // A literal path narrows the route's pattern when the pattern takes it.
    return a === b ? b : (narrowPath(a, b) ?? narrowPath(b, a));
  }
  // Parameters pinned by params rules on the route's case-insensitive path.
  if (typeof a === 'object' && typeof b === 'object') return mergePins(a, b);
  // A literal path rule narrows a route's case-insensitive path (Mockoon checks both).
  if (typeof b === 'string' && valueMatches(a as ValueMatcher, b)) return b;
  return JSON.stringify(a) === JSON.stringify(b) ? b : undefined;
}

/** `a` and `b` together, or `undefined` when they cannot both hold (one field, two values). */
function mergeFilters(a: RequestFilter, b: RequestFilter): RequestFilter | undefined {
  const out: RequestFilter = { ...a };
  if (b.method !== undefined) {
    if (out.method !== undefined && out.method !== b.method) return undefined;
    out.method = b.method;
  }
  if (b.path !== undefined) {
    const path = mergePaths(out.path, b.path);
    if (path === undefined) return undefined;
    out.path = path;
  }
  for (const field of ['query', 'headers'] as const) {
    const extra = b[field];
    if (extra === undefined) continue;
    const merged: Record<string, string> = { ...(out[field] as Record<string, string> | undefined) };
    for (const [key, value] of Object.entries(extra)) {
      if (Object.hasOwn(merged, key) && merged[key] !== value) return undefined;
      merged[key] = value as string;
    }
    out[field] = merged;
  }
  if (b.bodyPatterns !== undefined) out.bodyPatterns = [...(out.bodyPatterns ?? []), ...b.bodyPatterns].slice(0, 16);
  if (Object.hasOwn(b, 'body')) {
    if (!Object.hasOwn(out, 'body')) out.body = b.body;
    else {
      const body = mergeBodies(out.body, b.body);
      if (body === undefined) return undefined;
      out.body = body;
    }
  }
  return out;
}

/** The literal `path` when `pattern` matches it, else `undefined`. */
function narrowPath(pattern: string, path: string): string | undefined {
  try {
    const parsed = parsePathPattern(pattern);
    return matchPathPattern(parsed, splitPath(path).map(decodeOr)) === undefined ? undefined : path;
  } catch (error) {
    if (error instanceof PathPatternError) return undefined;
    throw error;
  }
}

/** A callback as a left-out line names it: its name (else its id, its uuid), bare when plain, else quoted. */
function callbackName(callback: Record<string, unknown>): string {
  const name = [callback.name, callback.id, callback.uuid].find((one) => typeof one === 'string' && one !== '');
  if (typeof name !== 'string') return '(unnamed)';
  return /^[A-Za-z0-9_.-]{1,80}$/.test(name) ? name : quoted(name, 80);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Two JSON subsets as one (objects merged key by key), or `undefined` when they disagree. */
function mergeBodies(a: unknown, b: unknown): unknown {
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) {
      if (!Object.hasOwn(out, key)) out[key] = value;
      else {
        const merged = mergeBodies(out[key], value);
        if (merged === undefined) return undefined;
        out[key] = merged;
      }
    }
    return out;
  }
  return a === b ? a : undefined;
}

/** The route's path pattern here from Mockoon's prefix and endpoint, or why it cannot be one. */
function pathOf(prefix: string, endpoint: string): string | { why: string } {
  const path = `/${prefix}/${endpoint.replace(/ /g, '%20')}`.replace(/\/{2,}/g, '/');
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (/[()?+]/.test(trimmed) || /(^|\/):[A-Za-z_$][A-Za-z0-9_$]*[?*+]/.test(trimmed)) {
    return {
      why: `Express pattern syntax (optional parts, ( ), ?, +) is not carried over: paths here are literal segments, :params and a trailing *`,
    };
  }
  try {
    parsePathPattern(trimmed);
  } catch (error) {
    if (error instanceof PathPatternError) return { why: error.message };
    throw error;
  }
  return trimmed;
}

/** The routes in the order Mockoon tries them: its folders' order (`rootChildren`), else the list's. */
function orderedRoutes(environment: MockoonEnvironment): MockoonRoute[] {
  const routes = Array.isArray(environment.routes) ? environment.routes : [];
  if (!Array.isArray(environment.rootChildren)) return routes;
  const byUuid = new Map(routes.map((route) => [route.uuid, route]));
  const folders = new Map((environment.folders ?? []).map((folder) => [folder.uuid, folder]));
  const out: MockoonRoute[] = [];
  const seen = new Set<unknown>();
  const walk = (children: FolderChild[] | undefined, depth: number): void => {
    if (depth > 32 || !Array.isArray(children)) return;
    for (const child of children) {
      if (child?.type === 'route') {
        const route = byUuid.get(child.uuid);
        if (route !== undefined && !seen.has(route)) {
          seen.add(route);
          out.push(route);
        }
      } else if (child?.type === 'folder' && !seen.has(child.uuid)) {
        // Each folder once: a folder listed twice (or inside itself) is not walked again.
        seen.add(child.uuid);
        walk(folders.get(child.uuid)?.children, depth + 1);
      }
    }
  };
  walk(environment.rootChildren, 0);
  return out;
}

/** Everything one conversion shares. */
class Converter {
  readonly routes: Route[] = [];
  readonly leftOut: LeftOut[] = [];
  readonly collections = new Map<string, string>();
  /** Buckets by uuid, id and name: the collection it became, and its value as Mockoon serves it. */
  readonly buckets = new Map<string, { collection?: string; served?: string }>();
  readonly ids = new IdSet();
  readonly scenarios = new IdSet();
  readonly envHeaders: [string, string][] = [];
  latency = 0;

  constructor(
    readonly environment: MockoonEnvironment,
    readonly options: MockoonImportOptions,
  ) {}

  out(what: string, why: string): void {
    this.leftOut.push({ what, why });
  }

  readBuckets(): void {
    const names = new IdSet();
    for (const bucket of this.environment.data ?? []) {
      const label = str(bucket?.name) || str(bucket?.id) || 'a data bucket';
      const what = `data bucket ${JSON.stringify(label)}`;
      const value = str(bucket?.value);
      if (value.includes('{{')) {
        this.out(
          what,
          'its value is a template (rendered by Mockoon at start); write the items it should hold as JSON',
        );
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        this.out(what, 'its value is not JSON');
        continue;
      }
      const entry: { collection?: string; served?: string } = {
        served: typeof parsed === 'string' ? parsed : JSON.stringify(parsed),
      };
      if (Array.isArray(parsed) && parsed.every((item) => isObject(item))) {
        const collection = names.take(slugOf(str(bucket.name) || str(bucket.id), 'bucket'));
        if (COLLECTION_NAME.test(collection)) {
          entry.collection = collection;
          this.collections.set(collection, JsonText.parse(value).text);
        }
      }
      for (const key of [bucket.uuid, bucket.id, bucket.name])
        if (typeof key === 'string') this.buckets.set(key, entry);
    }
  }

  readEnvironment(): void {
    const env = this.environment;
    if (typeof env.latency === 'number' && env.latency > 0) this.latency = env.latency;
    for (const header of env.headers ?? []) {
      if (
        typeof header?.key !== 'string' ||
        typeof header.value !== 'string' ||
        header.key === '' ||
        header.value === ''
      ) {
        continue;
      }
      const problem = headerNameProblem(header.key) ?? headerValueProblem(header.value);
      if (problem !== undefined) this.out(`environment header ${JSON.stringify(header.key.slice(0, 80))}`, problem);
      else this.envHeaders.push([header.key, header.value]);
    }
    if (env.proxyMode === true)
      this.out(
        'proxyMode',
        'requests no route answers are not forwarded; add a proxy route (docs/files.md#record-and-replay)',
      );
    if (env.tlsOptions?.enabled === true)
      this.out('tlsOptions', "TLS is the daemon's (docs/https.md), not an endpoint's");
    // Each callback by name, what it would send with it: a route here sends no request when it answers.
    for (const callback of (Array.isArray(env.callbacks) ? env.callbacks : []).slice(0, 1000)) {
      const one = isObject(callback) ? callback : {};
      const method = str(one.method).toUpperCase() || 'GET';
      this.out(
        `callback ${callbackName(one)}`,
        `${method} ${quoted(str(one.uri), 200)} is not sent: a route here sends no request when it answers (a webhook delivery is docs/webhooks.md)`,
      );
    }
  }

  convert(): void {
    this.readEnvironment();
    this.readBuckets();
    const prefix = str(this.environment.endpointPrefix);
    for (const route of orderedRoutes(this.environment)) this.convertRoute(route, prefix);
  }

  convertRoute(route: MockoonRoute, prefix: string): void {
    const method = str(route.method).toLowerCase();
    const endpoint = str(route.endpoint);
    const where = `${method === '' ? 'ALL' : method.toUpperCase()} /${endpoint}`;
    if (method === 'options') {
      this.out(
        where,
        "an OPTIONS request is answered by mockpoint's own CORS preflight (any origin), never by a route",
      );
      return;
    }
    if (route.type === 'ws') {
      this.out(where, 'a WebSocket route is not carried over (write a websocket answer: docs/websocket.md)');
      return;
    }
    // Express's optional last parameter (`/users/:id?`): a route without it and one with it.
    const optional = /^(.*?)\/?:([A-Za-z_$][A-Za-z0-9_$]*)\?$/.exec(endpoint);
    if (optional !== null && route.type !== 'crud') {
      const [, before = '', name = ''] = optional;
      this.convertRoute({ ...route, endpoint: `${before}/:${name}`.replace(/^\//, '') }, prefix);
      this.convertRoute({ ...route, endpoint: before }, prefix);
      return;
    }
    const path = pathOf(prefix, endpoint);
    if (typeof path !== 'string') {
      this.out(where, path.why);
      return;
    }
    const responses = Array.isArray(route.responses) ? route.responses.filter((one) => isObject(one)) : [];
    if (responses.length === 0) {
      this.out(where, 'the route has no response');
      return;
    }
    const base = slugOf([method || 'all', prefix, endpoint].filter((part) => part !== '').join('-'), 'route');
    if (route.type === 'crud') {
      this.crudRoute(where, path, responses, base);
      return;
    }
    if (!/^[a-z]{1,16}$/.test(method)) {
      this.out(where, 'the route has no HTTP method (Mockoon answers no request with it)');
      return;
    }
    const match: RequestFilter = { path: caseless(path) };
    if (method !== 'all') match.method = method.toUpperCase();
    const defaultIndex = Math.max(
      0,
      responses.findIndex((one) => one.default === true),
    );
    const mode = str(route.responseMode);
    if (mode === 'SEQUENTIAL' || mode === 'RANDOM') {
      if (mode === 'RANDOM') {
        this.out(
          `${where}: responseMode RANDOM`,
          'no random choice here: the responses answer in turn, in order, starting again after the last',
        );
      }
      this.inTurn(where, match, responses, base);
      return;
    }
    if (mode !== 'DISABLE_RULES') {
      responses.forEach((response, index) => {
        if (Array.isArray(response.rules) && response.rules.length > 0) {
          this.ruleRoutes({ where, match, path, base }, response, index);
        }
      });
    }
    if (mode === 'FALLBACK') return;
    const answer = this.answerOf(
      `${where} response ${defaultIndex + 1}`,
      responses[defaultIndex] as MockoonResponse,
      match.method,
    );
    if (answer !== undefined) this.routes.push({ id: this.ids.take(base), match, answer });
  }

  /** The responses in turn: a scenario of the route's own, moved on by each answer, back to `started` after the last. */
  inTurn(where: string, match: RequestFilter, responses: MockoonResponse[], base: string): void {
    const answers = responses.map((response, index) =>
      this.answerOf(`${where} response ${index + 1}`, response, match.method),
    );
    const kept = answers.filter((answer) => answer !== undefined) as RouteAnswer[];
    if (kept.length === 0) return;
    if (kept.length === 1) {
      this.routes.push({ id: this.ids.take(base), match, answer: kept[0] as RouteAnswer });
      return;
    }
    const scenario = this.scenarios.take(slugOf(`mockoon-${base}`, 'mockoon').slice(0, 64));
    const stepName = (index: number) => (index === 0 ? 'started' : String(index + 1));
    kept.forEach((answer, index) => {
      this.routes.push({
        id: this.ids.take(`${base}-${index + 1}`),
        match: { ...match, state: { [scenario]: stepName(index) } },
        answer: { ...answer, setState: { [scenario]: stepName((index + 1) % kept.length) } },
      });
    });
  }

  /** `path` is the route's path as a pattern (`match.path` may be its regex form). */
  ruleRoutes(
    route: { where: string; match: RequestFilter; path: string; base: string },
    response: MockoonResponse,
    index: number,
  ): void {
    const { where, match, path, base } = route;
    const what = `${where} response ${index + 1}`;
    const rules = response.rules ?? [];
    const or = response.rulesOperator === 'OR';
    let alternatives: RequestFilter[] = or ? [] : [match];
    for (const [ruleIndex, rule] of rules.entries()) {
      const filters = ruleFilters(rule ?? {}, path);
      if (typeof filters === 'string') {
        const ruleWhat = `${what} rule ${ruleIndex + 1} (${str(rule?.target) || '?'} ${JSON.stringify(str(rule?.modifier))})`;
        if (or) {
          this.out(ruleWhat, filters);
          continue;
        }
        this.out(
          `${what}`,
          `its rule ${ruleIndex + 1} (${str(rule?.target) || '?'} ${JSON.stringify(str(rule?.modifier))}): ${filters}; with AND the response is left out (requests it would answer get the route's default)`,
        );
        return;
      }
      if (or) {
        for (const filter of filters) {
          const merged = mergeFilters(match, filter);
          if (merged !== undefined) alternatives.push(merged);
        }
        continue;
      }
      const next: RequestFilter[] = [];
      for (const alternative of alternatives) {
        for (const filter of filters) {
          const merged = mergeFilters(alternative, filter);
          if (merged !== undefined) next.push(merged);
        }
      }
      alternatives = next;
      if (alternatives.length > MAX_ALTERNATIVES) {
        this.out(
          what,
          `its rules expand to more than ${MAX_ALTERNATIVES} alternatives (body values that may be numbers or strings)`,
        );
        return;
      }
    }
    if (alternatives.length === 0) {
      if (!or) this.out(what, 'its rules can never all hold (one field, two values)');
      return;
    }
    const answer = this.answerOf(what, response, match.method);
    if (answer === undefined) return;
    for (const alternative of alternatives) {
      this.routes.push({ id: this.ids.take(`${base}-r${index + 1}`), match: alternative, answer });
    }
  }

  crudRoute(where: string, path: string, responses: MockoonResponse[], base: string): void {
    const [first] = responses;
    const bucket = this.buckets.get(str(first?.databucketID));
    if (bucket?.collection === undefined) {
      this.out(where, 'a CRUD route is carried over only over a data bucket that is a JSON array of objects');
      return;
    }
    if (path.endsWith('/*') || /\/:/.test(path)) {
      this.out(where, 'a CRUD route whose path has parameters or * is not carried over');
      return;
    }
    for (let index = 1; index < responses.length; index++) {
      this.out(`${where} response ${index + 1}`, "responses beside a CRUD route's data bucket are not carried over");
    }
    const headers = new HeaderList();
    for (const [key, value] of this.envHeaders) headers.set(key, value);
    for (const header of first?.headers ?? []) {
      if (
        typeof header?.key === 'string' &&
        typeof header.value === 'string' &&
        (headerNameProblem(header.key) ?? headerValueProblem(header.value)) !== undefined
      ) {
        this.out(`${where} header ${JSON.stringify(header.key.slice(0, 80))}`, 'not a header HTTP can send');
        continue;
      }
      if (
        typeof header?.key === 'string' &&
        typeof header.value === 'string' &&
        header.key !== '' &&
        header.value !== ''
      ) {
        headers.set(header.key, header.value);
      }
    }
    // The resource answers JSON with its own Content-Type; headers with templates are not the item's here.
    headers.delete('content-type');
    const idField = str(first?.crudKey) || 'id';
    const answer: RouteAnswer = {
      resource: idField === 'id' ? bucket.collection : { collection: bucket.collection, idField },
    };
    const kept = headers.answerHeaders();
    if (kept !== undefined) {
      for (const [name, value] of Object.entries(kept)) {
        if (FORBIDDEN_HEADERS.has(name) || [value].flat().some((one) => one.includes('{{'))) {
          this.out(`${where} header ${name}`, 'a templated or framing header is not carried over on a CRUD route');
          delete kept[name];
        }
      }
      if (Object.keys(kept).length > 0) answer.headers = kept;
    }
    const latency = (typeof first?.latency === 'number' ? first.latency : 0) + this.latency;
    if (latency > 0) this.out(`${where} latency`, 'a resource route answers without a delay');
    this.routes.push({ id: this.ids.take(base), match: { path }, answer });
  }

  /** The answer of one Mockoon response, or `undefined` (listed) when it cannot be one. */
  answerOf(what: string, response: MockoonResponse, method: string | undefined): RouteAnswer | undefined {
    const status = typeof response.statusCode === 'number' ? response.statusCode : 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      this.out(what, `status ${status} is not an answer of 200-599`);
      return undefined;
    }
    for (const used of (Array.isArray(response.callbacks) ? response.callbacks : []).slice(0, 100)) {
      const uuid = isObject(used) ? used.uuid : undefined;
      const callback = (Array.isArray(this.environment.callbacks) ? this.environment.callbacks : []).find(
        (one) => isObject(one) && one.uuid === uuid,
      );
      this.out(
        `${what} callback ${callbackName(isObject(callback) ? callback : { uuid })}`,
        'not sent when it answers (a webhook delivery is docs/webhooks.md)',
      );
    }
    const answer: RouteAnswer = { statusCode: status };
    const templating = response.disableTemplating !== true;
    const { headers, headerTemplates, own } = this.answerHeaders(what, response);
    let bodyText: string | undefined;
    let bodyBytes: Uint8Array | undefined;
    let template = false;
    const bodyType = str(response.bodyType) || 'INLINE';
    const isText = (text: string): { text: string; template: boolean } | undefined => {
      if (!templating || !text.includes('{{')) return { text, template: false };
      const converted = convertTemplate(text);
      if ('unsupported' in converted) {
        for (const helper of converted.unsupported) {
          this.out(
            `${what} template helper ${helper}`,
            'no equivalent here: the body is served as written, not rendered',
          );
        }
        return { text, template: false };
      }
      return converted;
    };
    if (bodyType === 'FILE') {
      const filePath = str(response.filePath);
      if (filePath === '') {
        // Mockoon serves the inline body when no file is given.
      } else if (filePath.includes('{{')) {
        this.out(what, `its file path ${quoted(filePath, 200)} is a template`);
        return undefined;
      } else {
        const bytes = this.options.readFile?.(filePath) ?? 'could not be read';
        if (typeof bytes === 'string') {
          this.out(what, `its file ${quoted(filePath, 200)} ${bytes}`);
          return undefined;
        }
        const base = filePath.split(/[\\/]/).at(-1) ?? filePath;
        const extension = base.includes('.') ? (base.split('.').at(-1) as string).toLowerCase() : '';
        const mime = MIME_TYPES[extension];
        if (own.get('content-type') === undefined && mime !== undefined)
          headers.set('Content-Type', setContentType(mime));
        if (response.sendFileAsBody !== true) {
          headers.set('Content-Disposition', `attachment; filename="${encodeURIComponent(base)}"`);
        }
        const decoded = utf8TextKeepingBom(bytes);
        if (mime !== undefined && TEMPLATED_TYPES.has(mime) && templating && decoded !== undefined) {
          // Rendered and sent as text by Express: a charset is added.
          const converted = isText(decoded);
          if (converted === undefined) return undefined;
          bodyText = converted.text;
          template = converted.template;
          headers.set('Content-Type', withCharset(headers.get('content-type')));
        } else bodyBytes = bytes;
        return this.finish(answer, headers, headerTemplates, template, bodyText, bodyBytes, response, status, method);
      }
    }
    if (bodyType === 'DATABUCKET') {
      const bucket = this.buckets.get(str(response.databucketID));
      if (bucket?.served === undefined) {
        this.out(what, `its data bucket ${JSON.stringify(str(response.databucketID))} is not carried over`);
        return undefined;
      }
      if (bucket.collection !== undefined) {
        this.out(
          `${what} data bucket`,
          'served as the bucket is at start: writes through a CRUD route do not change this answer',
        );
      }
      bodyText = bucket.served;
    } else if (bodyText === undefined) {
      const converted = isText(str(response.body));
      if (converted === undefined) return undefined;
      bodyText = converted.text;
      template = converted.template;
    }
    // Mockoon sets a JSON type as application/json (Express adds the charset), then sends the text.
    if (headers.get('content-type')?.includes('application/json'))
      headers.set('Content-Type', setContentType('application/json'));
    const type = headers.get('content-type');
    if (type !== undefined && CHARSET.test(type)) {
      // Mockoon sends the body in the charset named, and the header as it is.
      const bytes = encodeIn(bodyText, type);
      if (bytes === undefined) {
        this.out(what, `its Content-Type names a charset other than utf-8, latin1, ascii or utf-16le (${type})`);
        return undefined;
      }
      if (typeof bytes !== 'string') {
        bodyBytes = bytes;
        bodyText = undefined;
        if (template) {
          this.out(`${what} template`, 'a body in a charset other than utf-8 is served as written, not rendered');
          template = false;
        }
      }
    } else headers.set('Content-Type', withCharset(type));
    return this.finish(answer, headers, headerTemplates, template, bodyText, bodyBytes, response, status, method);
  }
  /** The headers of one Mockoon response (the environment's first), with those that are templates, and its own. */
  answerHeaders(what: string, response: MockoonResponse) {
    const headers = new HeaderList();
    const headerTemplates: [string, string][] = [];
    const setHeader = (key: string, value: string) => {
      const nameProblem = headerNameProblem(key);
      if (nameProblem !== undefined) {
        this.out(`${what} header ${JSON.stringify(key.slice(0, 80))}`, nameProblem);
        return;
      }
      if (FORBIDDEN_HEADERS.has(key.toLowerCase())) {
        this.out(`${what} header ${key}`, "hop-by-hop and framing headers are the server's");
        return;
      }
      const valueProblem = headerValueProblem(value);
      if (valueProblem !== undefined) {
        this.out(`${what} header ${key}`, `its value ${valueProblem}`);
        return;
      }
      if (!value.includes('{{')) {
        headers.set(key, key.toLowerCase() === 'content-type' ? setContentType(value) : value);
        return;
      }
      const converted = convertTemplate(value);
      if ('unsupported' in converted) {
        this.out(
          `${what} header ${key}`,
          `its template uses ${converted.unsupported.join(', ')}, which ${converted.unsupported.length === 1 ? 'has' : 'have'} no equivalent here`,
        );
        return;
      }
      headers.set(key, converted.text);
      headerTemplates.push([key, converted.text]);
    };
    for (const [key, value] of this.envHeaders) setHeader(key, value);
    const own = new HeaderList();
    for (const header of response.headers ?? []) {
      if (
        typeof header?.key === 'string' &&
        typeof header.value === 'string' &&
        header.key !== '' &&
        header.value !== ''
      ) {
        setHeader(header.key, header.value);
        own.set(header.key, header.value);
      }
    }
    return { headers, headerTemplates, own };
  }

  finish(
    answer: RouteAnswer,
    headers: HeaderList,
    headerTemplates: [string, string][],
    template: boolean,
    bodyText: string | undefined,
    bodyBytes: Uint8Array | undefined,
    response: MockoonResponse,
    status: number,
    method: string | undefined,
  ): RouteAnswer {
    if (BODILESS_STATUS.has(status)) {
      // Express sends no Content-Type and no body with these.
      headers.delete('content-type');
      bodyText = undefined;
      bodyBytes = undefined;
    }
    if (headerTemplates.length > 0 && !template && bodyText?.includes('{{')) {
      // The body is served as written, so the answer is not a template: its templated headers cannot render.
      for (const [key] of headerTemplates) {
        this.out(`header ${key}`, 'its template cannot render beside a body served as written');
        headers.delete(key);
      }
    } else if (headerTemplates.length > 0) template = true;
    const kept = headers.answerHeaders();
    if (kept !== undefined) answer.headers = kept;
    if (method !== 'HEAD') {
      if (bodyBytes !== undefined && bodyBytes.byteLength > 0) answer.bodyBase64 = toBase64(bodyBytes);
      else if (bodyText !== undefined && bodyText !== '') answer.body = bodyText;
    }
    const latency =
      (typeof response.latency === 'number' && response.latency > 0 ? response.latency : 0) + this.latency;
    if (latency > 0) answer.delay = Math.min(latency, DEFAULT_MAX_DELAY_MS);
    if (latency > DEFAULT_MAX_DELAY_MS) {
      this.out(
        `latency ${latency} ms`,
        `longer than the default delay bound (${DEFAULT_MAX_DELAY_MS} ms): answered after ${DEFAULT_MAX_DELAY_MS} ms`,
      );
    }
    if (template) answer.template = true;
    return answer;
  }
}

/**
 * The mock file of a Mockoon environment: one endpoint `name` (see the
 * module's comment). Throws `INVALID_MOCKOON` when the text is not one.
 */
export function mockoonMockFile(text: string, options: MockoonImportOptions): MockoonImport {
  const file = options.file ?? 'environment.json';
  let environment: MockoonEnvironment;
  try {
    environment = JSON.parse(text) as MockoonEnvironment;
  } catch (error) {
    throw new MockpointError('INVALID_MOCKOON', `${file}: not JSON: ${(error as Error).message}`);
  }
  if (!isObject(environment) || !Array.isArray(environment.routes)) {
    throw new MockpointError(
      'INVALID_MOCKOON',
      `${file}: a Mockoon environment is a JSON object with a "routes" list (as Mockoon saves it)`,
    );
  }
  const converter = new Converter(environment, options);
  converter.convert();
  if (converter.routes.length > MAX_ROUTES) {
    throw new MockpointError(
      'INVALID_MOCKOON',
      `${file}: ${converter.routes.length} routes, more than a name holds by default (${MAX_ROUTES}); split the environment into several`,
    );
  }
  const endpoint: Record<string, unknown> = { name: options.name, routes: converter.routes };
  if (converter.collections.size > 0) {
    endpoint.collections = Object.fromEntries(
      [...converter.collections].map(([name, items]) => [name, new JsonText(items)]),
    );
  }
  const out = stringifyExact({ version: MOCK_FILE_VERSION, endpoints: [endpoint] }, 2);
  return {
    text: `${out}\n`,
    routes: converter.routes.length,
    collections: [...converter.collections.keys()],
    leftOut: converter.leftOut,
  };
}
