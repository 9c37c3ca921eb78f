// A test session's end in one request against the built daemon: `DELETE /api/namespaces/{ns}?unhandled=true`
// answers the requests in the namespace that nothing answered, read just before it is deleted (what
// `GET /ns/{ns}/api/requests/unhandled` lists), so the Vitest plugin ends a session with one request
// instead of two. Memory and LevelDB, with an admin token; 127.0.0.1 only.
import { describe, expect, it } from 'vitest';
import { type Daemon, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const ADMIN = 'end-report-admin';
const admin = { authorization: `Bearer ${ADMIN}` };

async function session(daemon: Daemon): Promise<{ name: string; token: string }> {
  const made = await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: {}, headers: admin });
  expect(made.status).toBe(201);
  const { name, token } = made.body as { name: string; token: string };
  const put = await requestJson(`${daemon.url}/ns/${name}/api/endpoints/api/routes`, {
    method: 'PUT',
    body: { routes: [{ match: { method: 'GET', path: '/whoami' }, answer: { data: { me: name } } }] },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(put.status).toBe(200);
  return { name, token };
}

describe.each([
  ['memory', ['--memory']],
  ['LevelDB', []],
] as const)('a session ended with its report (%s)', (_store, args) => {
  it('answers what nothing answered in it, and only in it, then it is gone', async () => {
    const daemon = await startDaemon({ args: [...args], env: { MOCKPOINT_ADMIN_TOKEN: ADMIN } });
    const [one, two] = [await session(daemon), await session(daemon)];
    expect((await fetch(`${daemon.url}/ns/${one.name}/endpoint/api/whoami`)).status).toBe(200);
    expect((await fetch(`${daemon.url}/ns/${one.name}/endpoint/nobody/x`)).status).toBe(404);
    expect((await fetch(`${daemon.url}/ns/${one.name}/endpoint/api/missing`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${daemon.url}/ns/${two.name}/endpoint/other`)).status).toBe(404);

    const ended = await requestJson(`${daemon.url}/api/namespaces/${one.name}?unhandled=true`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(ended.status).toBe(200);
    const { requests } = ended.body as {
      requests: { name: string; method: string; subpath: string; message: string }[];
    };
    expect(requests.map(({ method, name, subpath }) => `${method} ${name} ${subpath}`)).toEqual([
      'GET nobody /x',
      'DELETE api /missing',
    ]);
    expect(requests[1]?.message).toContain('whoami');
    expect((await requestJson(`${daemon.url}/api/namespaces/${one.name}`, { headers: admin })).status).toBe(404);

    // Without the query (or false): 204 as before; a bad value deletes nothing.
    const bad = await requestJson(`${daemon.url}/api/namespaces/${two.name}?unhandled=yes`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
    expect((await requestJson(`${daemon.url}/api/namespaces/${two.name}`, { headers: admin })).status).toBe(200);
    // Its own token cannot end it: namespaces are managed with the admin token.
    const own = await requestJson(`${daemon.url}/api/namespaces/${two.name}?unhandled=true`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${two.token}` },
    });
    expect(own.status).toBe(403);
    const plain = await requestJson(`${daemon.url}/api/namespaces/${two.name}?unhandled=false`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(plain.status).toBe(204);
    const unknown = await requestJson(`${daemon.url}/api/namespaces/${two.name}?unhandled=true`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(unknown.status).toBe(404);
    expect((unknown.body as { error: { code: string } }).error.code).toBe('NAMESPACE_NOT_FOUND');
  });
});
