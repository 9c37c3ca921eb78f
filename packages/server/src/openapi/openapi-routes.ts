/**
 * An OpenAPI document (3.0, 3.1 or Swagger 2.0) as the routes of one endpoint:
 * one route per operation, its path from the template (`/pets/{petId}` →
 * `/pets/:petId`), its method, and the first success response's example, or a
 * value sampled from its schema when there is none. Each other documented
 * response, and each named example, is one more route before it that a
 * `Prefer: code=404` / `Prefer: example=name` / `Prefer: code=404, example=name`
 * request header picks (Prism's convention, matched by the one request filter).
 * Parsed and dereferenced by load-openapi.ts, sampled by openapi-sampler
 * (deterministic: the same document gives the same routes).
 *
 * @module
 */
import type { RouteValidation } from '@mockpoint/core';
import { PathPatternError, parsePathPattern, thrownMessage } from '@mockpoint/core/internal';
import { sample } from 'openapi-sampler';
import { expandedValues, SAMPLE_DEPTH, SampleWork } from './import-work.js';
import { isExampleObject, type LoadOpenApiOptions, loadOpenApi } from './load-openapi.js';
import { paramName, requestValidation } from './request-schemas.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * The work of one import, bounded (import-work.ts): an operation whose answer would
 * expand shared `$ref`s past these is left out, named; a document past the total is
 * refused. The largest public documents measured are far below: Stripe's at most
 * 5,479 schema nodes for one sample, GitHub's at most 1,877 values for one answer
 * and 0.23 M for all of its 1,855 operations' samples and answers.
 */
export const IMPORT_BOUNDS = {
  /** Schema nodes the sampler may visit for one answer. */
  sampleNodes: 50_000,
  /** Values of one answer's data, as the mock file writes it out (a tree). */
  answerValues: 200_000,
  /** Sampled schema nodes and answer values of the whole document. */
  total: 10_000_000,
} as const;

/** An operation whose answer would be too large; its reason goes to `skipped`. */
class TooLarge extends Error {}

/** What one import has spent of its total. */
interface Budget {
  work: SampleWork;
  spent: number;
  total: number;
}

function spend(budget: Budget, amount: number): void {
  budget.spent += amount;
  if (budget.spent > budget.total) {
    throw new Error(
      `its answers would take more than ${budget.total.toLocaleString('en')} sampled schema nodes and values (shared $refs expanded)`,
    );
  }
}

type Json = Record<string, unknown>;

/** One route of the import, in the mock file's shape. */
export interface ImportedRoute {
  id: string;
  match: { method: string; path: string; query?: Record<string, string>; headers?: { prefer: string } };
  /** With `--validate`: the operation's request schemas. */
  validate?: RouteValidation;
  answer: { statusCode: number; headers?: Record<string, string>; data?: unknown };
}

/** `c` as a percent-escape (`v` → `%76`). */
function escaped(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

/**
 * `/pets/{petId}` → `/pets/:petId`, `/compare/{base}...{head}` → `/compare/:base...:head`
 * (parameter names as {@link paramName} gives them). Literal text is kept, but
 * a `:` (`/{name}:cancel`), a letter, digit or `_` right after a parameter
 * (`/{id}v2`) and one right before a parameter (`/v{major}` → `/%76:major`) are
 * percent-encoded, so that none reads as part of a parameter, or keeps one from starting.
 */
export function routePath(template: string): string {
  let path = '';
  let afterParam = false;
  for (const piece of template.split(/(\{[^}]*\})/)) {
    if (piece.startsWith('{') && piece.endsWith('}')) {
      // A `:` right after a name character is literal text (`/items:batchGet`).
      const last = path.charAt(path.length - 1);
      if (!afterParam && /[A-Za-z0-9_]/.test(last) && !/%[0-9A-F]{2}$/.test(path)) {
        path = path.slice(0, -1) + escaped(last);
      }
      path += `:${paramName(piece.slice(1, -1))}`;
      afterParam = true;
    } else if (piece !== '') {
      const text = piece.replace(/:/g, '%3A');
      path += afterParam ? text.replace(/^[A-Za-z0-9_]/, escaped) : text;
      afterParam = false;
    }
  }
  return path;
}

