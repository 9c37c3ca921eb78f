// The client's GraphQL schema methods, against an app (no socket).
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

describe('client GraphQL schema methods', () => {
  it('setGraphqlSchema, graphqlSchema (byte for byte), removeGraphqlSchema; a bad schema throws with its code', async () => {
    const app = createApp();
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    const sdl = '# kept as written\r\ntype Query { hello: String }\n';
    await client.setGraphqlSchema('gh', sdl);
    expect(await client.graphqlSchema('gh')).toBe(sdl);
    const answer = await app.fetch(
      new Request(client.endpointUrl('gh', '/graphql'), { method: 'POST', body: '{"query":"{ hello }"}' }),
    );
    expect(Object.keys(((await answer.json()) as { data: object }).data)).toEqual(['hello']);
    const bad = await client.setGraphqlSchema('gh', 'type Query { a: Nope }').catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(MockpointError);
    expect((bad as MockpointError).code).toBe('INVALID_GRAPHQL_SCHEMA');
    expect(await client.graphqlSchema('gh')).toBe(sdl);
    await client.removeGraphqlSchema('gh');
    const missing = await client.graphqlSchema('gh').catch((error: unknown) => error);
    expect((missing as MockpointError).code).toBe('NOT_FOUND');
  });
});
