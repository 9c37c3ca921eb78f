// Seeded fuzz of the OpenAPI documents a twin is made of (#71): random components nesting
// properties, arrays, allOf, anyOf and oneOf through $refs, with names of random code points, and
// random paths (collections, items, random segments), each PUT as a twin of the built daemon on
// 127.0.0.1 and then asked at every path: the PUT answers 200 or 400 INVALID_TWIN, a GET of the
// twin matches it, every request is answered below 500 with JSON within its bound, and
// /api/health answers throughout. Composition refers only to earlier components (no cycle through
// allOf/anyOf: those are #71 S5's, bounded and tested in twin-bounds.test.ts); properties and
// items may refer to any, themselves included. The same documents again as Swagger 2.0, which the
// daemon converts to 3.0 at PUT (core/src/openapi/swagger2.ts): random names in definitions, body
// parameters and a basePath reach the converter.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => {
  if (process.env.MOCKPOINT_PROBE_BIN === undefined) assertBuilt();
});
afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

const SEED = 71;
const DOCUMENTS = 15;
const COMPONENTS = 8;

/** A random name: random code points (lone surrogates made `?`: JSON carries them, but they make no text). */
function name(random: () => number, max: number): string {
  return randomText(random, 1 + Math.floor(random() * max)).replace(/[\uD800-\uDFFF]/g, '?');
}

const ref = (i: number) => ({ $ref: `#/components/schemas/S${i}` });

/** A random schema of component `index`: composition refers to earlier components only. */
function randomSchema(random: () => number, index: number, depth: number): Record<string, unknown> {
  const pick = random();
  const earlier = () => ref(Math.floor(random() * Math.max(index, 1)));
  if (depth > 2 || pick < 0.2) {
    const scalar = ['string', 'integer', 'number', 'boolean'][Math.floor(random() * 4)] as string;
    return random() < 0.2 ? { type: scalar, example: name(random, 10) } : { type: scalar };
  }
  if (pick < 0.35 && index > 0) {
    const list = Array.from({ length: 1 + Math.floor(random() * 3) }, () => earlier());
    return { [['allOf', 'anyOf', 'oneOf'][Math.floor(random() * 3)] as string]: list };
  }
  if (pick < 0.45)
    return { type: 'array', items: random() < 0.5 ? ref(Math.floor(random() * COMPONENTS)) : { type: 'string' } };
  const properties: Record<string, unknown> = {};
  for (let i = 0, n = Math.floor(random() * 6); i < n; i++) {
    properties[
      random() < 0.3 ? (['id', 'data', 'object', 'url'][Math.floor(random() * 4)] as string) : name(random, 30)
    ] = random() < 0.4 ? ref(Math.floor(random() * COMPONENTS)) : randomSchema(random, index, depth + 1);
  }
  return { type: 'object', properties, ...(random() < 0.2 ? { nullable: true } : {}) };
}

/** A random document: components S0..S7 and a few paths, collections among them. */
function randomDocument(random: () => number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < COMPONENTS; i++) schemas[`S${i}`] = randomSchema(random, i, 0);
  const answer = () => ({
    '200': { content: { 'application/json': { schema: ref(Math.floor(random() * COMPONENTS)) } } },
  });
  const paths: Record<string, unknown> = {};
  for (let i = 0, n = 1 + Math.floor(random() * 5); i < n; i++) {
    const base = `/${encodeURIComponent(name(random, 12))}`;
    paths[base] = { get: { responses: answer() }, post: { responses: answer() } };
    if (random() < 0.7) paths[`${base}/{id}`] = { get: { responses: answer() }, delete: { responses: answer() } };
    if (random() < 0.2) paths[`/${name(random, 12)}`] = { get: { responses: answer() } };
  }
  return { openapi: '3.0.0', info: { title: name(random, 20), version: '1' }, paths, components: { schemas } };
}

/**
 * The same document as Swagger 2.0 (converted to 3.0 at `PUT …/twin`): `definitions`, a response's
 * `schema` beside its description, a create's body as an `in: body` parameter of a random name, and
 * now and then a random `basePath` (a server of the converted document: the twin serves the paths).
 */
