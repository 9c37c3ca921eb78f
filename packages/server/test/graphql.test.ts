// GraphQL against the built daemon with a real GraphQL client (graphql-request):
// routes, queued answers and journal waits pick operations by the parsed
// document (POST JSON, GET ?query=, batched arrays), and journal entries name
// the operation; schema mode answers from a stored SDL schema (deterministic
// data, GraphQL errors, introspection), routes override single operations, the
// schema survives SIGKILL on LevelDB, and seeded random code points in schemas
// and operations never take the daemon down. Every process listens on 127.0.0.1.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalEntry } from '@mockpoint/core/client';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { startTestRedis } from '@mockpoint/testkit/redis-server';
import { buildClientSchema, buildSchema, getIntrospectionQuery, type IntrospectionQuery, printSchema } from 'graphql';
import { batchRequests, ClientError, GraphQLClient, gql } from 'graphql-request';
import { describe, expect, it } from 'vitest';
import { type Daemon, killAll, makeTempDir, runCli, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
// One in-memory daemon for the tests that only talk to it, each under names of its own; the tests
// about the process (SIGKILL, replicas, a mock file at start) start their own.
const memoryDaemon = sharedDaemon({ args: ['--memory'] });

/** An admin answer, loosely typed: the fields these tests read. */
interface Reply {
  complete?: boolean;
  requests: JournalEntry[];
  error: { code: string; message: string };
  [key: string]: unknown;
}

async function api(
  daemon: Daemon,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Reply }> {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const GET_USER = gql`
  query GetUser($id: ID!) {
    user(id: $id) {
      name
    }
  }
`;
const SAVE = gql`
  mutation Save($name: String!) {
    save(name: $name)
  }
`;

describe('the graphql filter', () => {
  it('routes, queued answers and waits pick operations by name, type and variables', async () => {
    const daemon = await memoryDaemon();
    const routes = [
      {
        id: 'ann',
        match: { graphql: { operationName: 'GetUser', variables: { id: '1' } } },
        answer: { data: { data: { user: { name: 'Ann' } } } },
      },
      {
        id: 'user',
        match: { graphql: { operationName: 'GetUser' } },
        answer: { data: { data: { user: { name: 'Bob' } } } },
      },
      { id: 'save', match: { graphql: { operationType: 'mutation' } }, answer: { data: { data: { save: true } } } },
    ];
    expect((await api(daemon, 'PUT', '/api/endpoints/gql-pick/routes', { routes })).status).toBe(200);
    const client = new GraphQLClient(`${daemon.url}/endpoint/gql-pick`);
    expect(await client.request(GET_USER, { id: '1' })).toEqual({ user: { name: 'Ann' } });
    expect(await client.request(GET_USER, { id: '2' })).toEqual({ user: { name: 'Bob' } });
    expect(await client.request(SAVE, { name: 'x' })).toEqual({ save: true });
    // GET ?query= reads the same document.
    const viaGet = new GraphQLClient(`${daemon.url}/endpoint/gql-pick`, { method: 'GET' });
    expect(await viaGet.request(GET_USER, { id: '1' })).toEqual({ user: { name: 'Ann' } });

    // A queued answer for one operation only: the mutation takes it, the query passes by.
    const queued = await api(daemon, 'POST', '/api/endpoints/gql-pick/queue', {
      answers: [{ match: { graphql: { operationName: 'Save' } }, data: { errors: [{ message: 'try again' }] } }],
    });
    expect(queued.status).toBe(201);
    expect(await client.request(GET_USER, { id: '2' })).toEqual({ user: { name: 'Bob' } });
    await expect(client.request(SAVE, { name: 'y' })).rejects.toThrow(/try again/);

    // A journal wait that counts one operation; each entry names its operation.
    const match = encodeURIComponent(JSON.stringify({ graphql: { operationName: 'Save' } }));
    const page = await api(daemon, 'GET', `/api/endpoints/gql-pick/requests?match=${match}&count=2&wait=5000`);
    expect(page.json.complete).toBe(true);
    expect(page.json.requests.map((entry) => entry.graphql)).toEqual([
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'x' } },
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'y' } },
    ]);
    const all = await api(daemon, 'GET', '/api/endpoints/gql-pick/requests');
    expect(all.json.requests.map((entry) => entry.answeredBy)).toEqual([
      { route: 'ann' },
      { route: 'user' },
      { route: 'save' },
      { route: 'ann' },
      { route: 'user' },
      { queue: true },
    ]);
  });

  it('a batch is matched when one of its operations matches, and journaled with each operation', async () => {
    const daemon = await memoryDaemon();
    const routes = [
      {
        match: { graphql: { operationName: 'Save' } },
        answer: { data: [{ data: { user: { name: 'Ann' } } }, { data: { save: true } }] },
      },
    ];
    expect((await api(daemon, 'PUT', '/api/endpoints/gql-batch/routes', { routes })).status).toBe(200);
    const answers = await batchRequests(`${daemon.url}/endpoint/gql-batch`, [
      { document: GET_USER, variables: { id: '1' } },
      { document: SAVE, variables: { name: 'x' } },
    ]);
    expect(answers.map((answer) => answer.data)).toEqual([{ user: { name: 'Ann' } }, { save: true }]);
    const [entry] = (await api(daemon, 'GET', '/api/endpoints/gql-batch/requests')).json.requests;
    expect(entry?.graphql?.batch).toEqual([
      { operationName: 'GetUser', operationType: 'query', variables: { id: '1' } },
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'x' } },
    ]);
  });

  it('refuses a filter with an unknown operation type at save, with a code', async () => {
    const daemon = await memoryDaemon();
    const put = await api(daemon, 'PUT', '/api/endpoints/gql-refuse/routes', {
      routes: [{ match: { graphql: { operationType: 'select' } }, answer: {} }],
    });
    expect(put.status).toBe(400);
    expect(put.json.error.code).toBe('INVALID_MATCH');
  });
});

