/**
 * A route's request validation as a client sees it, through both adapters (the
 * native Node listener and the Fetch route): `report` answers and journals the
 * errors, `enforce` answers 400 REQUEST_INVALID, and a body past the journal's
 * 64 KiB is checked whole.
 */
import { closeListeners } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type JournalEntry, type MockpointApp } from '../../index.js';
import { NODE_ADAPTER_NAMES, NODE_ADAPTERS, type NodeAdapter } from '../../test-support/node-adapters.js';

afterEach(closeListeners);

const validate = (mode: 'report' | 'enforce') => ({
  mode,
  body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tags: { type: 'array' } } },
  bodyRequired: true,
  query: { type: 'object', properties: { dryRun: { type: 'boolean' } } },
  params: { type: 'object', properties: { owner: { type: 'string', pattern: '^[a-z]+$' } } },
  headers: { type: 'object', required: ['x-tenant'] },
});

async function setup(adapter: NodeAdapter, mode: 'report' | 'enforce') {
  const app = createApp();
  const routes = [
    {
      id: 'create',
      match: { method: 'POST', path: '/owners/:owner/pets' },
      validate: validate(mode),
      answer: { statusCode: 201, data: { ok: true } },
    },
    { id: 'plain', match: { path: '/plain' }, answer: { data: 'plain' } },
  ];
  const put = await app.request('/api/endpoints/api/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.text()).toBe(200);
  return { app, url: `http://127.0.0.1:${await NODE_ADAPTERS[adapter](app)}` };
}

async function journal(app: MockpointApp): Promise<JournalEntry[]> {
  return ((await (await app.request('/api/endpoints/api/requests')).json()) as { requests: JournalEntry[] }).requests;
}

const good = {
  method: 'POST',
  headers: { 'x-tenant': 't1', 'content-type': 'application/json' },
  body: '{"name":"Rex"}',
};

/** One request per kind of invalid: body, query, params, headers. */
const invalid: [string, string, RequestInit][] = [
  ['body', '/owners/ann/pets', { ...good, body: '{"tags":"x"}' }],
  ['query', '/owners/ann/pets?dryRun=maybe', good],
  ['params', '/owners/ANN/pets', good],
  ['headers', '/owners/ann/pets', { ...good, headers: { 'content-type': 'application/json' } }],
];

describe.each(NODE_ADAPTER_NAMES)('route validation (%s adapter)', (adapter) => {
  it('passes a request that fits; its journal entry says so (no errors); a route without validate has no mark', async () => {
    const { app, url } = await setup(adapter, 'enforce');
    const response = await fetch(`${url}/endpoint/api/owners/ann/pets?dryRun=true`, good);
    expect([response.status, await response.json()]).toEqual([201, { ok: true }]);
    await fetch(`${url}/endpoint/api/plain`);
    const [checked, plain] = await journal(app);
    expect(checked?.validation).toEqual({ errors: [] });
    expect(plain?.validation).toBeUndefined();
  });

  it('report: answers as usual, and the journal entry lists each kind of error', async () => {
    const { app, url } = await setup(adapter, 'report');
    for (const [, path, init] of invalid) {
      expect((await fetch(`${url}/endpoint/api${path}`, init)).status).toBe(201);
    }
    const entries = await journal(app);
    expect(entries.map((entry) => entry.validation?.errors.map((error) => error.in))).toEqual([
      ['body', 'body'],
      ['query'],
      ['params'],
      ['headers'],
    ]);
    expect(entries[0]?.validation?.errors.map((error) => error.path)).toEqual(['', '/tags']);
    expect(entries[1]?.validation?.errors[0]).toMatchObject({ in: 'query', path: '/dryRun' });
  });

  it('enforce: answers 400 REQUEST_INVALID with the errors in error.details, and journals the request', async () => {
    const { app, url } = await setup(adapter, 'enforce');
    for (const [part, path, init] of invalid) {
      const response = await fetch(`${url}/endpoint/api${path}`, init);
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as {
        error: { code: string; message: string; details: { errors: { in: string }[] } };
      };
      expect(error.code).toBe('REQUEST_INVALID');
      expect(error.message).toContain('route create');
      expect(error.details.errors[0]?.in).toBe(part);
    }
    const empty = await fetch(`${url}/endpoint/api/owners/ann/pets`, { ...good, body: '' });
    expect(((await empty.json()) as { error: { details: unknown } }).error.details).toEqual({
      errors: [{ in: 'body', path: '', message: 'a body is required' }],
    });
    const entries = await journal(app);
    expect(entries.map((entry) => [entry.statusCode, entry.answeredBy])).toEqual(
      Array.from({ length: 5 }, () => [400, { route: 'create' }]),
    );
  });

  it('checks a body past the journal copy (64 KiB) whole', async () => {
    const { app, url } = await setup(adapter, 'enforce');
    // A first request makes the name known here, as on a running daemon.
    await fetch(`${url}/endpoint/api/plain`);
    const long = JSON.stringify({ name: 'Rex', tags: Array.from({ length: 20_000 }, (_, i) => `tag-${i}`) });
    expect(long.length).toBeGreaterThan(128 * 1024);
    expect((await fetch(`${url}/endpoint/api/owners/ann/pets`, { ...good, body: long })).status).toBe(201);
    const wrong = `${long.slice(0, -1)},"name":7}`;
    const refused = await fetch(`${url}/endpoint/api/owners/ann/pets`, { ...good, body: wrong });
    expect(refused.status).toBe(400);
    const entries = await journal(app);
    expect(entries[1]).toMatchObject({ bodyTruncated: true, validation: { errors: [] } });
    expect(entries[2]?.validation?.errors).toEqual([
      { in: 'body', path: '/name', message: expect.stringContaining('string') },
    ]);
  });
});

describe('a route validate field', () => {
  it('is refused with INVALID_VALIDATION when it is not { mode, schemas }', async () => {
    const app = createApp();
    const put = (validate: unknown) =>
      app.request('/api/endpoints/api/routes', {
        method: 'PUT',
        body: JSON.stringify({ routes: [{ validate, answer: {} }] }),
      });
    for (const bad of [{ mode: 'strict' }, { mode: 'report', body: 'object' }]) {
      const response = await put(bad);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_VALIDATION');
    }
    const unknown = await put({ mode: 'report', cookies: {} });
    // off: kept, checks nothing.
    expect((await put({ mode: 'off', body: false })).status).toBe(200);
    expect((await app.request('/endpoint/api', { method: 'POST', body: '{}' })).status).toBe(200);
    const [entry] = ((await (await app.request('/api/endpoints/api/requests')).json()) as { requests: JournalEntry[] })
      .requests;
    expect(entry?.validation).toBeUndefined();
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('UNKNOWN_FIELD');
    // Kept and answered back as it was given.
    expect((await put({ mode: 'report', query: true })).status).toBe(200);
    const routes = (await (await app.request('/api/endpoints/api/routes')).json()) as { routes: unknown[] };
    expect(routes.routes[0]).toMatchObject({ validate: { mode: 'report', query: true }, answer: {} });
  });

  it('is refused with INVALID_VALIDATION when a #/ reference points at nothing, naming it', async () => {
    const app = createApp();
    const put = (body: unknown) =>
      app.request('/api/endpoints/api/routes', {
        method: 'PUT',
        body: JSON.stringify({ routes: [{ validate: { mode: 'enforce', body }, answer: {} }] }),
      });
    const typo = await put({ $defs: { pet: { type: 'object' } }, properties: { pet: { $ref: '#/$defs/pett' } } });
    expect(typo.status).toBe(400);
    const { error } = (await typo.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('INVALID_VALIDATION');
    expect(error.message).toContain('#/$defs/pett');
    // Data that looks like a reference, a property named "default", and a pointer that resolves are fine.
    const fine = await put({
      $defs: { 'a/b': { type: 'string' } },
      properties: { default: { $ref: '#/$defs/a~1b' }, kind: { const: { $ref: '#/nowhere' } } },
    });
    expect(fine.status, await fine.text()).toBe(200);
    // A pointer inside a property named "default" is still checked.
    expect((await put({ properties: { default: { $ref: '#/$defs/none' } } })).status).toBe(400);
  });
});

describe('a route validate field checked when saved', () => {
  const put = (body: unknown, part = 'body') =>
    createApp().request('/api/endpoints/api/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ validate: { mode: 'enforce', [part]: body }, answer: {} }] }),
    });
  const refusal = async (response: Response) => {
    expect(response.status).toBe(400);
    return ((await response.json()) as { error: { code: string; message: string } }).error;
  };

  it('refuses a pattern RE2 cannot run (lookaround, backreferences), naming the pattern and why', async () => {
    const lookahead = await refusal(await put({ properties: { s: { type: 'string', pattern: '^(?=a)a+$' } } }));
    expect(lookahead.code).toBe('INVALID_VALIDATION');
    expect(lookahead.message).toContain('"^(?=a)a+$"');
    expect(lookahead.message).toContain('#/properties/s/pattern');
    expect(lookahead.message).toContain('lookahead');
    const named = await refusal(await put({ patternProperties: { '(\\w)\\k<x>': true } }, 'query'));
    expect(named.message).toContain('backreferences');
    const numbered = await refusal(await put({ items: { pattern: '(a)\\1' } }));
    expect(numbered.message).toContain('(a)\\\\1');
    // The ReDoS classic is a fine pattern for RE2: it is kept, and run in linear time.
    expect((await put({ properties: { s: { pattern: '^(a+)+$' } } })).status).toBe(200);
  });

  it('refuses a $ref cycle that stays on one value, naming it; a tree whose nodes hold nodes is fine', async () => {
    const self = await refusal(await put({ $ref: '#' }));
    expect(self.code).toBe('INVALID_VALIDATION');
    expect(self.message).toContain('$ref cycle # → #');
    const pair = await refusal(
      await put(
        { $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/a' }] } } },
        'headers',
      ),
    );
    expect(pair.message).toContain('#/$defs/a → #/$defs/a/allOf/0 → #/$defs/b → #/$defs/b/anyOf/1 → #/$defs/a');
    const anchored = await refusal(await put({ $defs: { n: { $anchor: 'n', not: { $ref: '#n' } } }, $ref: '#n' }));
    expect(anchored.message).toContain('$ref cycle');
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          additionalProperties: { $ref: '#' },
        },
      },
      $ref: '#/$defs/node',
    };
    expect((await put(tree)).status).toBe(200);
  });
});
