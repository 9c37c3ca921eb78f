// What a test session leaves when it ends: nothing. Sessions made, used and deleted on a real
// LevelDB directory leave no app made, no namespace listed and no key of theirs on disk; and a
// namespace that holds nothing is deleted without waiting for a turn of the event loop.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import type { Backend } from '../store/backend.js';
import { levelBackend } from '../store/level/index.js';
import { memoryBackend } from '../store/memory/backend.js';

const open: { app: MockpointApp; backend: Backend; dir?: string }[] = [];
afterEach(async () => {
  for (const { app, backend, dir } of open.splice(0)) {
    await app.mockpoint.namespaces?.close();
    await backend.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
});

async function session(app: MockpointApp, i: number, write: boolean): Promise<void> {
  const made = await app.request('/api/namespaces', { method: 'POST', body: '{}' });
  expect(made.status).toBe(201);
  const { name } = (await made.json()) as { name: string };
  if (write) {
    const put = await app.request(`/ns/${name}/api/endpoints/user`, {
      method: 'PUT',
      body: JSON.stringify({ data: { i } }),
    });
    expect(put.status).toBe(201);
    expect(await (await app.request(`/ns/${name}/endpoint/user`)).json()).toEqual({ i });
  } else {
    expect((await app.request(`/ns/${name}/api/endpoints`)).status).toBe(200);
  }
  expect((await app.request(`/api/namespaces/${name}`, { method: 'DELETE' })).status).toBe(204);
}

describe('sessions that ended', () => {
  it('leave no app, no namespace and no key on a LevelDB directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-ns-end-'));
    const backend = await levelBackend({ dir });
    const app = createApp({ backend });
    open.push({ app, backend, dir });
    for (let i = 0; i < 40; i++) await session(app, i, i % 4 !== 0);
    // Sequential and concurrent sessions alike.
    await Promise.all(Array.from({ length: 40 }, (_, i) => session(app, 100 + i, i % 4 !== 0)));
    expect(app.mockpoint.namespaces?.liveCount).toBe(0);
    expect(await (await app.request('/api/namespaces')).json()).toEqual({ namespaces: [] });
    await app.mockpoint.namespaces?.close();
    await backend.close();
    open.splice(0);
    const db = new Level<string, string>(dir);
    try {
      const keys = await db.keys().all();
      // Every namespace's key starts with \u0004 (store/level/index.ts): none is left.
      expect(keys.filter((key) => key.startsWith('\u0004'))).toEqual([]);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("clears a session's data with no fsync of its own; a chosen name's durably before the delete answers", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-ns-end-'));
    const backend = await levelBackend({ dir });
    const app = createApp({ backend });
    open.push({ app, backend, dir });
    const batch = vi.spyOn(Level.prototype, 'batch');
    try {
      const synced = () =>
        batch.mock.calls.filter((call) => ((call as unknown[])[1] as { sync?: boolean } | undefined)?.sync === true)
          .length;
      /** The synced writes of deleting namespace `body` names (made and written first). */
      const syncsOfDelete = async (body: string): Promise<number> => {
        const made = await app.request('/api/namespaces', { method: 'POST', body });
        const { name } = (await made.json()) as { name: string };
        const put = await app.request(`/ns/${name}/api/endpoints/user`, { method: 'PUT', body: '{"data":1}' });
        expect(put.status).toBe(201);
        const before = synced();
        expect((await app.request(`/api/namespaces/${name}`, { method: 'DELETE' })).status).toBe(204);
        return synced() - before;
      };
      // The registry's entry, then (a chosen name, which may be made again at once) the clear's sync mark.
      expect(await syncsOfDelete('{"name":"chosen"}')).toBe(2);
      expect(await syncsOfDelete('{}')).toBe(1);
      // Made again at once, the chosen name starts empty.
      await app.request('/api/namespaces', { method: 'POST', body: '{"name":"chosen"}' });
      expect((await app.request('/ns/chosen/endpoint/user')).status).toBe(404);
    } finally {
      batch.mockRestore();
    }
  });

  it('a namespace that holds nothing is deleted without waiting for a turn of the event loop', async () => {
    const backend = memoryBackend();
    const app = createApp({ backend });
    open.push({ app, backend });
    const made = await app.request('/api/namespaces', { method: 'POST', body: '{"name":"quick"}' });
    expect(made.status).toBe(201);
    expect((await app.request('/ns/quick/api/endpoints')).status).toBe(200);
    let turned = false;
    // A timer set before the delete: the delete's answer comes first when it waits for no turn.
    setTimeout(() => {
      turned = true;
    }, 0);
    const deleting = app.mockpoint.namespaces?.delete('quick');
    await deleting;
    expect(turned).toBe(false);
    expect(app.mockpoint.namespaces?.liveCount).toBe(0);
  });
});
