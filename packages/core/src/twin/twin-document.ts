/**
 * What a twin of a plain OpenAPI document (`mockpoint import --stateful`, no provider) reads
 * of the document itself where its profile says nothing (docs/twins.md, "Any OpenAPI document"):
 * a list's envelope and page parameters from the list operation, the update verb from the item
 * path, the error shape from the document's error answers. A profile that states one wins.
 *
 * @module
 */
import { allowsNull, resolve, type Schema } from './twin-example.js';
import { responseSchema } from './twin-outside.js';

/** What a list operation says of its answer and its pages (every member: absent where it says nothing). */
export interface DocumentList {
  /** The answer's array member holding the page (`items`); absent: the answer is the array. */
  items?: string;
  /** The answer's member holding the next page's cursor (`next_cursor`, `nextPageToken`). */
  cursor?: string;
  /** The answer's member saying whether more pages follow (`has_more`). */
  hasMore?: string;
  /** The answer's member counting every item (`total_count`). */
  total?: string;
  /** The answer's member linking to the next page (`nextPageLink`). */
  nextLink?: string;
  /** The answer's members naming the page's first and last item (`first_id`, `last_id`). */
  firstId?: string;
  lastId?: string;
  /**
   * Members among `cursor` and `nextLink` whose schema takes no `null` (Google's `nextPageToken`, a
   * plain string): left out of the last page rather than `null` there.
   */
  omitLast?: string[];
  /** The query parameter of the page size (`limit`), its default, minimum and maximum. */
  limit?: string;
  defaultLimit?: number;
  minLimit?: number;
  maxLimit?: number;
  /** The query parameter taking the cursor (`cursor`, `pageToken`). */
  after?: string;
  /** The query parameter of a page number (`page`). */
  page?: string;
}

const ITEMS = /^(items|data|results|records|entries|values|list|elements)$/i;
const CURSOR_MEMBER = /^(next([_-]?(cursor|page[_-]?token|token))?|cursor|continuation[_-]?token|end[_-]?cursor)$/i;
const HAS_MORE = /^(has[_-]?more|has[_-]?next([_-]?page)?|more)$/i;
const TOTAL = /^(total|total[_-]?(count|size|results))$/i;
const NEXT_LINK = /^next[_-]?(page[_-]?)?(link|url|href)$/i;
const FIRST_ID = /^first[_-]?id$/i;
const LAST_ID = /^last[_-]?id$/i;
const LIMIT_PARAM = /^(limit|page[_-]?size|per[_-]?page|max[_-]?results|count|size)$/i;
/** Page size parameters plain enough to be one even where the document types them as strings (Revert's `pageSize`). */
const LIMIT_PARAM_TEXT = /^(limit|page[_-]?size|per[_-]?page|max[_-]?results)$/i;
/** A cursor member in a URL's format is the next page's link (Django REST framework's `next`), not a cursor. */
const URL_FORMAT = /^(uri|url|uri-reference|iri)$/i;
const CURSOR_PARAM =
  /^(cursor|page[_-]?token|next[_-]?(token|cursor|page[_-]?token)|starting[_-]?after|after|continuation[_-]?token)$/i;

/** The members of an object schema, `allOf` parts merged. */
export function membersOf(doc: Schema, raw: unknown, depth = 0): Record<string, Schema> {
  const schema = resolve(doc, raw);
  const own = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, unknown>).map(([key, value]) => [
      key,
      resolve(doc, value),
    ]),
  );
  if (!Array.isArray(schema.allOf) || depth > 4) return own;
  return Object.assign({}, ...schema.allOf.map((part) => membersOf(doc, part, depth + 1)), own);
}

/**
 * A schema's type, read through `allOf` (Coda's `nextPageLink`: a `$ref` and `{ type: string }`)
 * and through an `anyOf`/`oneOf` of one type and `null` (OpenAI's `next`: a string or null).
 */
function typeOf(doc: Schema, schema: Schema, depth = 0): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((one) => one !== 'null') as string | undefined;
  if (schema.items !== undefined) return 'array';
  const choices = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (choices !== undefined && depth <= 4) {
    const types = choices.map((choice) => typeOf(doc, resolve(doc, choice), depth + 1)).filter((t) => t !== 'null');
    return types.length === 1 ? types[0] : undefined;
  }
  if (!Array.isArray(schema.allOf) || depth > 4) return undefined;
  for (const part of schema.allOf) {
    const type = typeOf(doc, resolve(doc, part), depth + 1);
    if (type !== undefined) return type;
  }
  return undefined;
}

