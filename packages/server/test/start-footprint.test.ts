// The idle-RSS budget of a plain start (issue #64, docs/performance.md "A plain start's young
// generation"): a daemon on a LevelDB directory that holds one endpoint, started, asked for that
// endpoint once (the first stub answered), then measured. Its resident memory is read from
// /proc, V8's heap spaces from a preloaded probe (fixtures/heap-probe.mjs) at the same moment.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, ON_BUN, removeTempDirs, startDaemon } from './helpers/daemon.js';

const PROBE = fileURLToPath(new URL('./fixtures/heap-probe.mjs', import.meta.url));

/**
 * The budget. The goal is under 70 MB (#64; a bare `node:http` server is 44 MB, of which the
 * `node` binary's own pages are about 35). This build reads 68–73 MB here on Node 20 (mostly the
 * binary's pages, 40 MB, and V8's heap, 18 MB); before the young generation was held at start it
 * read 76–80 MB. One build's starts vary by up to 8 MB (67.7–75.5 MB in five starts on a loaded
 * machine: the allocator's pages, a scavenge more or less), so the budget is the goal with that
 * spread (78 MB): it fails when a start-up cost of that size comes back. The young generation's
 * own check below is the one that fails when it grows at start again (16 MB, as before).
 */
const RSS_BUDGET_MB = 78;

/**
 * V8's young generation: two 1 MB semi-spaces, held at that size while the modules load
 * (lean-start.ts), then free to grow again after the first scavenge past listening. It reads 4 MB
 * here, or 8 MB when the next scavenge still sweeps start-up's and the first request's survivors:
 * about one start in three on a machine at load 7, main's build and the WireMock matchers' alike
 * (2026-11-27, 1 of 3 and 2 of 3; 1 of 5 with two scavenges held). Grown while loading, as before
 * the hold, it is 16 MB at this point: that is what this bound fails on.
 */
const YOUNG_GENERATION_MB = 8;

/**
 * The webhook POSTs of the load test below, and the young generation an unheld start reaches in them
 * (Node 20: two 16 MB semi-spaces, V8's most). 2,000 POSTs read 8 MB once in a CI run, run alone: the
 * growths come at scavenges that keep much, and 2,000 left room for too few of them. 6,000 read 8 MB
 * once too (a fresh-clone CI run, 2026-11-28, after three runs that passed): the load is what lets
 * the growths come, so it is 15,000 (about 4 s here).
 */
const POST_LOAD = 15_000;
const GROWN_YOUNG_GENERATION_MB = 32;

afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

/** Resident memory of process `pid` in MB, from /proc (Linux). */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

interface HeapReading {
  spaces: Record<string, number>;
  memory: NodeJS.MemoryUsage;
}

// Not on Bun (its heap is JavaScriptCore's) and only where /proc tells a process's RSS.
describe.skipIf(ON_BUN || process.platform !== 'linux')('a plain start', () => {
  beforeAll(() => assertBuilt());

  it('answers its first stub within the idle-RSS budget, its young generation not grown', async () => {
    const dir = await makeTempDir('mockpoint-footprint-');
    const dataDir = join(dir, 'data');
    // The endpoint is stored by one daemon; the measured one only reads it, as after a restart
    // (a write through the API would load the admin API's listener, which a plain start has not).
    const first = await startDaemon({ args: ['--data-dir', dataDir] });
    const put = await fetch(`${first.url}/api/endpoints/stub`, {
      method: 'PUT',
      body: JSON.stringify({ data: { hello: 'world' } }),
    });
    expect(put.status).toBe(201);
    expect((await first.stop()).code).toBe(0);

    const probeFile = join(dir, 'heap.json');
    const daemon = await startDaemon({
      args: ['--data-dir', dataDir],
      nodeArgs: ['--import', PROBE],
      env: { MOCKPOINT_TEST_HEAP_PROBE: probeFile },
    });
    const answer = await fetch(`${daemon.url}/endpoint/stub`);
    expect(await answer.json()).toEqual({ hello: 'world' });

    const pid = daemon.child.pid as number;
    const rss = await residentMb(pid);
    daemon.child.kill('SIGUSR2');
    await expect.poll(() => existsSync(probeFile), { timeout: 10_000, interval: 5 }).toBe(true);
    const heap = JSON.parse(await readFile(probeFile, 'utf8')) as HeapReading;
    expect((await daemon.stop()).code).toBe(0);

    const young = (heap.spaces.new_space ?? 0) / 2 ** 20;
    const detail = `RSS ${rss.toFixed(1)} MB, heap ${(heap.memory.heapTotal / 2 ** 20).toFixed(1)} MB, young generation ${young.toFixed(1)} MB`;
    expect(young, detail).toBeLessThanOrEqual(YOUNG_GENERATION_MB);
    expect(rss, detail).toBeLessThan(RSS_BUDGET_MB);
  });

  // Held at start, the young generation must still grow under a load as it did unheld: given V8's
  // default growth back, 2,000 webhook POSTs left it at 8 MB and the hot path scavenged twice
  // as often (the signed POST 8 % slower in the bench, docs/performance.md).
  it('grows its young generation under a webhook load as an unheld start does', async () => {
    const dir = await makeTempDir('mockpoint-footprint-');
    const probeFile = join(dir, 'heap.json');
    const daemon = await startDaemon({
      args: ['--memory'],
      nodeArgs: ['--import', PROBE],
      env: { MOCKPOINT_TEST_HEAP_PROBE: probeFile },
    });
    const put = await fetch(`${daemon.url}/api/endpoints/hook`, {
      method: 'PUT',
      body: JSON.stringify({ data: { received: true } }),
    });
    expect(put.status).toBe(201);
    const webhook = JSON.stringify({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      data: { object: { amount: 2000 } },
    });
    let left = POST_LOAD;
    const statuses = new Set<number>();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (left-- > 0) {
          const answer = await fetch(`${daemon.url}/endpoint/hook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: webhook,
          });
          statuses.add(answer.status);
          await answer.arrayBuffer();
        }
      }),
    );
    expect([...statuses]).toEqual([200]);
    daemon.child.kill('SIGUSR2');
    await expect.poll(() => existsSync(probeFile), { timeout: 10_000, interval: 5 }).toBe(true);
    const heap = JSON.parse(await readFile(probeFile, 'utf8')) as HeapReading;
    expect((await daemon.stop()).code).toBe(0);
    expect(
      (heap.spaces.new_space ?? 0) / 2 ** 20,
      `young generation after ${POST_LOAD} POSTs, MB`,
    ).toBeGreaterThanOrEqual(GROWN_YOUNG_GENERATION_MB);
  });
});
