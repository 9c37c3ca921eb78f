import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const SDL = `"""A person"""
type User {
  id: ID!
  name: String!
  age: Int
  score: Float
  active: Boolean!
  joined: DateTime!
  homepage: URI
  role: Role!
  friends: [User!]!
}

enum Role { ADMIN MEMBER }

scalar DateTime
scalar URI

type Query {
  user(id: ID!): User
  users(first: Int): [User!]!
}

type Mutation {
  rename(id: ID!, name: String!): User!
}
`;

function put(app: MockpointApp, name: string, body: string) {
  return app.request(`/api/endpoints/${name}/graphql`, { method: 'PUT', body });
}

function gql(app: MockpointApp, name: string, body: unknown, path = '') {
  return app.request(`/endpoint/${name}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('/api/endpoints/{name}/graphql', () => {
  it('keeps the SDL byte for byte (raw or as { schema }), replaces and removes it; the record keeps its four fields', async () => {
    const app = createApp();
    expect(await errorOf(await app.request('/api/endpoints/gh/graphql'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    const created = await put(app, 'gh', SDL);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ schema: SDL });
    expect(await (await app.request('/api/endpoints/gh/graphql')).json()).toEqual({ schema: SDL });
    const other = 'type Query { hello: String }  # kept\r\n';
    const replaced = await put(app, 'gh', JSON.stringify({ schema: other }));
    expect(replaced.status).toBe(200);
    expect(await (await app.request('/api/endpoints/gh/graphql')).json()).toEqual({ schema: other });
    expect((await app.request('/api/endpoints/gh')).status).toBe(404);
    expect((await app.request('/api/endpoints/gh/graphql', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/api/endpoints/gh/graphql')).status).toBe(404);
  });

  it('the endpoint list shows a name that has only a schema, in name order among the others, and counts it', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'b-record', data: 1 }) });
    await put(app, 'b-record', 'type Query { a: Int }');
    await put(app, 'a-schema', 'type Query { a: Int }');
    await put(app, 'c-schema', 'type Query { a: Int }');
    const list = (await (await app.request('/api/endpoints?summary=true')).json()) as {
      endpoints: Array<{ name: string; graphql?: true }>;
      total: number;
    };
    expect(list.endpoints.map((entry) => [entry.name, entry.graphql ?? false])).toEqual([
      ['a-schema', true],
      ['b-record', false],
      ['c-schema', true],
    ]);
    expect(list.total).toBe(3);
    const page = (await (await app.request('/api/endpoints?limit=1&after=a-schema')).json()) as {
      endpoints: Array<{ name: string }>;
      next: string | null;
    };
    expect(page.endpoints.map((entry) => entry.name)).toEqual(['b-record']);
    expect(page.next).toBe('b-record');
  });

  it('refuses an invalid schema with INVALID_GRAPHQL_SCHEMA naming the line and column, and a large one', async () => {
    const app = createApp({ maxGraphqlSchemaBytes: 2048 });
    expect(await errorOf(await put(app, 'gh', 'type Query {\n  user: Usr\n}\n'))).toMatchObject({
      status: 400,
      code: 'INVALID_GRAPHQL_SCHEMA',
      message: 'invalid GraphQL schema: line 2, column 9: Unknown type "Usr".',
    });
    expect(await errorOf(await put(app, 'gh', 'type Query {\n  user: \n'))).toMatchObject({
      status: 400,
      code: 'INVALID_GRAPHQL_SCHEMA',
      message: 'invalid GraphQL schema: line 3, column 1: Syntax Error: Expected Name, found <EOF>.',
    });
    // A field defined twice (as GitHub's published schema did in @octokit/graphql-schema 15.25-15.26): its second definition.
    expect(await errorOf(await put(app, 'gh', 'type Query {\n  a: Int\n  a: Int\n}'))).toMatchObject({
      code: 'INVALID_GRAPHQL_SCHEMA',
      message: 'invalid GraphQL schema: line 3, column 3: Field "Query.a" can only be defined once.',
    });
    expect(await errorOf(await put(app, 'gh', 'type User { id: ID }'))).toMatchObject({
      code: 'INVALID_GRAPHQL_SCHEMA',
      message: 'invalid GraphQL schema: Query root type must be provided.',
    });
    expect(await errorOf(await put(app, 'gh', JSON.stringify({ schema: 1 })))).toMatchObject({
      code: 'INVALID_GRAPHQL_SCHEMA',
    });
    expect(
      await errorOf(await put(app, 'gh', JSON.stringify({ schema: 'type Query { a: String }\n# \ud800' }))),
    ).toMatchObject({
      code: 'INVALID_GRAPHQL_SCHEMA',
    });
    expect(await errorOf(await put(app, 'gh', `type Query { a: String }\n#${'x'.repeat(2048)}`))).toMatchObject({
      status: 413,
      code: 'GRAPHQL_SCHEMA_TOO_LARGE',
    });
    expect((await app.request('/api/endpoints/gh/graphql')).status).toBe(404);
  });
});