/**
 * Whether a member's schema takes `null` (a `null` type, `nullable` where the document's version
 * reads it, an `anyOf`/`oneOf` branch of it, or no type at all).
 */
function takesNull(doc: Schema, schema: Schema, depth = 0): boolean {
  if (allowsNull(doc, schema)) return true;
  if (Array.isArray(schema.type)) return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && depth < 4) {
      return branches.some((branch) => takesNull(doc, resolve(doc, branch), depth + 1));
    }
  }
  return schema.type === undefined && typeOf(doc, schema) === undefined;
}

/** A whole number of a schema's `field` (`default`, `minimum`, `maximum`), not below `least`. */
function bound(schema: Schema, field: string, least: number): number | undefined {
  const value = schema[field];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= least ? value : undefined;
}

function named(doc: Schema, members: Record<string, Schema>, pattern: RegExp, type: string): string | undefined {
  return Object.keys(members).find((key) => pattern.test(key) && typeOf(doc, members[key] as Schema) === type);
}

/** What the list `operation` says of its answer (its first success answer's JSON schema) and its query parameters. */
export function documentList(doc: Schema, operation: Schema): DocumentList {
  const list: DocumentList = {};
  const { schema } = responseSchema(doc, operation);
  const resolved = schema === undefined ? {} : resolve(doc, schema);
  if (schema !== undefined && typeOf(doc, resolved) !== 'array') {
    const members = membersOf(doc, schema);
    const arrays = Object.keys(members).filter((key) => typeOf(doc, members[key] as Schema) === 'array');
    const items = arrays.find((key) => ITEMS.test(key)) ?? (arrays.length === 1 ? arrays[0] : undefined);
    if (items !== undefined) {
      list.items = items;
      const found = {
        cursor: named(doc, members, CURSOR_MEMBER, 'string'),
        hasMore: named(doc, members, HAS_MORE, 'boolean'),
        total: named(doc, members, TOTAL, 'integer') ?? named(doc, members, TOTAL, 'number'),
        nextLink: named(doc, members, NEXT_LINK, 'string'),
        firstId: named(doc, members, FIRST_ID, 'string'),
        lastId: named(doc, members, LAST_ID, 'string'),
      };
      // `next` as a URL (`format: uri`) links to the next page; as a plain string it is the cursor (Revert's).
      const cursorFormat = found.cursor === undefined ? undefined : members[found.cursor]?.format;
      if (typeof cursorFormat === 'string' && URL_FORMAT.test(cursorFormat)) {
        found.nextLink ??= found.cursor;
        found.cursor = undefined;
      }
      for (const [key, value] of Object.entries(found)) if (value !== undefined) list[key as 'cursor'] = value;
      const omitLast = [list.cursor, list.nextLink].filter(
        (key): key is string => key !== undefined && !takesNull(doc, members[key] as Schema),
      );
      if (omitLast.length > 0) list.omitLast = omitLast;
    }
  }
  const params = (Array.isArray(operation.parameters) ? operation.parameters : [])
    .map((param) => resolve(doc, param))
    .filter((param) => param.in === 'query' && typeof param.name === 'string');
  for (const param of params) {
    const name = param.name as string;
    const type = typeOf(doc, resolve(doc, param.schema));
    const sized = type === 'integer' || type === 'number' || (type === 'string' && LIMIT_PARAM_TEXT.test(name));
    if (list.limit === undefined && LIMIT_PARAM.test(name) && sized) {
      list.limit = name;
      const own = resolve(doc, param.schema);
      // The document's bounds, as it states them (`minimum: 0` takes an empty page); none stated, none made up.
      const [defaultLimit, minLimit, maxLimit] = [
        bound(own, 'default', 1),
        bound(own, 'minimum', 0),
        bound(own, 'maximum', 1),
      ];
      if (defaultLimit !== undefined) list.defaultLimit = defaultLimit;
      if (minLimit !== undefined) list.minLimit = minLimit;
      if (maxLimit !== undefined) list.maxLimit = maxLimit;
    } else if (list.after === undefined && CURSOR_PARAM.test(name) && type === 'string') list.after = name;
    else if (list.page === undefined && /^page$/i.test(name) && type === 'integer') list.page = name;
  }
  return list;
}

