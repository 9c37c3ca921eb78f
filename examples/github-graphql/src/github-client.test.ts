// A GitHub GraphQL client (src/github-client.ts, on @octokit/graphql) against
// a fake GitHub in schema mode: the fake holds GitHub's own public schema
// (@octokit/graphql-schema), so every query the client sends is validated as
// GitHub would validate it, and answered with data of the right shape. One
// operation is overridden by a route; the journal says which operation came.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { GraphqlResponseError, graphql } from '@octokit/graphql';
import { schema } from '@octokit/graphql-schema';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { createGitHubClient } from './github-client.js';

const mock = useMockServer({ resetAfterEach: true });

/** The fake GitHub: GitHub's public schema (1.2 MB of SDL) under the name `github`. */
async function fakeGitHub() {
  const github = await mock.api('github');
  await github.setGraphqlSchema(schema.idl);
  return github;
}

it("every query the client sends is valid against GitHub's schema and answered with data of its shape", async () => {
  const github = await fakeGitHub();
  const client = createGitHubClient({ baseUrl: github.url, token: 'test-token' });
  const { login, repositories } = await client.viewerRepositories(5);
  expect(typeof login).toBe('string');
  // Lists in schema mode have a stable length (2); scalars look like GitHub's.
  expect(repositories).toHaveLength(2);
  for (const repository of repositories) {
    expect(Number.isInteger(repository.stars)).toBe(true);
    expect(repository.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(repository.url).toMatch(/^https:\/\//);
  }
  // Deterministic: the same query and variables, the same answer.
  expect(await client.viewerRepositories(5)).toEqual({ login, repositories });
  expect(await client.star('R_kgDOabc')).toEqual(expect.any(Number));
  await expect(github).toHaveBeenRequestedWith({
    method: 'POST',
    path: '/graphql',
    headers: { authorization: 'token test-token' },
    graphql: { operationName: 'AddStar', operationType: 'mutation', variables: { starrableId: 'R_kgDOabc' } },
  });
});

it('a route overrides one operation with fixed data, templated from its variables; the schema answers the rest', async () => {
  const github = await fakeGitHub();
  await github.setRoutes([
    {
      id: 'issues',
      match: { graphql: { operationName: 'OpenIssues', variables: { owner: 'acme' } } },
      answer: {
        template: true,
        data: {
          data: {
            repository: {
              issues: {
                totalCount: 1,
                nodes: [{ number: 7, title: 'Crash in {{variables.name}}', author: { login: 'octocat' } }],
              },
            },
          },
        },
      },
    },
    {
      id: 'missing',
      match: { graphql: { operationName: 'OpenIssues' } },
      answer: { data: { data: { repository: null } } },
    },
  ]);
  const client = createGitHubClient({ baseUrl: github.url, token: 't' });
  expect(await client.openIssues('acme', 'app')).toEqual({
    total: 1,
    issues: [{ number: 7, title: 'Crash in app', author: 'octocat' }],
  });
  expect(await client.openIssues('nobody', 'nothing')).toBeNull();
  expect((await client.viewerRepositories()).repositories).toHaveLength(2);
  const requests = await github.requests();
  expect(requests.map((request) => [request.graphql?.operationName, request.answeredBy])).toEqual([
    ['OpenIssues', { route: 'issues' }],
    ['OpenIssues', { route: 'missing' }],
    ['ViewerRepositories', 'graphql'],
  ]);
});

it('a query GitHub would refuse is refused as GitHub refuses it: a GraphqlResponseError naming the field', async () => {
  const github = await fakeGitHub();
  const request = graphql.defaults({ baseUrl: github.url });
  const error = await request('query { viewer { login stars } }').catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(GraphqlResponseError);
  expect((error as GraphqlResponseError<unknown>).errors?.[0]).toMatchObject({
    message: 'Cannot query field "stars" on type "User". Did you mean "status"?',
    locations: [{ line: 1, column: 24 }],
  });
});

it("introspection answers with GitHub's schema, as codegen and GraphiQL read it", async () => {
  const github = await fakeGitHub();
  const request = graphql.defaults({ baseUrl: github.url });
  const introspection = await request<IntrospectionQuery>(getIntrospectionQuery());
  const client = buildClientSchema(introspection);
  expect(client.getQueryType()?.getFields().repository).toBeDefined();
  expect(client.getMutationType()?.getFields().addStar).toBeDefined();
  expect(Object.keys(client.getTypeMap()).length).toBeGreaterThan(1000);
});
