// Every per-name setting of the client is read with get…, put with set… and removed with
// clear…, against an app (no socket); the names they had before still answer the same.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, type MockpointClient, type MockpointError } from '../index.js';

const PROTO =
  'syntax = "proto3";\npackage t.v1;\nservice Echo { rpc Say (Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n';

function fresh(): MockpointClient {
  return createClient({ baseUrl: 'http://mockpoint.test', app: createApp() });
}

const codeOf = (failed: Promise<unknown>) =>
  failed.then(
    () => 'resolved',
    (error: MockpointError) => error.code,
  );

describe('client settings: get, set and clear, one way', () => {
  it('has get…, set… and clear… for every per-name setting', () => {
    const client = fresh() as unknown as Record<string, unknown>;
    for (const setting of [
      'Signature',
      'Chaos',
      'NamespaceChaos',
      'GraphqlSchema',
      'Grpc',
      'Hosts',
      'Routes',
      'Twin',
    ]) {
      for (const verb of ['get', 'set', 'clear'])
        expect(typeof client[`${verb}${setting}`], `${verb}${setting}`).toBe('function');
    }
    // The queue is added to (queue), the state and collections are reset: each is still read with get….
    for (const name of ['getQueue', 'clearQueue', 'getState', 'setState', 'getCollections', 'setCollections']) {
      expect(typeof client[name], name).toBe('function');
    }
  });

  it('twin: set, get (as made, or the setting as put), clear', async () => {
    const client = fresh();
    const document = {
      openapi: '3.0.3',
      info: { title: 'Notes', version: '1' },
      paths: { '/notes': { post: { responses: {} } }, '/notes/{id}': { get: { responses: {} } } },
    };
    const made = await client.setTwin('notes', { document, profile: { name: 'notes' } });
    expect(made).toMatchObject({ title: 'Notes', operations: 2, collections: ['/notes'] });
    expect(await client.getTwin('notes')).toEqual(made);
    expect(await client.getTwin('notes', { setting: true })).toEqual({ document, profile: { name: 'notes' } });
    expect(await client.list()).toMatchObject({ endpoints: [{ name: 'notes', twin: true }] });
    await client.clearTwin('notes');
    expect(await codeOf(client.getTwin('notes'))).toBe('TWIN_NOT_FOUND');
    expect(await codeOf(client.setTwin('notes', { provider: 'nope' }))).toBe('INVALID_TWIN');
  });

  it('signature and chaos: set, get, clear; the old names answer the same', async () => {
    const client = fresh();
    await client.setSignature('hook', { scheme: 'github', secret: 'topsecret-value', enforce: true });
    expect((await client.getSignature('hook')).scheme).toBe('github');
    await client.clearSignature('hook');
    expect(await codeOf(client.getSignature('hook'))).toBe('NOT_FOUND');
    await client.setSignature('hook', { scheme: 'github', secret: 'topsecret-value' });
    await client.removeSignature('hook');
    expect(await codeOf(client.getSignature('hook'))).toBe('NOT_FOUND');

    await client.setChaos('api', { rate: 0.5, faults: ['503'], seed: 3 });
    expect(await client.getChaos('api')).toEqual({ rate: 0.5, faults: ['503'], seed: 3 });
    expect(await client.chaos('api')).toEqual(await client.getChaos('api'));
    await client.clearChaos('api');
    expect(await codeOf(client.getChaos('api'))).toBe('NOT_FOUND');

    await client.setNamespaceChaos({ rate: 1, faults: ['429'], seed: 1 });
    expect(await client.getNamespaceChaos()).toEqual({ rate: 1, faults: ['429'], seed: 1 });
    expect(await client.namespaceChaos()).toEqual(await client.getNamespaceChaos());
    await client.clearNamespaceChaos();
    expect(await codeOf(client.getNamespaceChaos())).toBe('NOT_FOUND');
  });

  it('GraphQL schema and gRPC definitions: set, get, clear; the old names answer the same', async () => {
    const client = fresh();
    await client.setGraphqlSchema('gql', 'type Query { hello: String }');
    expect(await client.getGraphqlSchema('gql')).toBe('type Query { hello: String }');
    expect(await client.graphqlSchema('gql')).toBe('type Query { hello: String }');
    await client.clearGraphqlSchema('gql');
    expect(await codeOf(client.getGraphqlSchema('gql'))).toBe('NOT_FOUND');
    await client.setGraphqlSchema('gql', 'type Query { hello: String }');
    await client.removeGraphqlSchema('gql');
    expect(await codeOf(client.graphqlSchema('gql'))).toBe('NOT_FOUND');

    await client.setGrpc('rpc', { protos: { 't/v1/echo.proto': PROTO } });
    expect((await client.getGrpc('rpc')).services).toEqual(['t.v1.Echo']);
    expect(await client.grpc('rpc')).toEqual(await client.getGrpc('rpc'));
    await client.clearGrpc('rpc');
    expect(await codeOf(client.getGrpc('rpc'))).toBe('NOT_FOUND');
    await client.setGrpc('rpc', { protos: { 't/v1/echo.proto': PROTO } });
    await client.removeGrpc('rpc');
    expect(await codeOf(client.grpc('rpc'))).toBe('NOT_FOUND');
  });

  it('hosts, routes, queue, state and collections: read with get…; the old names answer the same', async () => {
    const client = fresh();
    await client.setHosts('github', ['api.github.com']);
    expect(await client.getHosts('github')).toEqual([{ host: 'api.github.com', name: 'github', source: 'api' }]);
    expect(await client.hostsOf('github')).toEqual(await client.getHosts('github'));
    await client.clearHosts('github');
    expect(await client.getHosts('github')).toEqual([]);
    await client.setHosts('github', ['api.github.com']);
    await client.removeHosts('github');
    expect(await client.hostsOf('github')).toEqual([]);

    await client.setRoutes('api', [{ id: 'r1', match: { path: '/a' }, answer: { data: { a: 1 } } }]);
    expect((await client.getRoutes('api')).map((route) => route.id)).toEqual(['r1']);
    expect(await client.routes('api')).toEqual(await client.getRoutes('api'));
    await client.clearRoutes('api');
    expect(await client.getRoutes('api')).toEqual([]);

    await client.queue('api', [{ statusCode: 503, times: 2 }]);
    expect((await client.getQueue('api')).map((answer) => answer.statusCode)).toEqual([503]);
    expect(await client.queued('api')).toEqual(await client.getQueue('api'));
    await client.clearQueue('api');
    expect(await client.getQueue('api')).toEqual([]);

    await client.setState('api', { checkout: 'paid' });
    expect(await client.getState('api')).toMatchObject({ checkout: 'paid' });
    expect(await client.state('api')).toEqual(await client.getState('api'));

    await client.setCollections('api', { users: [{ id: 1, name: 'Ada' }] });
    expect(await client.getCollections('api')).toEqual({ users: [{ id: 1, name: 'Ada' }] });
    expect(await client.collections('api')).toEqual(await client.getCollections('api'));
  });
});