/** Where an answer holds its collection's item when it is not the item itself (`{ status, result }`). */
export interface DocumentItem {
  /** The answer's member holding the item (`result`, `data`). */
  member: string;
  /** The item's schema there (`undefined`: the document leaves it open, `result: {}`). */
  schema?: Schema;
  /** The member is a page of items (a create answering a list of what it made): the list's members. */
  list?: DocumentList;
}

/** An item schema's first branch where it is a choice (a conversation item: a message, a call, …). */
function liveItem(doc: Schema, schema: Schema): Schema {
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  return Array.isArray(choices) && choices.length > 0 ? resolve(doc, choices[0]) : schema;
}

/** Members that hold an answer's one item by their name alone, where their schema says nothing of it. */
const ITEM_MEMBER = /^(result|data|item|record|object|resource)$/i;

/**
 * Where the first success answer of a collection's create, read or update `operation` holds the
 * item, when the answer is an envelope around it rather than the item (Revert's `{ status, result }`,
 * JSON:API's `{ data }`): an object schema with no `id` of its own, whose one object member with an
 * `id` holds the item, else whose one open or object member named `result`, `data`, `item`, `record`,
 * `object` or `resource` does. `undefined`: the answer is the item (it has an `id`), or no member
 * holds it.
 */
export function documentItem(doc: Schema, operation: Schema): DocumentItem | undefined {
  const { schema } = responseSchema(doc, operation);
  if (schema === undefined) return undefined;
  const type = typeOf(doc, resolve(doc, schema));
  if (type !== undefined && type !== 'object') return undefined;
  const members = membersOf(doc, schema);
  if ('id' in members) return undefined;
  // A page of items with ids (OpenAI's `POST /conversations/{id}/items`: `{ object: "list", data, … }`).
  const list = documentList(doc, operation);
  const page = list.items === undefined ? undefined : resolve(doc, members[list.items]?.items);
  if (list.items !== undefined && page !== undefined && 'id' in membersOf(doc, liveItem(doc, page))) {
    return { member: list.items, schema: page, list };
  }
  const objects = Object.keys(members).filter((key) => {
    const memberType = typeOf(doc, members[key] as Schema);
    return memberType === undefined || memberType === 'object';
  });
  const withId = objects.filter((key) => 'id' in membersOf(doc, members[key]));
  if (withId.length > 1) return undefined;
  if (withId.length === 1) return { member: withId[0] as string, schema: members[withId[0] as string] as Schema };
  const named = objects.filter((key) => ITEM_MEMBER.test(key));
  if (named.length !== 1) return undefined;
  const member = named[0] as string;
  const open = Object.keys(membersOf(doc, members[member])).length === 0;
  return open ? { member } : { member, schema: members[member] as Schema };
}

/**
 * The field an item's path id reads where the read answers an item with no `id` (see
 * `TwinResource.keyField`): the id parameter less the collection's singular (`petName` of
 * `pets`: `name`), where the item's schema has that member as a string or integer.
 */
export function documentKey(doc: Schema, read: Schema | undefined, idParam: string, last: string): string | undefined {
  if (read === undefined) return undefined;
  const { schema } = responseSchema(doc, read);
  if (schema === undefined || documentItem(doc, read) !== undefined) return undefined;
  const members = membersOf(doc, schema);
  if (Object.keys(members).length === 0 || 'id' in members) return undefined;
  const singular = last.replace(/ies$/i, 'y').replace(/s$/i, '').toLowerCase();
  const rest = idParam.toLowerCase().startsWith(singular) ? idParam.slice(singular.length).replace(/^[_-]/, '') : '';
  // Only a name the parameter spells out beside the collection's (`petName`), not the parameter
  // itself (`{group_id}` of a membership answered with its own `group_id` stays keyed by `id`).
  const name = rest.charAt(0).toLowerCase() + rest.slice(1);
  const type = name === '' || name === 'id' ? undefined : typeOf(doc, members[name] ?? {});
  return type === 'string' || type === 'integer' ? name : undefined;
}

