// A twin is a per-name setting (docs/twins.md): kept on LevelDB across a restart, listed as
// { name, twin: true }, nothing of it among the name's collections, exported and applied back as
// the mock file's `twin:`; on two daemons sharing one real redis-server, a twin put on one answers
// on the other, even for a name the other already answered without one, and a removal on either
// is seen by both. Every process listens on 127.0.0.1.
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, runCli, startDaemon } from './helpers/daemon.js';
import { useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notizen 🚀', version: '1' },
  paths: { '/notes': { post: { responses: {} } }, '/notes/{id}': { get: { responses: {} } } },
};
const PROFILE = { name: 'notes', ids: { style: 'sequence' } };

async function send(daemon: Daemon, method: string, path: string, body?: unknown) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** What a POST of a note answers: its status and, when it is an error, its code. */
async function makeNote(daemon: Daemon, name: string) {
  const answer = await send(daemon, 'POST', `/endpoint/${name}/notes`, { title: 'a' });
  const error = (answer.body as { error?: { code?: string } } | undefined)?.error?.code;
  return error === undefined ? answer.status : error;
}

describe('the twin as a per-name setting', () => {
  it('is kept on LevelDB across a restart, listed as twin: true, and is no collection of its name', async () => {
    const dataDir = await makeTempDir('mockpoint-twin-setting-');
    const first = await startDaemon({ args: ['--data-dir', dataDir] });
    expect((await send(first, 'PUT', '/api/endpoints/n/twin', { document: DOCUMENT, profile: PROFILE })).status).toBe(
      200,
    );
    expect(await makeNote(first, 'n')).toBe(200);
    // Its objects are the name's collections; the setting itself is none of them.
    const collections = (await send(first, 'GET', '/api/endpoints/n/collections')).body as Record<string, unknown>;
    expect(Object.keys(collections).filter((collection) => collection.startsWith('_twin'))).toEqual([]);
    expect(Object.keys(collections)).toContain('notes');
    // Only the setting: listed as such.
    expect((await send(first, 'PUT', '/api/endpoints/only/twin', { document: DOCUMENT })).status).toBe(200);
    const list = (await send(first, 'GET', '/api/endpoints')).body as { endpoints: Record<string, unknown>[] };
    expect(list.endpoints.find((entry) => entry.name === 'only')).toEqual({ name: 'only', twin: true });
    // The setting as put, for export.
    expect((await send(first, 'GET', '/api/endpoints/n/twin?setting=true')).body).toEqual({
      document: DOCUMENT,
      profile: PROFILE,
    });
    await first.stop();

    const second = await startDaemon({ args: ['--data-dir', dataDir] });
    expect(await makeNote(second, 'n')).toBe(200);
    expect((await send(second, 'GET', '/api/endpoints/only/twin')).body).toMatchObject({ collections: ['/notes'] });
  });

  it('is exported as twin: and applied back by the CLI', async () => {
    const from = await startDaemon({ args: ['--memory'] });
    expect((await send(from, 'PUT', '/api/endpoints/n/twin', { document: DOCUMENT, profile: PROFILE })).status).toBe(
      200,
    );
    const exported = await runCli({ args: ['export', '--url', from.url, '--format', 'json'] });
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    const file = JSON.parse(exported.stdout) as { endpoints: Record<string, unknown>[] };
    expect(file.endpoints).toEqual([{ name: 'n', twin: { document: DOCUMENT, profile: PROFILE } }]);

    const to = await startDaemon({ args: ['--memory'] });
    const path = `${await makeTempDir('mockpoint-twin-export-')}/mockpoint.json`;
    await writeFile(path, exported.stdout);
    const applied = await runCli({ args: ['apply', path, '--url', to.url] });
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect(await makeNote(to, 'n')).toBe(200);
    expect((await send(to, 'GET', '/api/endpoints/n/twin?setting=true')).body).toEqual({
      document: DOCUMENT,
      profile: PROFILE,
    });
  });

  it('put on one Redis replica answers on the other, for a name the other served without one too', async () => {
    const env = { MOCKPOINT_REDIS_URL: (await twinRedis.redis()).socket };
    const [a, b] = await Promise.all([startDaemon({ env }), startDaemon({ env })]);
    if (a === undefined || b === undefined) throw new Error('two replicas');
    // B answers the name first, while it has no twin.
    expect(await makeNote(b, 'shared')).toBe('NO_ROUTE_MATCHED');

    expect((await send(a, 'PUT', '/api/endpoints/shared/twin', { document: DOCUMENT, profile: PROFILE })).status).toBe(
      200,
    );
    await expect.poll(() => makeNote(b, 'shared')).toBe(200);
    expect((await send(b, 'GET', '/api/endpoints/shared/twin')).body).toMatchObject({ collections: ['/notes'] });
    // What B made, A answers (sequence ids: the first note is 1).
    expect((await send(a, 'GET', '/endpoint/shared/notes/1')).body).toMatchObject({ id: 1, title: 'a' });

    // Removed on B: A stops being a twin.
    expect((await send(b, 'DELETE', '/api/endpoints/shared/twin')).status).toBe(204);
    await expect.poll(() => makeNote(a, 'shared')).toBe('NO_ROUTE_MATCHED');
    expect((await send(a, 'GET', '/api/endpoints/shared/twin')).status).toBe(404);
  });
});
