// The client's verify method, against an app (no socket): a report with its finding, names, and INVALID_OPENAPI.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {
    '/users/{id}': {
      get: {
        responses: {
          200: {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', required: ['login'] } } },
          },
        },
      },
    },
  },
};

describe('client verify', () => {
  it('answers the report, for the names given; a document that is not one throws INVALID_OPENAPI', async () => {
    const client = createClient({ baseUrl: 'http://mockpoint.test', app: createApp() });
    await client.setRoutes('gh', [{ id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: {} } }]);
    await client.setRoutes('other', [{ match: { method: 'GET', path: '/nope' }, answer: { data: {} } }]);
    const report = await client.verify({ openapi: DOC, names: ['gh'] });
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => [f.endpoint, f.route?.id, f.code, f.path])).toEqual([
      ['gh', 'user', 'SCHEMA_MISMATCH', 'body/login'],
    ]);
    expect((await client.verify({ openapi: JSON.stringify(DOC) })).checked).toEqual({ endpoints: 2, routes: 2 });
    const bad = await client.verify({ openapi: { openapi: '2.0' } }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(MockpointError);
    expect((bad as MockpointError).code).toBe('INVALID_OPENAPI');
  });
});