/**
 * The verb that updates an item at its own path as the document has it: `PATCH`, else `PUT`, else
 * `POST` (OpenAI's `POST /assistants/{assistant_id}` modifies the assistant); `undefined`: none.
 */
export function documentUpdate(item: Schema): 'PATCH' | 'PUT' | 'POST' | undefined {
  if (item.patch !== undefined) return 'PATCH';
  if (item.put !== undefined) return 'PUT';
  return item.post !== undefined ? 'POST' : undefined;
}

/** The error body of a document that describes none: a message and a stable code. */
export const GENERIC_ERROR = '{"message":"{message}","code":"{code}"}';

/** Placeholders by the error members' names: what each member of a documented error holds. */
const ERROR_MEMBERS: readonly [RegExp, string, string][] = [
  [/^(message|error[_-]?message|error[_-]?description|detail|msg)$/i, 'string', '"{message}"'],
  [/^(status[_-]?code|status|code)$/i, 'integer', '"{status}"'],
  [/^(status[_-]?code|status|code)$/i, 'number', '"{status}"'],
  [/^(code|error[_-]?code|reason[_-]?code)$/i, 'string', '"{code}"'],
  [/^(status[_-]?message|status[_-]?text|error|reason|title)$/i, 'string', '"{reason}"'],
  [/^(type|error[_-]?type)$/i, 'string', '"{type}"'],
  [/^(param|field|parameter)$/i, 'string', '"{param}"'],
];

/** The error template of one documented error schema (`undefined`: it holds no message). */
function templateOf(doc: Schema, raw: unknown, depth = 0): string | undefined {
  const members = membersOf(doc, raw);
  const parts: string[] = [];
  let message = false;
  for (const [key, member] of Object.entries(members)) {
    const type = typeOf(doc, member);
    if (type === 'object' && depth === 0) {
      // `{ "error": { "code", "message" } }`: the error object inside.
      const inner = templateOf(doc, member, 1);
      if (inner !== undefined) return `{${JSON.stringify(key)}:${inner}}`;
      continue;
    }
    const found = ERROR_MEMBERS.find(([pattern, want]) => pattern.test(key) && want === type);
    if (found === undefined) continue;
    if (found[2] === '"{message}"') message = true;
    parts.push(`${JSON.stringify(key)}:${found[2]}`);
  }
  // `{ "error": "…" }` alone (Revert's commonBaseError): its `error` is the message, not the HTTP reason.
  const error = parts.findIndex((part) => /^"error":"\{reason\}"$/i.test(part));
  if (!message && error !== -1) {
    parts[error] = (parts[error] as string).replace('{reason}', '{message}');
    message = true;
  }
  return message ? `{${parts.join(',')}}` : undefined;
}

/**
 * The error template of the document's error answers (their `4xx` JSON schemas, the one most
 * operations give), each member filled by its name (`message`, `code`, `statusCode`,
 * `statusMessage`); {@link GENERIC_ERROR} where the document describes none with a message.
 */
export function documentError(doc: Schema): string {
  const counted = new Map<string, { count: number; schema: unknown }>();
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Schema>)) {
    for (const operation of Object.values(resolve(doc, item))) {
      const responses = (operation as Schema | undefined)?.responses;
      if (typeof responses !== 'object' || responses === null) continue;
      for (const [status, answer] of Object.entries(responses as Record<string, unknown>)) {
        if (!/^4\d\d$/.test(status)) continue;
        const content = (resolve(doc, answer).content ?? {}) as Record<string, Schema>;
        const media = Object.entries(content).find(([type]) => /\bjson\b/.test(type))?.[1];
        if (media?.schema === undefined) continue;
        const key = JSON.stringify(media.schema);
        const seen = counted.get(key) ?? { count: 0, schema: media.schema };
        seen.count++;
        counted.set(key, seen);
      }
    }
  }
  const ranked = [...counted.values()].sort((a, b) => b.count - a.count);
  for (const { schema } of ranked) {
    const template = templateOf(doc, schema);
    if (template !== undefined) return template;
  }
  return GENERIC_ERROR;
}
