/**
 * What an operation outside a twin's collections answers (docs/design.md#twins-as-the-provider-answers, docs/twins.md): the
 * document's own example of its success answer where it gives one (GitHub's `GET /`, `/meta`,
 * `/emojis`; `POST /markdown`'s HTML, in its own media type), else one made from its schema.
 * With the profile's `implied` parameters, a `GET` of what the twin never made, while `unseen`
 * is `missing`, answers as the provider does: a list is empty (`[]`, or an envelope of
 * `total_count` and lists with nothing in them), and a path that names an object by any other
 * parameter is the provider's 404.
 *
 * @module
 */
import { type ExampleContext, resolve, type Schema } from './twin-example.js';

/** The first success answer of `operation`: its status and media types. */
function successOf(doc: Schema, operation: Schema): { status: number; content: Record<string, Schema> } {
  const responses = (operation.responses ?? {}) as Record<string, Schema>;
  // With no 2xx answer, the `default` one is the success (a Swagger 2.0 habit), answered as 200.
  const code =
    Object.keys(responses).find((key) => /^2\d\d$/.test(key)) ?? (responses.default === undefined ? '200' : 'default');
  const status = code === 'default' ? 200 : Number(code);
  return { status, content: (resolve(doc, responses[code]).content ?? {}) as Record<string, Schema> };
}

/**
 * The status of an operation's first success answer where the document declares it with no
 * content (OpenAI's `POST /realtime/calls/{call_id}/accept`: `200 OK`, no body); `undefined`
 * where it describes a body, or declares no success answer at all.
 */
export function contentless(doc: Schema, operation: Schema): number | undefined {
  const responses = (operation.responses ?? {}) as Record<string, Schema>;
  const code = Object.keys(responses).find((key) => /^2\d\d$/.test(key));
  if (code === undefined) return undefined;
  const content = resolve(doc, responses[code]).content;
  const empty = typeof content !== 'object' || content === null || Object.keys(content).length === 0;
  return empty ? Number(code) : undefined;
}

/** The status and JSON schema of an operation's first success answer. */
export function responseSchema(doc: Schema, operation: Schema): { status: number; schema: Schema | undefined } {
  const { status, content } = successOf(doc, operation);
  return { status, schema: content['application/json']?.schema as Schema | undefined };
}

/** The example a media type gives (its `example`, else its first named one's `value`). */
function exampleIn(doc: Schema, media: Schema | undefined): { value: unknown } | undefined {
  if (media === undefined) return undefined;
  if (media.example !== undefined) return { value: media.example };
  const named = Object.values((media.examples ?? {}) as Record<string, unknown>)[0];
  const value = named === undefined ? undefined : resolve(doc, named).value;
  return value === undefined ? undefined : { value };
}

/** The document's own example of an operation's JSON answer (`undefined`: it gives none). */
export function documentedJson(doc: Schema, operation: Schema): { value: unknown } | undefined {
  const found = exampleIn(doc, successOf(doc, operation).content['application/json']);
  return found === undefined ? undefined : { value: structuredClone(found.value) };
}

/**
 * The answer of an operation whose success is no JSON (`POST /markdown`'s `text/html`): its
 * media type and the document's example as text; `undefined` for JSON, or where it gives none.
 */
export function documentedText(
  doc: Schema,
  operation: Schema,
): { status: number; type: string; body: string } | undefined {
  const { status, content } = successOf(doc, operation);
  const type = Object.keys(content)[0];
  if (type === undefined || 'application/json' in content || /\bjson\b/.test(type)) return undefined;
  const example = exampleIn(doc, content[type]);
  if (example === undefined) return undefined;
  const { value } = example;
  // Text in UTF-8, as GitHub answers it (`text/html;charset=utf-8`).
  return {
    status,
    type: type.startsWith('text/') ? `${type}; charset=utf-8` : type,
    body: typeof value === 'string' ? value : JSON.stringify(value),
  };
}

/**
 * An empty answer of a list's schema: `[]` for an array (or one of arrays); for an envelope — `total_count` beside
 * lists and plain values (GitHub's search: `{ total_count, incomplete_results, items, search_type }`)
 * — its count 0, `incomplete_results` false, its lists empty, a plain value as `example` has it,
 * what it may leave out left out; `undefined` for anything else (an object holding an object,
 * GitHub's combined status with its `repository`, is no list).
 */
export function emptyList(
  ctx: ExampleContext,
  schema: Schema,
  example: () => unknown,
): unknown[] | Record<string, unknown> | undefined {
  const resolved = resolve(ctx.doc, schema);
  // One of a list and an object (GitHub's contents: a directory or a file) is no list alone; one
  // of lists only (GitHub's stargazers: users, or users with `starred_at`) is a list.
  const alternatives = (resolved.oneOf ?? resolved.anyOf) as Schema[] | undefined;
  if (alternatives !== undefined) {
    return alternatives.every((one) => resolve(ctx.doc, one).type === 'array') ? [] : undefined;
  }
  if (resolved.type === 'array') return [];
  const properties = resolved.properties as Record<string, unknown> | undefined;
  if (properties === undefined || !('total_count' in properties)) return undefined;
  const keys = Array.isArray(resolved.required) ? (resolved.required as string[]) : Object.keys(properties);
  const out: Record<string, unknown> = {};
  let lists = 0;
  let made: unknown;
  for (const key of keys) {
    const property = resolve(ctx.doc, properties[key]);
    if (key === 'total_count') out[key] = 0;
    else if (key === 'incomplete_results') out[key] = false;
    else if (property.type === 'array') {
      out[key] = [];
      lists++;
    } else if (property.type === 'object' || property.properties !== undefined || property.allOf !== undefined) {
      return undefined;
    } else {
      made ??= example() ?? {};
      out[key] = (made as Record<string, unknown>)[key] ?? null;
    }
  }
  return lists === 0 ? undefined : out;
}

/** The path parameters of `template` that name an object, the `implied` ones aside. */
export function namingParams(params: readonly string[], implied: readonly string[]): string[] {
  return params.filter((param) => !implied.includes(param));
}