const SDL = `type Repository {
  id: ID!
  name: String!
  stargazerCount: Int!
  createdAt: DateTime!
  url: URI!
  owner: User!
}

type User {
  id: ID!
  login: String!
  repositories(first: Int): [Repository!]!
}

scalar DateTime
scalar URI

type Query {
  viewer: User!
  user(login: String!): User
}
`;

const VIEWER = gql`
  query Viewer {
    viewer {
      login
      repositories(first: 5) {
        name
        stargazerCount
        createdAt
        url
      }
    }
  }
`;

/** Every UTF-8 byte of `text` as %XX (a lone surrogate becomes U+FFFD's bytes, as anywhere in UTF-8). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

async function putSchema(daemon: Daemon, name: string, sdl: string): Promise<number> {
  const response = await fetch(`${daemon.url}/api/endpoints/${name}/graphql`, { method: 'PUT', body: sdl });
  await response.text();
  return response.status;
}

interface Viewer {
  viewer: {
    login: string;
    repositories: Array<{ name: string; stargazerCount: number; createdAt: string; url: string }>;
  };
}

describe('schema mode', () => {
  it('answers a real client with schema-shaped, deterministic data; errors as a server gives them; introspection', async () => {
    const daemon = await memoryDaemon();
    expect(await putSchema(daemon, 'gh-schema', SDL)).toBe(201);
    const client = new GraphQLClient(`${daemon.url}/endpoint/gh-schema/graphql`);
    const first = await client.request<Viewer>(VIEWER);
    expect(typeof first.viewer.login).toBe('string');
    expect(first.viewer.repositories).toHaveLength(2);
    for (const repository of first.viewer.repositories) {
      expect(Number.isInteger(repository.stargazerCount)).toBe(true);
      expect(repository.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(repository.url).toMatch(/^https:\/\//);
    }
    expect(await client.request<Viewer>(VIEWER)).toEqual(first);

    const error = await client.request(gql`{ viewer { nope } }`).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.status).toBe(200);
    expect((error as ClientError).response.errors).toEqual([
      { message: 'Cannot query field "nope" on type "User".', locations: [{ line: 1, column: 12 }] },
    ]);

    const introspection = await client.request<IntrospectionQuery>(getIntrospectionQuery());
    expect(printSchema(buildClientSchema(introspection))).toBe(printSchema(buildSchema(SDL)));
    const [entry] = (await api(daemon, 'GET', '/api/endpoints/gh-schema/requests')).json.requests;
    expect(entry?.answeredBy).toBe('graphql');
    expect(entry?.graphql).toEqual({ operationName: 'Viewer', operationType: 'query' });
  });

  it('a route overrides one operation, templated over its variables; the others stay with the schema', async () => {
    const daemon = await memoryDaemon();
    expect(await putSchema(daemon, 'gh-route', SDL)).toBe(201);
    const routes = [
      {
        id: 'octocat',
        match: { graphql: { operationName: 'UserByLogin' } },
        answer: { template: true, data: { data: { user: { login: '{{variables.login}}', id: 'U_1' } } } },
      },
    ];
    expect((await api(daemon, 'PUT', '/api/endpoints/gh-route/routes', { routes })).status).toBe(200);
    const client = new GraphQLClient(`${daemon.url}/endpoint/gh-route`);
    const byLogin = gql`
      query UserByLogin($login: String!) {
        user(login: $login) {
          login
          id
        }
      }
    `;
    expect(await client.request(byLogin, { login: 'monalisa' })).toEqual({ user: { login: 'monalisa', id: 'U_1' } });
    const viaGet = new GraphQLClient(`${daemon.url}/endpoint/gh-route`, { method: 'GET' });
    expect(await viaGet.request(byLogin, { login: 'hubot' })).toEqual({ user: { login: 'hubot', id: 'U_1' } });
    const viewer = await client.request<Viewer>(VIEWER);
    expect(viewer.viewer.repositories).toHaveLength(2);
    const by = (await api(daemon, 'GET', '/api/endpoints/gh-route/requests')).json.requests.map(
      (entry) => entry.answeredBy,
    );
    expect(by).toEqual([{ route: 'octocat' }, { route: 'octocat' }, 'graphql']);
  });

  it('keeps the schema byte for byte across SIGKILL right after the answer (LevelDB)', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const sdl = `# GitHub-ish, with a comment, CRLF and a description — “quoted”\r\n${SDL}`;
    expect(await putSchema(first, 'gh', sdl)).toBe(201);
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd });
    expect((await api(second, 'GET', '/api/endpoints/gh/graphql')).json).toEqual({ schema: sdl });
    const client = new GraphQLClient(`${second.url}/endpoint/gh`);
    expect((await client.request<Viewer>(VIEWER)).viewer.repositories).toHaveLength(2);
  });

  it('two replicas on one redis-server share the schema: a put or a replace on one answers on the other', async () => {
    const redis = await startTestRedis();
    try {
      const env = { MOCKPOINT_REDIS_URL: redis.socket };
      const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
      if (a === undefined || b === undefined) throw new Error('two replicas');
      const name = `gql-${process.pid}`;
      // B looks first and finds no schema (and remembers that), then A puts one.
      expect(
        (await fetch(`${b.url}/endpoint/${name}`, { method: 'POST', body: '{"query":"{ viewer { login } }"}' })).status,
      ).toBe(404);
      expect(await putSchema(a, name, SDL)).toBe(201);
      const onB = new GraphQLClient(`${b.url}/endpoint/${name}`);
      await expect
        .poll(() =>
          onB.request<Viewer>(VIEWER).then(
            (data) => data.viewer.repositories.length,
            () => 0,
          ),
        )
        .toBe(2);
      expect(await putSchema(a, name, 'type Query { hello: String! }')).toBe(200);
      await expect
        .poll(() =>
          onB.request<{ hello: string }>('{ hello }').then(
            (data) => typeof data.hello,
            () => 'not yet',
          ),
        )
        .toBe('string');
      expect((await api(b, 'GET', `/api/endpoints/${name}/graphql`)).json).toEqual({
        schema: 'type Query { hello: String! }',
      });
    } finally {
      await killAll();
      await redis.dispose();
    }
  });

  it('seeded random code points in schemas, queries, operation names and variables: a code or a GraphQL answer, never a crash', async () => {
    const daemon = await memoryDaemon();
    const random = prng(34);
    expect(await putSchema(daemon, 'gh-fuzz', SDL)).toBe(201);
    for (let i = 0; i < 60; i++) {
      const junk = randomText(random, 1 + Math.floor(random() * 40));
      // A schema: the valid one with junk spliced in, or junk alone.
      const cut = Math.floor(random() * SDL.length);
      const sdl = random() < 0.5 ? `${SDL.slice(0, cut)}${junk}${SDL.slice(cut)}` : junk;
      const put = await fetch(`${daemon.url}/api/endpoints/fz-fuzz/graphql`, { method: 'PUT', body: sdl });
      const putBody = (await put.json()) as { schema?: string; error?: { code: string } };
      if (put.status === 400)
        expect(['INVALID_GRAPHQL_SCHEMA', 'INVALID_JSON', 'INVALID_UTF8']).toContain(putBody.error?.code);
      else {
        expect([200, 201]).toContain(put.status);
        expect(putBody.schema).toBe(Buffer.from(sdl, 'utf8').toString('utf8'));
      }
      // An operation: the viewer query with junk spliced in, a junk operation name and junk variables.
      const query = `${VIEWER.slice(0, cut % VIEWER.length)}${junk}${VIEWER.slice(cut % VIEWER.length)}`;
      const answer = await fetch(`${daemon.url}/endpoint/gh-fuzz`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, operationName: random() < 0.5 ? junk : undefined, variables: { [junk]: junk } }),
      });
      expect(answer.status).toBe(200);
      const result = (await answer.json()) as { data?: unknown; errors?: Array<{ message: string }> };
      expect(result.data !== undefined || (result.errors?.length ?? 0) > 0).toBe(true);
      const viaGet = await fetch(
        `${daemon.url}/endpoint/gh-fuzz?query=${percentEncoded(junk)}&variables=${percentEncoded(junk)}`,
      );
      expect([200, 404, 405]).toContain(viaGet.status);
      await viaGet.text();
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    const journal = await api(daemon, 'GET', '/api/endpoints/gh-fuzz/requests');
    expect(journal.status).toBe(200);
  });
});

describe('mockpoint import --from graphql', () => {
  it('writes a mock file holding the schema byte for byte; a daemon started with it answers from it', async () => {
    const dir = await makeTempDir();
    const sdl = `# schema.graphql — “kept”\r\n${SDL}`;
    await writeFile(join(dir, 'schema.graphql'), sdl);
    const imported = await runCli({
      args: ['import', 'schema.graphql', '--from', 'graphql', '--name', 'gh'],
      cwd: dir,
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ version: 1, endpoints: [{ name: 'gh', graphql: sdl }] });
    const detected = await runCli({ args: ['import', 'schema.graphql', '--name', 'gh'], cwd: dir });
    expect(detected.stdout).toBe(imported.stdout);
    await writeFile(join(dir, 'mockpoint.json'), imported.stdout);
    const daemon = await startDaemon({ args: ['--memory', '--config', 'mockpoint.json'], cwd: dir });
    expect((await api(daemon, 'GET', '/api/endpoints/gh/graphql')).json).toEqual({ schema: sdl });
    const client = new GraphQLClient(`${daemon.url}/endpoint/gh`);
    expect((await client.request<Viewer>(VIEWER)).viewer.repositories).toHaveLength(2);

    await writeFile(join(dir, 'bad.graphql'), 'type Query {\n  viewer: Usr\n}\n');
    const bad = await runCli({ args: ['import', 'bad.graphql', '--name', 'gh'], cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/graphql.*line 2, column 11: Unknown type "Usr"/);
  });
});
