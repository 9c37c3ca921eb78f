/**
 * The create → read → list → update → delete walk over every collection a twin infers from an
 * OpenAPI document (docs/twins.md, "Any OpenAPI document"), with the twin's default `unseen`:
 * the object created, read back, found in its list's envelope (paged one item a page by the
 * document's cursor where the list has a cursor and a page size parameter), updated by the
 * document's update verb and read back changed, deleted with the document's success status,
 * then `404`. Every answer is checked against the document's response schemas for its operation
 * and status (core's verify/answer-conformance.ts). Objects the collection's path or a request
 * body needs (`/threads/{thread_id}/messages`, a required `assistant_id`) are created first in
 * the collection that names them.
 *
 * `walkDocument({ document, url, name })` puts the twin of the document (a JSON or YAML file,
 * gzipped or not) at `name` of the daemon at `url` and answers each collection's steps:
 * `passed`, `not in the document`, or what went wrong.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parseYaml } from '@mockpoint/core/files';
import { loadVerify } from '@mockpoint/core/internal';
import { isObject, resolved, sampleOf } from './schema-sample.js';

type Json = Record<string, unknown>;
type Conformance = InstanceType<Awaited<ReturnType<typeof loadVerify>>['AnswerConformance']>;

/** The walk's steps, in order. */
export const WALK_STEPS = ['create', 'read', 'list', 'update', 'delete', 'gone'] as const;
export type WalkStep = (typeof WALK_STEPS)[number];

/** What a step came to: `passed`, `not in the document`, or what went wrong. */
export type StepOutcome = string;

/** One collection's walk. */
export interface CollectionWalk {
  collection: string;
  steps: Partial<Record<WalkStep, StepOutcome>>;
}

/** The walk of a document's twin. */
export interface DocumentWalk {
  collections: CollectionWalk[];
  /** Answers checked against the document's response schemas. */
  answers: number;
}

const PASSED = 'passed';
const ABSENT = 'not in the document';
const CURSOR_PARAMS = ['after', 'cursor', 'starting_after', 'page_token', 'pageToken', 'next_token'];
const LIMIT_PARAMS = ['limit', 'page_size', 'pageSize', 'per_page', 'max_results'];
const CURSOR_MEMBERS = ['next_cursor', 'nextPageToken', 'next_page_token', 'cursor', 'next'];
const ARRAY_MEMBERS = ['data', 'items', 'results'];
/** Pages one list is followed through at most. */
const MAX_PAGES = 10;

