// The namespace calls against a recorded fake: paths, methods, tokens, bodies, and errors as MockpointErrors.
import { describe, expect, it } from 'vitest';
import { createNamespace, deleteNamespace, unhandledRequests } from './namespaces.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | null;
  body: string;
}

function fake(answer: (request: Request) => Response) {
  const seen: Seen[] = [];
  const fetch = async (request: Request) => {
    seen.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get('authorization'),
      body: await request.clone().text(),
    });
    return answer(request);
  };
  return { seen, fetch };
}

describe('the namespace calls', () => {
  it('creates with the admin token and the TTL, reads unhandled with the namespace token, deletes as admin', async () => {
    const { seen, fetch } = fake((request) => {
      if (request.method === 'POST')
        return Response.json({ name: 'n1', token: 'nt', ttlMs: 5000, createdAt: 'x' }, { status: 201 });
      if (request.method === 'GET') return Response.json({ requests: [{ id: 1, name: 'a' }] });
      return new Response(null, { status: 204 });
    });
    const api = { url: 'http://daemon.test/', token: 'admin', fetch };
    expect(await createNamespace(api, { ttlMs: 5000 })).toEqual({
      name: 'n1',
      token: 'nt',
      ttlMs: 5000,
      createdAt: 'x',
    });
    expect(await unhandledRequests(api, 'n1', 'nt')).toEqual([{ id: 1, name: 'a' }]);
    await deleteNamespace(api, 'n1');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: 'http://daemon.test/api/namespaces',
        authorization: 'Bearer admin',
        body: '{"ttlMs":5000}',
      },
      { method: 'GET', url: 'http://daemon.test/ns/n1/api/requests/unhandled', authorization: 'Bearer nt', body: '' },
      { method: 'DELETE', url: 'http://daemon.test/api/namespaces/n1', authorization: 'Bearer admin', body: '' },
    ]);
  });

  it('sends no Authorization without a token; a namespace already gone counts as deleted', async () => {
    const { seen, fetch } = fake(() =>
      Response.json({ error: { code: 'NAMESPACE_NOT_FOUND', message: 'no namespace "n2"' } }, { status: 404 }),
    );
    await deleteNamespace({ url: 'http://daemon.test', fetch }, 'n2');
    expect(seen[0]?.authorization).toBeNull();
  });

  it("throws the daemon's error as a MockpointError with its code and status", async () => {
    const { fetch } = fake(() =>
      Response.json({ error: { code: 'TOO_MANY_NAMESPACES', message: 'at most 10000' } }, { status: 429 }),
    );
    await expect(createNamespace({ url: 'http://daemon.test', fetch })).rejects.toMatchObject({
      name: 'MockpointError',
      code: 'TOO_MANY_NAMESPACES',
      status: 429,
      message: 'POST /api/namespaces: 429 at most 10000',
    });
    const { fetch: html } = fake(() => new Response('<h1>bad gateway</h1>', { status: 502 }));
    await expect(deleteNamespace({ url: 'http://daemon.test', fetch: html }, 'n')).rejects.toMatchObject({
      status: 502,
      message: 'DELETE /api/namespaces/n: 502 <h1>bad gateway</h1>',
    });
  });
});