function asSwagger2(random: () => number, document: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(document).replaceAll('"#/components/schemas/', '"#/definitions/');
  const { info, paths, components } = JSON.parse(text) as {
    info: unknown;
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
    >;
    components: { schemas: unknown };
  };
  const converted: Record<string, unknown> = {};
  for (const [path, operations] of Object.entries(paths)) {
    converted[path] = Object.fromEntries(
      Object.entries(operations).map(([method, operation]) => {
        const schema = operation.responses['200']?.content['application/json']?.schema;
        const body =
          method === 'post'
            ? [{ in: 'body', name: name(random, 12), schema: ref(Math.floor(random() * COMPONENTS)) }]
            : [];
        const id = path.endsWith('{id}') ? [{ in: 'path', name: 'id', required: true, type: 'string' }] : [];
        return [
          method,
          { parameters: [...id, ...body], responses: { '200': { description: name(random, 8), schema } } },
        ];
      }),
    );
  }
  return {
    swagger: '2.0',
    info,
    ...(random() < 0.3 ? { basePath: `/${name(random, 6)}` } : {}),
    produces: ['application/json'],
    paths: converted,
    definitions: components.schemas,
  };
}

it(
  `makes twins of ${DOCUMENTS} random documents (seed ${SEED}), answers every path below 500 within bounds, and stays healthy`,
  {
    timeout: 120_000,
  },
  () => fuzzDocuments(SEED, (random) => randomDocument(random)),
);

it(
  `makes twins of ${DOCUMENTS} random Swagger 2.0 documents (seed ${SEED + 1}), converted at PUT, the same bounds`,
  {
    timeout: 120_000,
  },
  () => fuzzDocuments(SEED + 1, (random) => asSwagger2(random, randomDocument(random))),
);

async function fuzzDocuments(seed: number, make: (random: () => number) => Record<string, unknown>): Promise<void> {
  const daemon = await startDaemon({ args: ['--memory'], bin: process.env.MOCKPOINT_PROBE_BIN });
  // The twin code loads on a daemon's first twin (once, whatever the document): loaded before the watch.
  const first = { openapi: '3.0.0', paths: { '/a': { get: {} }, '/a/{id}': { get: {} } } };
  expect(
    (await requestJson(`${daemon.url}/api/endpoints/first/twin`, { method: 'PUT', body: { document: first } })).status,
  ).toBe(200);
  expect((await fetch(`${daemon.url}/endpoint/first/a`, { method: 'POST', body: '{}' })).status).toBeLessThan(500);
  const health = await watchWhileFuzzing(daemon);
  const random = prng(seed);
  const statuses = new Map<number, number>();
  let made = 0;
  for (let d = 0; d < DOCUMENTS; d++) {
    const document = make(random);
    const twin = `${daemon.url}/api/endpoints/doc${d}/twin`;
    const put = await requestJson(twin, { method: 'PUT', body: { document } });
    statuses.set(put.status, (statuses.get(put.status) ?? 0) + 1);
    if (put.status !== 200) {
      expect(put, JSON.stringify(document).slice(0, 500)).toMatchObject({
        status: 400,
        body: { error: { code: 'INVALID_TWIN' } },
      });
      continue;
    }
    made++;
    expect((await requestJson(twin)).body).toEqual(put.body);
    for (const template of Object.keys(document.paths as object)) {
      const path = template.replace('{id}', 'x1');
      for (const method of ['GET', 'POST']) {
        const response = await fetch(`${daemon.url}/endpoint/doc${d}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(
          response.status < 500,
          `${method} ${path} of ${JSON.stringify(document).slice(0, 800)} → ${response.status} ${text.slice(0, 300)}`,
        ).toBe(true);
        // An example of 8 components nesting at most 5 deep stays small.
        expect(text.length).toBeLessThan(2 * 1024 * 1024);
        if (text !== '') JSON.parse(text);
      }
    }
  }
  console.log(`twins made: ${made} of ${DOCUMENTS}; statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
  expect(made).toBeGreaterThan(DOCUMENTS / 2);
  await health.check();
}
