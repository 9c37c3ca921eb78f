// A property-based fuzzer driven by the OpenAPI document: for every operation it
// generates requests from the documented parameters and request body (and
// malformed ones: wrong types, unknown fields, odd names, huge numbers, bad JSON,
// wrong content types and encodings, missing or wrong admin tokens, foreign
// origins and hosts), sends them to createApp() over a memory
// store, and checks each answer against the document: the status is one the
// operation documents, a JSON body validates against the documented schema, and
// nothing answers 5xx but a stored answer read at /endpoint/{name}.
// A failure prints fast-check's seed and path; FUZZ_SEED=<n> replays another seed.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: 'path' | 'query'; required: boolean; schema: Schema };
type Response = { description: string; content?: Record<string, { schema: Schema }> };
type Operation = {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, Response>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const SEED = Number(process.env.FUZZ_SEED ?? 1919);
const RUNS = 40;
/** No answer may take longer: long-polls are capped below, streams are cancelled once open. */
const ANSWER_MS = 5000;

/** Values of the JSON Schema `schema` (the subset zod writes), sometimes off its edges. */
function fromSchema(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => fromSchema(s, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({
        minLength: (schema.minLength as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxLength as number | undefined) ?? 20, 40),
      });
    case 'integer':
      return fc.integer({
        min: Math.max((schema.minimum as number | undefined) ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min((schema.maximum as number | undefined) ?? 1000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const items = (schema.items as Schema | undefined) ?? {};
      return fc.array(fromSchema(items, depth + 1), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 3, 3),
      });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const shape = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, fromSchema(s, depth + 1)]));
      const optional = Object.keys(properties).filter((k) => !required.has(k));
      const known = fc.record(shape, { requiredKeys: [...required] });
      if (optional.length === 0 && Object.keys(properties).length === 0) {
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      }
      return known;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value shaped like `schema`, or broken in one of the ways clients break things. */
function fuzzed(schema: Schema): fc.Arbitrary<unknown> {
  const valid = fromSchema(schema);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([v, k, x]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, [k]: x } : v)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(1e308, -1e308, 2 ** 53, -1, 0.5, '', 'x'.repeat(300), null, [], {}, true))
        .chain(([v, odd]) =>
          v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0
            ? fc.constantFrom(...Object.keys(v)).map((k) => ({ ...v, [k]: odd }))
            : fc.constant(odd),
        ),
    },
  );
}

/** `.` and `..`, also percent-encoded: URLs resolve them away. */
function isDotSegment(segment: string): boolean {
  return /^(\.|%2e){1,2}$/i.test(segment);
}

/** A path parameter: from its schema, a name the app has, or an odd string. */
function pathParam(param: Parameter): fc.Arbitrary<string> {
  // Never empty nor a dot segment: those make another URL (the URL parser resolves
  // them), not this operation with an odd value.
  return fc
    .oneof(
      { weight: 4, arbitrary: fromSchema(param.schema).map(String) },
      { weight: 3, arbitrary: fc.constantFrom('seeded', 'routed', 'queued') },
      {
        weight: 2,
        arbitrary: fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.constantFrom('..', '%', '.', 'a'.repeat(65), 'ünï', 'a b', '0'.repeat(300), '__proto__', 'constructor'),
        ),
      },
    )
    .filter((value) => value !== '' && !value.split('/').some(isDotSegment));
}

