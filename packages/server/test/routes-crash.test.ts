// Routes in the built daemon on LevelDB: every acknowledged route write (replace,
// append, remove one, clear, a record replaced beside them) survives SIGKILL, and
// is served byte for byte after the restart. Every daemon listens on 127.0.0.1
// port 0 in its own temp directory.
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

/** Sends raw JSON text (so big integers and `1.0` travel as written). */
async function send(url: string, method: string, text?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method, body: text, headers: { 'content-type': 'application/json' } });
  return { status: response.status, text: await response.text() };
}

describe('routes across SIGKILL (LevelDB)', () => {
  it('every acknowledged route write survives SIGKILL right after its answer, with exact bytes', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const api = (name: string, suffix = '') => `${first.url}/api/endpoints/${name}/routes${suffix}`;
    const exact = '{"id":12345678901234567890,"x":1.0,"z":-0}';

    // Ten names, each given its routes at once (concurrent replaces).
    const names = Array.from({ length: 10 }, (_, i) => `crash-routes-${i}`);
    const puts = await Promise.all(
      names.map((name, i) =>
        send(
          api(name),
          'PUT',
          `{"routes":[{"id":"item","match":{"path":"/items/:id"},"answer":{"data":${exact},"headers":{"x-n":"${i}"}}}]}`,
        ),
      ),
    );
    expect(puts.map((p) => p.status)).toEqual(names.map(() => 200));
    // One name gets 30 concurrent appends, one gets a route removed, one cleared, one a record beside its routes.
    const appends = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        send(
          api('crash-routes-0'),
          'POST',
          `{"routes":[{"id":"r${i}","match":{"path":"/r/${i}"},"answer":{"body":"r${i}"}}]}`,
        ),
      ),
    );
    expect(appends.map((a) => a.status)).toEqual(appends.map(() => 201));
    expect((await send(api('crash-routes-1', '/item'), 'DELETE')).status).toBe(204);
    expect((await send(api('crash-routes-2'), 'DELETE')).status).toBe(204);
    const record = await send(`${first.url}/api/endpoints/crash-routes-3`, 'PUT', '{"data":{"bare":true}}');
    expect(record.status).toBe(201);

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await startDaemon({ cwd });
    const served = (name: string, subpath: string) => send(`${second.url}/endpoint/${name}${subpath}`, 'GET');

    for (const [i, name] of names.entries()) {
      const got = await fetch(`${second.url}/endpoint/${name}/items/7`);
      const text = await got.text();
      if (name === 'crash-routes-1' || name === 'crash-routes-2') {
        expect(got.status, name).toBe(404);
        continue;
      }
      expect([got.status, text, got.headers.get('x-n')], name).toEqual([200, exact, String(i)]);
    }
    // All 30 appends, in the order they were acknowledged (each after the one before it in the list).
    const listed = (await requestJson(`${second.url}/api/endpoints/crash-routes-0/routes`)).body as {
      routes: { id: string }[];
    };
    const ids = listed.routes.map((route) => route.id);
    expect(ids[0]).toBe('item');
    expect(ids.slice(1).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `r${i}`).sort());
    for (let i = 0; i < 30; i++)
      expect(await served('crash-routes-0', `/r/${i}`)).toEqual({ status: 200, text: `r${i}` });
    // Exact text in the management API too.
    expect((await send(`${second.url}/api/endpoints/crash-routes-4/routes`, 'GET')).text).toContain(`"data":${exact}`);
    // The record and the routes beside it both survived.
    expect(await served('crash-routes-3', '')).toEqual({ status: 200, text: '{"bare":true}' });
    expect((await served('crash-routes-3', '/items/1')).status).toBe(200);
  });

  it('a burst of appends cut by SIGKILL: every acknowledged one is there after the restart, nothing half-written', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const url = `${first.url}/api/endpoints/burst/routes`;
    const acknowledged: string[] = [];
    let killed: Promise<unknown> | undefined;
    // 60 appends at once; SIGKILL as soon as 20 are acknowledged (the rest are in flight or refused).
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        try {
          const answer = await send(url, 'POST', `{"routes":[{"id":"b${i}","answer":{"body":"b${i}"}}]}`);
          if (answer.status === 201) acknowledged.push(`b${i}`);
          if (acknowledged.length === 20) killed ??= first.stop('SIGKILL');
        } catch {
          // the connection died with the process: not acknowledged
        }
      }),
    );
    expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);

    const second = await startDaemon({ cwd });
    const listed = await requestJson(`${second.url}/api/endpoints/burst/routes`);
    expect(listed.status).toBe(200);
    const ids = (listed.body as { routes: { id: string; answer: { body: string } }[] }).routes.map((route) => {
      // Each stored route is whole: its answer is the one sent with its id.
      expect(route.answer).toEqual({ body: route.id });
      return route.id;
    });
    for (const id of acknowledged) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
