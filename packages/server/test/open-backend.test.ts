// openBackend(): the settings choose the backend by kind (Redis URL, memory, else
// LevelDB), each one complete and described as the start-up line says it, with
// real LevelDB on disk and a real redis-server; the failures keep their codes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendKind, openBackend } from '../src/open-backend.js';

let redis: TestRedis;
let dir: string;
beforeAll(async () => {
  redis = await startTestRedis();
  dir = await mkdtemp(join(tmpdir(), 'mockpoint-open-backend-'));
});
afterAll(async () => {
  await redis?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('openBackend', () => {
  it('chooses Redis when there is a URL (even with memory), memory when asked, LevelDB otherwise', () => {
    expect(backendKind({ redisUrl: '/tmp/x.sock', memory: true })).toBe('redis');
    expect(backendKind({ memory: true, dataDir: dir })).toBe('memory');
    expect(backendKind({ dataDir: dir })).toBe('level');
    expect(backendKind({})).toBe('level');
  });

  it('opens each kind complete, with the journal bounds given, described as the start-up line says it', async () => {
    const cases = [
      { settings: { memory: true }, kind: 'memory', describes: 'memory (nothing is written to disk)' },
      { settings: { dataDir: join(dir, 'a', 'b') }, kind: 'level', describes: `level at ${join(dir, 'a', 'b')}` },
      {
        settings: { redisUrl: redis.socket },
        kind: 'redis',
        describes: `redis at unix:${redis.socket}, appendfsync always`,
      },
    ];
    for (const { settings, kind, describes } of cases) {
      const backend = await openBackend({ ...settings, journalSize: 3 });
      try {
        expect(backend.kind).toBe(kind);
        expect(backend.store.kind).toBe(kind);
        expect(backend.describe()).toBe(describes);
        expect(backend.journal).toMatchObject({ size: 3 });
        expect(backend.warnings).toEqual([]);
      } finally {
        await backend.close();
      }
    }
  });

  it('a data directory that cannot be made: DATA_DIR_UNUSABLE; an unreachable Redis: REDIS_UNREACHABLE', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    await expect(openBackend({ dataDir: join(file, 'data') })).rejects.toMatchObject({
      name: 'StartError',
      code: 'DATA_DIR_UNUSABLE',
    });
    await expect(
      openBackend({ redisUrl: join(dir, 'no-redis.sock'), redisConnectTimeoutMs: 300 }),
    ).rejects.toMatchObject({ name: 'StartError', code: 'REDIS_UNREACHABLE' });
  });
});