/** A query parameter: from its schema or odd; `wait` bounded so a long-poll cannot outlast the test. */
function queryParam(param: Parameter): fc.Arbitrary<string | undefined> {
  const value =
    param.name === 'wait'
      ? fc.oneof(fc.integer({ min: 0, max: 20 }).map(String), fc.constantFrom('-1', 'x', '1e3', ''))
      : fc.oneof(
          {
            weight: 4,
            arbitrary: fromSchema(param.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
          },
          { weight: 1, arbitrary: fc.constantFrom('', 'x', '-1', '1e400', '99999999999999999999', '{', 'null') },
        );
  return fc.option(value, { nil: undefined, freq: 2 });
}

interface Fuzzed {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body?: { text: string; contentType: string | undefined; encoding: string | undefined };
  /** Sent as Authorization; the app under test takes `Bearer ${TOKEN}`. */
  authorization: string | undefined;
  /** Sent as Origin: none, the app's own, or a page elsewhere. */
  origin: string | undefined;
  /** The URL's host: a local one, or a name the Host check refuses. */
  host: string;
}

/** The admin token of the app under test. */
const TOKEN = 'fuzz-token';

function requestOf(operation: Operation): fc.Arbitrary<Fuzzed> {
  const path = operation.parameters.filter((p) => p.in === 'path');
  const query = operation.parameters.filter((p) => p.in === 'query');
  const bodySchema = operation.requestBody?.content['application/json'].schema;
  const body = bodySchema
    ? fc.record({
        text: fc.oneof(
          { weight: 8, arbitrary: fuzzed(bodySchema).map((v) => JSON.stringify(v) ?? 'null') },
          {
            weight: 1,
            arbitrary: fc.constantFrom('', '{', '{"a":1,"a":2}', '[1,]', 'nul', '\u0000', '{"data":1e999}'),
          },
        ),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          undefined,
          'text/plain',
          'application/xml',
        ),
        encoding: fc.constantFrom(undefined, undefined, undefined, undefined, 'br', 'gzip'),
      })
    : fc.constant(undefined);
  return fc.record({
    params: fc.record(Object.fromEntries(path.map((p) => [p.name, pathParam(p)]))),
    query: fc.record(Object.fromEntries(query.map((p) => [p.name, queryParam(p)]))),
    body,
    authorization: fc.constantFrom(`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, undefined, 'Bearer wrong', 'Basic eDp5', ''),
    origin: fc.constantFrom(undefined, undefined, undefined, 'http://localhost', 'https://evil.example', 'null'),
    host: fc.constantFrom('localhost', 'localhost', 'localhost', '127.0.0.1:16540', '[::1]', 'evil.example'),
  }) as fc.Arbitrary<Fuzzed>;
}

/** The documented response for `status`: exact, else its range (`4XX`), else `default`. */
function documented(operation: Operation, status: number): Response | undefined {
  return (
    operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default
  );
}

/** An app with a record, a record with routes and a record with a queued answer, so names hit. */
async function seededApp(): Promise<MockpointApp> {
  // A small body limit, so that some generated bodies are too large.
  const app = createApp({ adminToken: TOKEN, maxBodyBytes: 400 });
  const put = (path: string, method: string, body: unknown) =>
    app.request(path, {
      method,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    });
  for (const name of ['seeded', 'routed', 'queued']) {
    expect((await put(`/api/endpoints/${name}`, 'PUT', { data: { name } })).status).toBeLessThan(300);
  }
  expect(
    (
      await put('/api/endpoints/routed/routes', 'POST', {
        routes: [{ id: 'user', match: { path: '/users/:id' }, answer: { data: { id: 1 } } }],
      })
    ).status,
  ).toBe(201);
  expect((await put('/api/endpoints/queued/queue', 'POST', { answers: [{ statusCode: 503 }] })).status).toBe(201);
  // A body that is not UTF-8: its journal entry carries bodyEncoding.
  expect(
    (await app.request('/endpoint/seeded', { method: 'POST', body: new Uint8Array([0xff, 0xfe, 0x00]) })).status,
  ).toBe(200);
  expect((await app.request('/endpoint/seeded', { method: 'POST', body: '{"ok":true}' })).status).toBe(200);
  return app;
}

async function answerOf(
  app: MockpointApp,
  method: string,
  url: string,
  init: RequestInit,
): Promise<globalThis.Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_MS} ms: ${method} ${url}`)), ANSWER_MS);
  });
  try {
    return await Promise.race([app.request(url, { ...init, method: method.toUpperCase() }), late]);
  } finally {
    clearTimeout(timer);
  }
}

const doc = (await (await createApp({ adminToken: TOKEN }).request('/api/openapi.json')).json()) as Document;
/** Every status seen, to check that the malformed requests reach the answers they aim at. */
const seen = new Set<number>();
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<Schema, ValidateFunction>();
function validator(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

describe(`the API against its OpenAPI document (fast-check, seed ${SEED}, ${RUNS} runs per operation)`, () => {
  it('documents operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  for (const { path, method, operation } of operations) {
    it(`${method.toUpperCase()} ${path}`, async () => {
      const app = await seededApp();
      const isRead = path.startsWith('/endpoint/');
      await fc.assert(
        fc.asyncProperty(requestOf(operation), async (request) => {
          let url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
            name === 'subpath'
              ? (request.params[name] ?? '').split('/').map(encodeURIComponent).join('/')
              : encodeURIComponent(request.params[name] ?? ''),
          );
          const search = new URLSearchParams();
          for (const [k, v] of Object.entries(request.query)) if (v !== undefined) search.set(k, v);
          if (search.size > 0) url += `?${search}`;
          const headers: Record<string, string> = {};
          if (request.body?.contentType) headers['content-type'] = request.body.contentType;
          if (request.body?.encoding) headers['content-encoding'] = request.body.encoding;
          if (request.authorization !== undefined) headers.authorization = request.authorization;
          if (request.origin !== undefined) headers.origin = request.origin;
          const response = await answerOf(app, method, `http://${request.host}${url}`, {
            headers,
            body: request.body?.text,
          });
          const where = `${method.toUpperCase()} http://${request.host}${url} ${JSON.stringify({ ...request, params: undefined, query: undefined })} → ${response.status}`;
          seen.add(response.status);
          const doc = documented(operation, response.status);
          const contentType = response.headers.get('content-type') ?? '';
          if (contentType.startsWith('text/event-stream')) {
            await response.body?.cancel();
            expect(doc?.content?.['text/event-stream'], `${where}: a stream where none is documented`).toBeDefined();
            return;
          }
          const text = await response.text();
          expect(doc, `${where}: status not documented (${text.slice(0, 200)})`).toBeDefined();
          // A stored answer read at /endpoint/{name} has the status it was given; nothing else is a 5xx.
          if (!isRead || operation.responses[String(response.status)]) {
            expect(response.status, `${where}: ${text.slice(0, 200)}`).toBeLessThan(500);
          }
          const schema = doc?.content?.['application/json']?.schema;
          if (schema && contentType.startsWith('application/json') && method !== 'head' && text !== '') {
            const validate = validator(schema);
            const body = JSON.parse(text) as unknown;
            expect(validate(body), `${where}: ${text.slice(0, 300)}\n${ajv.errorsText(validate.errors)}`).toBe(true);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }

  it('the requests reached every kind of answer', () => {
    // Created, read, bodiless, bad input, no token, refused host or origin, unknown
    // name, too large, bad encoding, and a queued 503 read back at /endpoint/{name}.
    for (const status of [200, 201, 204, 400, 401, 403, 404, 413, 415, 503])
      expect(seen, String(status)).toContain(status);
  });
});