function isJsonType(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

/** The response an operation answers with: the lowest 2xx, else `default` (as 200). */
function pickResponse(responses: Json): [number, Json] | undefined {
  const codes = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort();
  const code = codes[0] ?? (responses.default ? 'default' : undefined);
  if (code === undefined) return undefined;
  return [code === 'default' ? 200 : Number(code), responses[code] as Json];
}

/** A response's JSON media type and its content (OpenAPI 3) or the response itself (Swagger 2.0). */
function jsonMedia(response: Json, swagger2: boolean): { type: string; media: Json } | undefined {
  if (swagger2) {
    const examples = response.examples as Json | undefined;
    const type = Object.keys(examples ?? {}).find(isJsonType);
    return { type: type ?? 'application/json', media: response };
  }
  const content = (response.content ?? {}) as Record<string, Json>;
  const type = Object.keys(content).find(isJsonType);
  return type === undefined ? undefined : { type, media: content[type] as Json };
}

/**
 * An example's value as served: an Example Object a `$ref` put where the value
 * belongs (GitHub's description does) is its `value`; one with only an
 * `externalValue` (a URL, never fetched) is none, so the next example or the
 * schema's sample answers.
 */
function exampleValue(value: unknown): unknown {
  return isExampleObject(value) ? value.value : value;
}

/**
 * The body of a response: the named example when `example` is given, else its
 * example (or first of its examples), else a sample of its schema; `undefined`
 * when it has no JSON body.
 */
function responseBody(
  response: Json,
  swagger2: boolean,
  budget: Budget,
  example?: string,
): { type: string; data: unknown } | undefined {
  const found = jsonMedia(response, swagger2);
  if (found === undefined) return undefined;
  const { type, media } = found;
  if (swagger2) {
    const examples = media.examples as Json | undefined;
    if (examples && Object.hasOwn(examples, type)) return { type, data: examples[type] };
    const schema = media.schema as Json | undefined;
    return schema ? { type, data: sampled(schema, budget) } : undefined;
  }
  const examples = media.examples as Record<string, Json> | undefined;
  if (example !== undefined) return { type, data: exampleValue(examples?.[example]?.value) };
  if (media.example !== undefined) return { type, data: exampleValue(media.example) };
  const first = examples ? Object.values(examples).find((item) => exampleValue(item?.value) !== undefined) : undefined;
  if (first) return { type, data: exampleValue(first.value) };
  const schema = media.schema as Json | undefined;
  return schema ? { type, data: sampled(schema, budget) } : undefined;
}

/** The names of a response's examples that have a value (OpenAPI 3 `examples`), in document order. */
function exampleNames(response: Json, swagger2: boolean): string[] {
  if (swagger2) return [];
  const examples = jsonMedia(response, false)?.media.examples as Record<string, Json> | undefined;
  return Object.entries(examples ?? {})
    .filter(([, item]) => exampleValue(item?.value) !== undefined)
    .map(([name]) => name);
}

/** The answer of a response with status `statusCode` (its example `example`, when given). */
function answerOf(statusCode: number, response: Json | undefined, swagger2: boolean, budget: Budget, example?: string) {
  const answer: ImportedRoute['answer'] = { statusCode: statusCode >= 200 && statusCode <= 599 ? statusCode : 200 };
  const body = response ? responseBody(response, swagger2, budget, example) : undefined;
  if (body !== undefined && body.data !== undefined) {
    // An example (or a sample that holds one) may share parts: the file writes each out again.
    const values = expandedValues(body.data, IMPORT_BOUNDS.answerValues);
    if (values > IMPORT_BOUNDS.answerValues) {
      throw new TooLarge(
        `its ${statusCode} answer would be more than ${IMPORT_BOUNDS.answerValues.toLocaleString('en')} values (an example whose shared $refs expand)`,
      );
    }
    spend(budget, values);
    answer.headers = { 'content-type': body.type };
    answer.data = body.data;
  }
  return answer;
}

/**
 * The `Prefer` header values an operation answers besides its default, each
 * with its answer: `code=N` for every other documented status (200–599),
 * `example=name` for the default response's named examples, and
 * `code=N, example=name` for every response's.
 */
function preferredAnswers(
  responses: Json,
  picked: [number, Json] | undefined,
  swagger2: boolean,
  budget: Budget,
): { prefer: string; suffix: string; answer: ImportedRoute['answer'] }[] {
  const out: { prefer: string; suffix: string; answer: ImportedRoute['answer'] }[] = [];
  for (const [key, response] of Object.entries(responses)) {
    if (!/^\d{3}$/.test(key) || Number(key) < 200 || Number(key) > 599) continue;
    const code = Number(key);
    const isDefault = picked !== undefined && picked[1] === response;
    const names = exampleNames(response as Json, swagger2);
    if (isDefault) {
      for (const name of names) {
        out.push({
          prefer: `example=${name}`,
          suffix: name,
          answer: answerOf(code, response as Json, swagger2, budget, name),
        });
      }
    } else {
      out.push({ prefer: `code=${code}`, suffix: key, answer: answerOf(code, response as Json, swagger2, budget) });
    }
    for (const name of names) {
      out.push({
        prefer: `code=${code}, example=${name}`,
        suffix: `${key}-${name}`,
        answer: answerOf(code, response as Json, swagger2, budget, name),
      });
    }
  }
  return out;
}

/** A value sampled from `schema`, unless that would visit more than {@link IMPORT_BOUNDS}`.sampleNodes` schema nodes. */
function sampled(schema: Json, budget: Budget): unknown {
  const nodes = budget.work.of(schema, SAMPLE_DEPTH);
  if (nodes > IMPORT_BOUNDS.sampleNodes) {
    throw new TooLarge(
      `its schema would take more than ${IMPORT_BOUNDS.sampleNodes.toLocaleString('en')} schema nodes to sample (shared $refs expanded)`,
    );
  }
  spend(budget, nodes);
  return sample(schema as Parameters<typeof sample>[0], {
    skipReadOnly: false,
    skipWriteOnly: true,
    quiet: true,
  });
}

/** A route id from `text` (the name rule: 1–64 of A–Z a–z 0–9 _ -), unique among `taken`. */
function routeId(text: string, fallback: string, taken: Set<string>): string {
  const base =
    text
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Options for {@link openApiRoutes}. */
export interface OpenApiRoutesOptions {
  /** Give each route its operation's request schemas with this mode. @default no `validate` */
  validate?: Exclude<RouteValidation['mode'], 'off'>;
  /** Read `$ref`s into other files (see {@link LoadOpenApiOptions.fileRefs}). @default true */
  fileRefs?: boolean;
  /** Sampled schema nodes and answer values of the whole document. @default IMPORT_BOUNDS.total */
  maxWork?: number;
}

/** An operation the import leaves out, and why. */
export interface SkippedOperation {
  method: string;
  /** The path template as the document writes it. */
  path: string;
  operationId?: string;
  reason: string;
}

/** What {@link openApiRoutes} answers. */
export interface ImportedRoutes {
  routes: ImportedRoute[];
  /** Operations no route can express (e.g. two parameters with nothing between them), in document order. */
  skipped: SkippedOperation[];
}

/**
 * Why no route pattern can express `template` (as `pattern`), or `undefined`
 * when one can: e.g. two parameters with nothing between them (`/{a}{b}`).
 */
/**
 * The query a path key asks for (`beta=true` → `{ beta: 'true' }`), or why a route cannot match it
 * (a parameter named twice, or a `#`).
 */
function keyedQuery(text: string): Record<string, string> | string {
  if (/[#\s]/.test(text)) return `the query "${text.slice(0, 100)}" of the path must not contain # or white space`;
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(query, name)) return `the path's query names "${name.slice(0, 100)}" more than once`;
    query[name] = value;
  }
  return query;
}

function inexpressible(pattern: string): string | undefined {
  return thrownMessage(() => parsePathPattern(pattern), PathPatternError);
}

/**
 * The routes of the OpenAPI document at `path` (a file or URL the parser reads):
 * paths with fewer parameters first, so `/pets/mine` answers before `/pets/{id}`.
 * Operations whose path no route can express are listed in `skipped`, with the reason.
 */
export async function openApiRoutes(path: string, options: OpenApiRoutesOptions = {}): Promise<ImportedRoutes> {
  const doc = await loadOpenApi(path, { fileRefs: options.fileRefs ?? true });
  const swagger2 = typeof doc.swagger === 'string';
  // 3.0 and 2.0 schemas are draft 4 with extensions; 3.1's are 2020-12 already.
  const draft4 = swagger2 || String(doc.openapi).startsWith('3.0');
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const taken = new Set<string>();
  const budget: Budget = {
    work: new SampleWork(IMPORT_BOUNDS.sampleNodes),
    spent: 0,
    total: options.maxWork ?? IMPORT_BOUNDS.total,
  };
  const routes: (ImportedRoute & { params: number; order: number })[] = [];
  const skipped: SkippedOperation[] = [];
  for (const [key, item] of Object.entries(paths)) {
    // A path keyed with a query (`/responses?beta=true`): its path, and a match on those parameters.
    const q = key.indexOf('?');
    const template = q === -1 ? key : key.slice(0, q);
    const query = q === -1 ? undefined : keyedQuery(key.slice(q + 1));
    const pattern = routePath(template);
    const problem = typeof query === 'string' ? query : inexpressible(pattern);
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      // Each operation's work is bounded; between them, a daemon (MCP's import) answers other requests.
      await new Promise((resolve) => setImmediate(resolve));
      const skip = (reason: string) => {
        const { operationId } = operation;
        skipped.push({
          method: method.toUpperCase(),
          path: key,
          ...(typeof operationId === 'string' && { operationId }),
          reason,
        });
      };
      if (problem !== undefined) {
        skip(problem);
        continue;
      }
      const responses = (operation.responses ?? {}) as Json;
      const picked = pickResponse(responses);
      const params = (template.match(/\{/g) ?? []).length;
      let alternatives: ReturnType<typeof preferredAnswers>;
      let answer: ImportedRoute['answer'];
      let validate: RouteValidation | undefined;
      try {
        validate =
          options.validate === undefined
            ? undefined
            : requestValidation(item, operation, { mode: options.validate, swagger2, draft4 });
        if (validate !== undefined) {
          // The request schemas are written out whole, like an example.
          const values = expandedValues(validate, IMPORT_BOUNDS.answerValues);
          if (values > IMPORT_BOUNDS.answerValues) {
            throw new TooLarge(
              `its request schemas would be more than ${IMPORT_BOUNDS.answerValues.toLocaleString('en')} values (shared $refs expanded)`,
            );
          }
          spend(budget, values);
        }
        alternatives = preferredAnswers(responses, picked, swagger2, budget);
        answer = answerOf(picked?.[0] ?? 200, picked?.[1], swagger2, budget);
      } catch (error) {
        if (!(error instanceof TooLarge)) throw error;
        skip(error.message);
        continue;
      }
      const id = routeId(
        typeof operation.operationId === 'string' ? operation.operationId : `${method}${key}`,
        method,
        taken,
      );
      const keyed = query === undefined || typeof query === 'string' ? {} : { query };
      // The Prefer routes first: they match the same requests as the default route, and more.
      for (const alternative of alternatives) {
        routes.push({
          id: routeId(`${id}-${alternative.suffix}`, id, taken),
          match: { method: method.toUpperCase(), path: pattern, ...keyed, headers: { prefer: alternative.prefer } },
          ...(validate && { validate }),
          answer: alternative.answer,
          params,
          order: routes.length,
        });
      }
      routes.push({
        id,
        match: { method: method.toUpperCase(), path: pattern, ...keyed },
        ...(validate && { validate }),
        answer,
        params,
        order: routes.length,
      });
    }
  }
  // A path keyed with a query before the same path without: it matches the same requests, and more.
  const keyedFirst = (route: ImportedRoute) => (route.match.query === undefined ? 1 : 0);
  routes.sort((a, b) => a.params - b.params || keyedFirst(a) - keyedFirst(b) || a.order - b.order);
  return { routes: routes.map(({ params: _params, order: _order, ...route }) => route), skipped };
}