/** A document file (JSON or YAML, `.gz` or not) parsed. */
export async function readDocument(path: string): Promise<Json> {
  const bytes = await readFile(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return (/^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as Json;
}

/** An answer as the walk read it. */
interface Answer {
  status: number;
  body: unknown;
  /** Schema findings of the answer, in words (`operation status at path: …`). */
  wrong: string[];
}

/** A made object: the concrete collection path it is in, and its id. */
interface Made {
  path: string;
  id: string;
}

class Walker {
  readonly #made = new Map<string, Promise<Made | string>>();
  readonly #making = new Set<string>();

  constructor(
    private readonly doc: Json,
    private readonly base: string,
    private readonly collections: readonly string[],
    private readonly conformance: Conformance,
  ) {}

  /** The operation `method` of path `template`, if the document has it. */
  operation(template: string, method: string): Json | undefined {
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    const item = resolved(this.doc, paths[template]);
    const operation = item[method];
    return isObject(operation) ? operation : undefined;
  }

  /** The item path of collection `template` (`/threads/{thread_id}`), if the document has one. */
  itemPath(template: string): string | undefined {
    const paths = Object.keys(isObject(this.doc.paths) ? this.doc.paths : {});
    return paths.find((path) => path.startsWith(`${template}/{`) && !path.slice(template.length + 1).includes('/'));
  }

  async send(method: string, path: string, body?: { json: unknown } | { form: FormData }): Promise<Answer> {
    const init: RequestInit = { method };
    if (body !== undefined && 'json' in body) {
      init.body = JSON.stringify(body.json);
      init.headers = { 'content-type': 'application/json' };
    } else if (body !== undefined) init.body = body.form;
    const response = await fetch(`${this.base}${path}`, init);
    const text = await response.text();
    const headers = Object.fromEntries(response.headers.entries());
    const findings = this.conformance.check({ method, path, status: response.status, headers, body: text });
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as its text.
    }
    return { status: response.status, body: parsed, wrong: findings.map((finding) => finding.message) };
  }

  /** The body an operation's request takes: JSON, or a multipart form (a binary member a small file). */
  async requestBody(operation: Json, extra: Json = {}): Promise<{ json: unknown } | { form: FormData } | undefined> {
    const requestBody = resolved(this.doc, operation.requestBody);
    const content = isObject(requestBody.content) ? requestBody.content : {};
    const type = Object.keys(content).find((key) => key.includes('json')) ?? Object.keys(content)[0];
    if (type === undefined) return undefined;
    const schema = resolved(this.doc, (content[type] as Json).schema);
    const value = { ...((await sampleOf(this.doc, schema, (field) => this.reference(field))) as Json), ...extra };
    if (!type.startsWith('multipart/')) return { json: value };
    const form = new FormData();
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [name, member] of Object.entries(value)) {
      const declared = resolved(this.doc, properties[name]);
      if (declared.format === 'binary' || declared.contentMediaType !== undefined) {
        form.append(name, new Blob(['walk'], { type: 'text/plain' }), 'walk.txt');
      } else form.append(name, typeof member === 'string' ? member : JSON.stringify(member));
    }
    return { form };
  }

  /** An id for a required `…_id` field: an object made in the collection it names, or none. */
  async reference(field: string): Promise<string | undefined> {
    const stem = field.replace(/_id$/, '');
    const fits = this.collections
      .filter((collection) => {
        const last = collection.split('/').pop() ?? '';
        return last === `${stem}s` || last === `${stem}es` || last === stem;
      })
      .sort((a, b) => a.split('{').length - b.split('{').length);
    const collection = fits[0];
    if (collection === undefined || this.#making.has(collection)) return undefined;
    const made = await this.shared(collection);
    return typeof made === 'string' ? undefined : made.id;
  }

  /** One object of `collection` made for others to name (made once). */
  shared(collection: string): Promise<Made | string> {
    let made = this.#made.get(collection);
    if (made === undefined) {
      made = this.create(collection).then((answer) => ('why' in answer ? answer.why : answer.made));
      this.#made.set(collection, made);
    }
    return made;
  }

  /** `template` with each path parameter an object made in the collection above it (or the one it names). */
  async concrete(template: string): Promise<string | { why: string }> {
    let out = template;
    for (const found of template.matchAll(/\{([^}]+)\}/g)) {
      const [whole, param] = found as unknown as [string, string];
      const above = template.slice(0, template.indexOf(whole) - 1);
      let id: string | undefined;
      if (this.collections.includes(above) && !this.#making.has(above)) {
        const made = await this.shared(above);
        // A parent the document gives no create (`/organization/users`) is named by any id.
        if (made === ABSENT) id = 'walk';
        else if (typeof made === 'string') return { why: `its parent in ${above} was not made: ${made}` };
        else id = made.id;
      } else id = await this.reference(param);
      out = out.replace(whole, encodeURIComponent(id ?? 'walk'));
    }
    return out;
  }

  /** An object created in `collection`: where, its id and the create's answer. */
  async create(collection: string): Promise<{ made: Made; answer: Answer } | { why: string }> {
    const operation = this.operation(collection, 'post');
    if (operation === undefined) return { why: ABSENT };
    this.#making.add(collection);
    try {
      const path = await this.concrete(collection);
      if (typeof path !== 'string') return path;
      const answer = await this.send('POST', path, await this.requestBody(operation));
      const id = idOf(answer.body);
      if (answer.status >= 300 || id === undefined) return { why: said('create', answer, 'a 2xx with an id') };
      if (answer.wrong.length > 0) return { why: said('create', answer) };
      return { made: { path, id }, answer };
    } finally {
      this.#making.delete(collection);
    }
  }
}

/**
 * The id of a created object: the body's own, its one member's that holds an object with an id,
 * or (a create answering a page of what it made) the page's one item's.
 */
function idOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  if (typeof body.id === 'string' || typeof body.id === 'number') return String(body.id);
  for (const value of Object.values(body)) {
    if (isObject(value) && (typeof value.id === 'string' || typeof value.id === 'number')) return String(value.id);
  }
  const page = pageItems(body);
  return page?.length === 1 ? idOf(page[0]) : undefined;
}

/** What went wrong with a step's answer, in one line. */
function said(step: string, answer: Answer, expected?: string): string {
  if (answer.wrong.length > 0) return `${step}: ${answer.status} breaks the schema: ${answer.wrong.join('; ')}`;
  return `${step}: expected ${expected}, answered ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`;
}

