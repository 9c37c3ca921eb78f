// The namespace's chaos (/api/chaos) on the real daemon: the default namespace's
// and a namespace's (/ns/{ns}/api/chaos, or the mockpoint-session header) are
// each their own, each applies to its own endpoints only, both survive a SIGKILL
// on LevelDB once acknowledged, and a full reset of one namespace removes its own.
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return response.status;
}

describe('namespace chaos on the daemon', () => {
  it('per namespace, by path and by header; kept across SIGKILL; a full reset removes it', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    for (const name of ['n1', 'n2']) {
      expect((await requestJson(`${first.url}/api/namespaces`, { method: 'POST', body: { name } })).status).toBe(201);
    }
    for (const base of [first.url, `${first.url}/ns/n1`, `${first.url}/ns/n2`]) {
      const put = await requestJson(`${base}/api/endpoints/user`, { method: 'PUT', body: { data: 1 } });
      expect(put.status).toBe(201);
    }
    const one = await requestJson(`${first.url}/ns/n1/api/chaos`, {
      method: 'PUT',
      body: { rate: 1, faults: ['503'] },
    });
    expect(one.status).toBe(200);
    const own = await requestJson(`${first.url}/api/chaos`, {
      method: 'PUT',
      body: { rate: 1, faults: ['429'] },
    });
    expect(own.status).toBe(200);

    expect(await status(`${first.url}/ns/n1/endpoint/user`)).toBe(503);
    expect(await status(`${first.url}/endpoint/user`, { 'mockpoint-session': 'n1' })).toBe(503);
    expect(await status(`${first.url}/endpoint/user`)).toBe(429);
    expect(await status(`${first.url}/ns/n2/endpoint/user`)).toBe(200);

    // Acknowledged, then SIGKILL: both are still there.
    await first.stop('SIGKILL');
    const second = await startDaemon({ cwd });
    expect(await status(`${second.url}/ns/n1/endpoint/user`)).toBe(503);
    expect(await status(`${second.url}/endpoint/user`)).toBe(429);
    expect((await requestJson(`${second.url}/api/chaos`, { headers: { 'mockpoint-session': 'n1' } })).body).toEqual({
      rate: 1,
      faults: ['503'],
    });

    // A full reset of n1 removes n1's; the default namespace's stays.
    expect((await requestJson(`${second.url}/ns/n1/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
    expect((await requestJson(`${second.url}/ns/n1/api/chaos`)).status).toBe(404);
    expect(await status(`${second.url}/endpoint/user`)).toBe(429);
    expect((await requestJson(`${second.url}/api/chaos`, { method: 'DELETE' })).status).toBe(204);
    expect(await status(`${second.url}/endpoint/user`)).toBe(200);
  });
});