describe('schema mode', () => {
  it('answers a valid operation with data shaped by the schema, the same for the same document and variables', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    const query =
      'query One($id: ID!) { user(id: $id) { id name age score active joined homepage role friends { name } } }';
    const first = await gql(app, 'gh', { query, variables: { id: '7' } }, '/graphql');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await first.text();
    const { data } = JSON.parse(text) as { data: { user: Record<string, unknown> } };
    const user = data.user;
    expect(typeof user.id).toBe('string');
    expect(typeof user.name).toBe('string');
    expect(Number.isInteger(user.age)).toBe(true);
    expect(typeof user.score).toBe('number');
    expect(typeof user.active).toBe('boolean');
    expect(user.joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(user.homepage).toMatch(/^https:\/\/example\.com\//);
    expect(['ADMIN', 'MEMBER']).toContain(user.role);
    expect(user.friends).toHaveLength(2);
    // Another request in between changes nothing: the same document and variables, the same bytes.
    await gql(app, 'gh', { query: '{ users { name } }' });
    expect(await (await gql(app, 'gh', { query, variables: { id: '7' } }, '/graphql')).text()).toBe(text);
    // Other variables, other data.
    expect(await (await gql(app, 'gh', { query, variables: { id: '8' } }, '/graphql')).text()).not.toBe(text);
    // A list has a stable length.
    const users = (await (await gql(app, 'gh', { query: '{ users { id } }' })).json()) as {
      data: { users: unknown[] };
    };
    expect(users.data.users).toHaveLength(2);
  });

  it('answers an invalid operation with the GraphQL errors a server gives (messages, locations), status 200', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    const bad = await gql(app, 'gh', { query: '{ user(id: "1") { nope } }' });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toEqual({
      errors: [
        {
          message: 'Cannot query field "nope" on type "User". Did you mean "name" or "role"?',
          locations: [{ line: 1, column: 19 }],
        },
      ],
    });
    const syntax = await gql(app, 'gh', { query: '{ user(id: "1") { name }' });
    expect(await syntax.json()).toEqual({
      errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 25 }] }],
    });
    const missing = await gql(app, 'gh', { query: 'query Q($id: ID!) { user(id: $id) { name } }' });
    expect(await missing.json()).toEqual({
      errors: [
        { message: 'Variable "$id" of required type "ID!" was not provided.', locations: [{ line: 1, column: 9 }] },
      ],
    });
    const mutationOverGet = await app.request(
      `/endpoint/gh?query=${encodeURIComponent('mutation { rename(id: "1", name: "x") { id } }')}`,
    );
    expect(mutationOverGet.status).toBe(405);
    expect(mutationOverGet.headers.get('allow')).toBe('POST');
  });

  it('refuses, before executing, an operation whose nested lists would make more than 100,000 values', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    // 2^40 friends of friends: refused at once, never executed.
    const deep = `{ users { ${'friends { '.repeat(40)}name${' }'.repeat(40)} } }`;
    const started = performance.now();
    const refused = (await (await gql(app, 'gh', { query: deep })).json()) as {
      data?: unknown;
      errors: Array<{ message: string }>;
    };
    // The bound is the behaviour: refused before executing 2^40 values (which would never end); generous.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(refused.data).toBeUndefined();
    expect(refused.errors[0]?.message).toMatch(/^Operation too large for a mock answer: more than 100000 values/);
    // The same through a fragment; a shallower one is answered (2^10 names).
    const viaFragment = `{ users { ...F } } fragment F on User { ${'friends { '.repeat(30)}name${' }'.repeat(30)} }`;
    expect(
      ((await (await gql(app, 'gh', { query: viaFragment })).json()) as { errors?: unknown[] }).errors,
    ).toHaveLength(1);
    const shallow = `{ users { ${'friends { '.repeat(9)}name${' }'.repeat(9)} } }`;
    const answered = (await (await gql(app, 'gh', { query: shallow })).json()) as { data?: unknown; errors?: unknown };
    expect(answered.errors).toBeUndefined();
    expect(JSON.stringify(answered.data).match(/"name"/g)).toHaveLength(2 ** 10);
  });

  it('answers introspection: the client schema built from it prints as the stored schema does', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    const response = await gql(app, 'gh', { query: getIntrospectionQuery() });
    const { data } = (await response.json()) as { data: IntrospectionQuery };
    const { buildSchema } = await import('graphql');
    expect(printSchema(buildClientSchema(data))).toBe(printSchema(buildSchema(SDL)));
  });

  it('counts introspection in the bound: 2,000 aliases of __schema are refused before they run, one is answered', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    const one = '__schema { types { name fields { name type { name ofType { name } } } } }';
    const aliases = Array.from({ length: 2_000 }, (_, i) => `a${i}: ${one}`).join(' ');
    const refused = (await (await gql(app, 'gh', { query: `{ ${aliases} }` })).json()) as {
      data?: unknown;
      errors: Array<{ message: string }>;
    };
    expect(refused.data).toBeUndefined();
    expect(refused.errors[0]?.message).toMatch(/^Operation too large for a mock answer: its introspection would hold/);
    // Through __type and fragments too; and one of them (or a few) is answered as before.
    const viaType = Array.from({ length: 2_000 }, (_, i) => `t${i}: __type(name: "User") { ...T }`).join(' ');
    const fragment =
      'fragment T on __Type { name fields { name description isDeprecated args { name } type { name kind ofType { name kind } } } }';
    expect(
      ((await (await gql(app, 'gh', { query: `{ ${viaType} } ${fragment}` })).json()) as { errors?: unknown[] }).errors,
    ).toHaveLength(1);
    const few = (await (await gql(app, 'gh', { query: `{ a: ${one} b: ${one} }` })).json()) as {
      data?: { a: { types: unknown[] } };
      errors?: unknown;
    };
    expect(few.errors).toBeUndefined();
    expect(few.data?.a.types.length).toBeGreaterThan(10);
  });

  it('lets requests that are not GraphQL pass on to the record, and answers a batch as an array', async () => {
    const app = createApp();
    await put(app, 'gh', SDL);
    await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: JSON.stringify({ name: 'gh', data: { plain: true } }),
    });
    expect(await (await app.request('/endpoint/gh')).json()).toEqual({ plain: true });
    const batch = await gql(app, 'gh', [{ query: '{ users { id } }' }, { query: '{ nope }' }]);
    const results = (await batch.json()) as Array<{ data?: unknown; errors?: unknown[] }>;
    expect(results).toHaveLength(2);
    expect(results[0]?.data).toBeDefined();
    expect(results[1]?.errors).toHaveLength(1);
    const journal = (await (await app.request('/api/endpoints/gh/requests')).json()) as {
      requests: Array<{ answeredBy: unknown }>;
    };
    expect(journal.requests.map((entry) => entry.answeredBy)).toEqual(['record', 'graphql']);
  });
});