/** A list page's items: the body, or its array member. */
function pageItems(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (!isObject(body)) return undefined;
  for (const name of ARRAY_MEMBERS) if (Array.isArray(body[name])) return body[name] as unknown[];
  return Object.values(body).find((value) => Array.isArray(value)) as unknown[] | undefined;
}

/** The cursor of the next page a list answered: its cursor member, or (`has_more`) its last item's id. */
function nextCursor(body: unknown, items: unknown[]): string | undefined {
  if (!isObject(body)) return undefined;
  for (const name of CURSOR_MEMBERS) if (typeof body[name] === 'string' && body[name] !== '') return body[name];
  if (body.has_more !== true && body.hasNextPage !== true) return undefined;
  if (typeof body.last_id === 'string') return body.last_id;
  return idOf({ last: items.at(-1) });
}

/** The parameter names of an operation (`in: query`). */
function queryParams(doc: Json, operation: Json): string[] {
  const params = Array.isArray(operation.parameters) ? operation.parameters : [];
  return params
    .map((param) => resolved(doc, param))
    .flatMap((param) => (param.in === 'query' ? [String(param.name)] : []));
}

/** The first 2xx status the operation declares. */
function successOf(operation: Json): number | undefined {
  const responses = isObject(operation.responses) ? Object.keys(operation.responses) : [];
  const found = responses.find((key) => /^2\d\d$/.test(key));
  return found === undefined ? undefined : Number(found);
}

/** A member the update can change and the read answer: `metadata`, else a plain string member. */
function changeOf(doc: Json, operation: Json): Json {
  const requestBody = resolved(doc, operation.requestBody);
  const content = isObject(requestBody.content) ? requestBody.content : {};
  const media = Object.values(content)[0];
  const schema = resolved(doc, isObject(media) ? media.schema : undefined);
  const properties = isObject(schema.properties) ? schema.properties : {};
  if ('metadata' in properties) return { metadata: { walk: 'updated' } };
  for (const [name, member] of Object.entries(properties)) {
    const declared = resolved(doc, member);
    if (
      declared.type === 'string' &&
      declared.enum === undefined &&
      declared.format === undefined &&
      !name.endsWith('_id')
    )
      return { [name]: 'walked' };
  }
  return {};
}

/** Whether `read` holds every member of `change` as sent. */
function holds(read: unknown, change: Json): boolean {
  const item = isObject(read) && read.id === undefined ? Object.values(read).find(isObject) : read;
  return Object.entries(change).every(
    ([name, value]) => JSON.stringify((item as Json)?.[name]) === JSON.stringify(value),
  );
}

async function walkCollection(walker: Walker, doc: Json, collection: string): Promise<CollectionWalk> {
  const steps: CollectionWalk['steps'] = {};
  const out = { collection, steps };
  const item = walker.itemPath(collection);
  const created = await walker.create(collection);
  if ('why' in created) {
    steps.create = created.why;
    return out;
  }
  steps.create = PASSED;
  const { made } = created;
  const at = `${made.path}/${encodeURIComponent(made.id)}`;
  const itemOp = (method: string) => (item === undefined ? undefined : walker.operation(item, method));

  if (itemOp('get') === undefined) steps.read = ABSENT;
  else {
    const read = await walker.send('GET', at);
    steps.read =
      read.status === 200 && read.wrong.length === 0 && idOf(read.body) === made.id
        ? PASSED
        : said('read', read, `200 of id ${made.id}`);
  }

  const list = walker.operation(collection, 'get');
  if (list === undefined) steps.list = ABSENT;
  else steps.list = await walkList(walker, doc, collection, made, list);

  const verb = ['patch', 'put', 'post'].find((method) => itemOp(method) !== undefined);
  const update = verb === undefined ? undefined : itemOp(verb);
  if (verb === undefined || update === undefined) steps.update = ABSENT;
  else {
    const change = changeOf(doc, update);
    const answer = await walker.send(verb.toUpperCase(), at, await walker.requestBody(update, change));
    if (answer.status >= 300 || answer.wrong.length > 0) steps.update = said('update', answer, 'a 2xx');
    else if (itemOp('get') !== undefined) {
      const again = await walker.send('GET', at);
      steps.update = holds(again.body, change)
        ? PASSED
        : said('update read back', again, `${JSON.stringify(change)} kept`);
    } else steps.update = PASSED;
  }

  const remove = itemOp('delete');
  if (remove === undefined) {
    steps.delete = ABSENT;
    return out;
  }
  const expected = successOf(remove);
  const deleted = await walker.send('DELETE', at);
  steps.delete =
    deleted.status === expected && deleted.wrong.length === 0
      ? PASSED
      : said('delete', deleted, `${expected} as the document says`);
  if (itemOp('get') === undefined) {
    steps.gone = ABSENT;
    return out;
  }
  const gone = await walker.send('GET', at);
  steps.gone = gone.status === 404 && gone.wrong.length === 0 ? PASSED : said('read after delete', gone, '404');
  return out;
}

