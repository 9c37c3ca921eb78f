// GraphQL against the built daemon with a real GraphQL client (graphql-request):
// routes, queued answers and journal waits pick operations by the parsed
// document (POST JSON, GET ?query=, batched arrays), and journal entries name
// the operation. Every process listens on 127.0.0.1.
import type { JournalEntry } from '@mockpoint/core/client';
import { batchRequests, GraphQLClient, gql } from 'graphql-request';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

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
    const daemon = await startDaemon({ args: ['--memory'] });
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
    expect((await api(daemon, 'PUT', '/api/endpoints/gql/routes', { routes })).status).toBe(200);
    const client = new GraphQLClient(`${daemon.url}/endpoint/gql`);
    expect(await client.request(GET_USER, { id: '1' })).toEqual({ user: { name: 'Ann' } });
    expect(await client.request(GET_USER, { id: '2' })).toEqual({ user: { name: 'Bob' } });
    expect(await client.request(SAVE, { name: 'x' })).toEqual({ save: true });
    // GET ?query= reads the same document.
    const viaGet = new GraphQLClient(`${daemon.url}/endpoint/gql`, { method: 'GET' });
    expect(await viaGet.request(GET_USER, { id: '1' })).toEqual({ user: { name: 'Ann' } });

    // A queued answer for one operation only: the mutation takes it, the query passes by.
    const queued = await api(daemon, 'POST', '/api/endpoints/gql/queue', {
      answers: [{ match: { graphql: { operationName: 'Save' } }, data: { errors: [{ message: 'try again' }] } }],
    });
    expect(queued.status).toBe(201);
    expect(await client.request(GET_USER, { id: '2' })).toEqual({ user: { name: 'Bob' } });
    await expect(client.request(SAVE, { name: 'y' })).rejects.toThrow(/try again/);

    // A journal wait that counts one operation; each entry names its operation.
    const match = encodeURIComponent(JSON.stringify({ graphql: { operationName: 'Save' } }));
    const page = await api(daemon, 'GET', `/api/endpoints/gql/requests?match=${match}&count=2&wait=5000`);
    expect(page.json.complete).toBe(true);
    expect(page.json.requests.map((entry) => entry.graphql)).toEqual([
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'x' } },
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'y' } },
    ]);
    const all = await api(daemon, 'GET', '/api/endpoints/gql/requests');
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
    const daemon = await startDaemon({ args: ['--memory'] });
    const routes = [
      {
        match: { graphql: { operationName: 'Save' } },
        answer: { data: [{ data: { user: { name: 'Ann' } } }, { data: { save: true } }] },
      },
    ];
    expect((await api(daemon, 'PUT', '/api/endpoints/gql/routes', { routes })).status).toBe(200);
    const answers = await batchRequests(`${daemon.url}/endpoint/gql`, [
      { document: GET_USER, variables: { id: '1' } },
      { document: SAVE, variables: { name: 'x' } },
    ]);
    expect(answers.map((answer) => answer.data)).toEqual([{ user: { name: 'Ann' } }, { save: true }]);
    const [entry] = (await api(daemon, 'GET', '/api/endpoints/gql/requests')).json.requests;
    expect(entry?.graphql?.batch).toEqual([
      { operationName: 'GetUser', operationType: 'query', variables: { id: '1' } },
      { operationName: 'Save', operationType: 'mutation', variables: { name: 'x' } },
    ]);
  });

  it('refuses a filter with an unknown operation type at save, with a code', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const put = await api(daemon, 'PUT', '/api/endpoints/gql/routes', {
      routes: [{ match: { graphql: { operationType: 'select' } }, answer: {} }],
    });
    expect(put.status).toBe(400);
    expect(put.json.error.code).toBe('INVALID_MATCH');
  });
});