/** The list step: the made object in the list's envelope; paged one a page by the cursor where the list has one. */
async function walkList(walker: Walker, doc: Json, collection: string, made: Made, list: Json): Promise<StepOutcome> {
  const whole = await walker.send('GET', made.path);
  const items = pageItems(whole.body);
  if (whole.status !== 200 || whole.wrong.length > 0 || items === undefined)
    return said('list', whole, '200 with a page');
  if (!items.some((item) => idOf({ item }) === made.id))
    return `list: ${made.id} not in ${JSON.stringify(whole.body).slice(0, 200)}`;
  const params = queryParams(doc, list);
  const cursor = CURSOR_PARAMS.find((name) => params.includes(name));
  const limit = LIMIT_PARAMS.find((name) => params.includes(name));
  if (cursor === undefined || limit === undefined) return PASSED;
  const second = await walker.create(collection);
  if ('why' in second) return `list: a second object for paging was not made: ${second.why}`;
  const wanted = [made.id, second.made.id];
  const seen: string[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `${limit}=1${next === undefined ? '' : `&${cursor}=${encodeURIComponent(next)}`}`;
    const answer = await walker.send('GET', `${made.path}?${query}`);
    const pageOf = pageItems(answer.body);
    if (answer.status !== 200 || answer.wrong.length > 0 || pageOf === undefined)
      return said('list page', answer, '200 with a page');
    seen.push(...pageOf.flatMap((item) => idOf({ item }) ?? []));
    next = nextCursor(answer.body, pageOf);
    if (next === undefined) break;
  }
  const missing = wanted.filter((id) => !seen.includes(id));
  return missing.length === 0
    ? PASSED
    : `list: paged by ${cursor} and ${limit}=1, ${missing.join(', ')} never listed (saw ${seen.join(', ')})`;
}

/**
 * Each collection's walk in one line: the steps that passed, then those that failed and those the
 * document has not (`create read delete gone | fails: list update | absent: …`), for a test to hold
 * whole against what it expects.
 */
export function summaryOf(walk: DocumentWalk): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { collection, steps } of walk.collections) {
    const named = (pick: (outcome: StepOutcome) => boolean) =>
      WALK_STEPS.filter((step) => steps[step] !== undefined && pick(steps[step] as StepOutcome)).join(' ');
    const passed = named((outcome) => outcome === PASSED);
    const failed = named((outcome) => outcome !== PASSED && outcome !== ABSENT);
    const absent = named((outcome) => outcome === ABSENT);
    out[collection] = [passed, failed && `fails: ${failed}`, absent && `absent: ${absent}`].filter(Boolean).join(' | ');
  }
  return out;
}

/** Puts the twin of the document at `path` as `name` of the daemon at `url`, and walks every collection it infers. */
export async function walkDocument(options: { document: string; url: string; name: string }): Promise<DocumentWalk> {
  const doc = await readDocument(options.document);
  const put = await fetch(`${options.url}/api/endpoints/${options.name}/twin`, {
    method: 'PUT',
    body: JSON.stringify({ document: doc }),
    headers: { 'content-type': 'application/json' },
  });
  if (put.status >= 300) throw new Error(`PUT twin: ${put.status} ${await put.text()}`);
  const twin = (await (await fetch(`${options.url}/api/endpoints/${options.name}/twin`)).json()) as {
    collections: string[];
  };
  const { readOpenApi, AnswerConformance } = await loadVerify();
  const conformance = new AnswerConformance(readOpenApi(doc));
  const walker = new Walker(doc, `${options.url}/endpoint/${options.name}`, twin.collections, conformance);
  const collections: CollectionWalk[] = [];
  for (const collection of twin.collections) collections.push(await walkCollection(walker, doc, collection));
  return { collections, answers: conformance.checked };
}
