// The namespace's chaos (/api/chaos): every endpoint without chaos of its own
// is faulted from one seeded sequence, each fault journaled with namespace: true;
// an endpoint's own chaos wins; a timeout is let go when it is cleared; a full
// reset removes it; the client sets, reads and clears it.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/client.js';
import { createApp, type MockpointApp } from '../../index.js';

async function json(
  response: Response,
): Promise<{ error?: { code: string; message: string } } & Record<string, unknown>> {
  return (await response.json()) as { error?: { code: string; message: string } } & Record<string, unknown>;
}

async function appWith(...names: string[]): Promise<MockpointApp> {
  const app = createApp();
  for (const name of names) {
    const put = await app.request(`/api/endpoints/${name}`, { method: 'PUT', body: '{"data":{"ok":true}}' });
    expect(put.status).toBe(201);
  }
  return app;
}

async function status(app: MockpointApp, path: string): Promise<number> {
  const response = await app.request(path);
  await response.arrayBuffer();
  return response.status;
}

describe('namespace chaos', () => {
  it("faults every endpoint without its own, journaled as the namespace's; GET shows it, DELETE stops it", async () => {
    const app = await appWith('a', 'b');
    expect((await app.request('/api/chaos')).status).toBe(404);
    const put = await app.request('/api/chaos', { method: 'PUT', body: '{"rate":1,"faults":["503"],"seed":3}' });
    expect(put.status).toBe(200);
    expect(await json(put)).toEqual({ rate: 1, faults: ['503'], seed: 3 });
    expect(await json(await app.request('/api/chaos'))).toEqual({ rate: 1, faults: ['503'], seed: 3 });

    for (const name of ['a', 'b', 'no-such-name']) {
      const response = await app.request(`/endpoint/${name}`);
      expect(response.status).toBe(503);
      const body = await json(response);
      expect(body.error?.code).toBe('CHAOS_UNAVAILABLE');
      expect(body.error?.message).toContain('DELETE /api/chaos');
    }
    const journal = await json(await app.request('/api/endpoints/a/requests'));
    expect((journal.requests as { answeredBy: unknown }[]).map((entry) => entry.answeredBy)).toEqual([
      { chaos: '503', namespace: true },
    ]);

    expect((await app.request('/api/chaos', { method: 'DELETE' })).status).toBe(204);
    expect(await status(app, '/endpoint/a')).toBe(200);
    expect((await app.request('/api/chaos')).status).toBe(404);
  });

  it("an endpoint's own chaos wins over the namespace's, also at rate 0", async () => {
    const app = await appWith('own', 'calm', 'other');
    await app.request('/api/chaos', { method: 'PUT', body: '{"rate":1,"faults":["500"]}' });
    await app.request('/api/endpoints/own/chaos', { method: 'PUT', body: '{"rate":1,"faults":["429"]}' });
    await app.request('/api/endpoints/calm/chaos', { method: 'PUT', body: '{"rate":0,"faults":["429"]}' });
    expect(await status(app, '/endpoint/own')).toBe(429);
    expect(await status(app, '/endpoint/calm')).toBe(200);
    expect(await status(app, '/endpoint/other')).toBe(500);
    const own = await json(await app.request('/api/endpoints/own/requests'));
    expect((own.requests as { answeredBy: unknown }[])[0]?.answeredBy).toEqual({ chaos: '429' });
    // The endpoint's own removed: the namespace's applies to it again.
    await app.request('/api/endpoints/own/chaos', { method: 'DELETE' });
    expect(await status(app, '/endpoint/own')).toBe(500);
  });

  it('one seeded sequence for the namespace: the same seed, the same decisions across endpoints', async () => {
    const run = async () => {
      const app = await appWith('x', 'y');
      await app.request('/api/chaos', { method: 'PUT', body: '{"rate":0.5,"faults":["500","503"],"seed":99}' });
      const seen: number[] = [];
      for (let i = 0; i < 40; i++) seen.push(await status(app, `/endpoint/${i % 2 === 0 ? 'x' : 'y'}`));
      return seen;
    };
    const first = await run();
    expect(first).toEqual(await run());
    expect(new Set(first)).toEqual(new Set([200, 500, 503]));
  });

  it('refuses bad chaos as the endpoint chaos does, and changes nothing', async () => {
    const app = await appWith('a');
    for (const [body, code] of [
      ['{"rate":2,"faults":["503"]}', 'INVALID_CHAOS'],
      ['{"rate":0.5,"faults":[]}', 'INVALID_CHAOS'],
      ['{"rate":0.5,"faults":["503"],"x":1}', 'UNKNOWN_FIELD'],
      [
        '{"rate":0.5,"faults":["503"],"latency":{"distribution":"uniform","min":0,"max":1,"seed":1}}',
        'INVALID_LATENCY',
      ],
    ] as const) {
      const response = await app.request('/api/chaos', { method: 'PUT', body });
      expect(response.status).toBe(400);
      expect((await json(response)).error?.code).toBe(code);
    }
    expect((await app.request('/api/chaos')).status).toBe(404);
  });

  it('a request held by its timeout is let go (reset) when it is cleared', async () => {
    const app = await appWith('slow');
    await app.request('/api/chaos', { method: 'PUT', body: '{"rate":1,"faults":["timeout"]}' });
    const held = app.fetch(new Request('http://mock.test/endpoint/slow'));
    let settled = false;
    void Promise.resolve(held).then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    // Journaled as the chaos timeout (a long-poll of the journal), then one turn of the event loop:
    // an answer given at once would have settled by then, all of it in this process.
    const journal = await json(await app.request('/api/endpoints/slow/requests?wait=5000&count=1'));
    expect((journal.requests as { answeredBy: unknown; fault?: string }[]).map((e) => [e.answeredBy, e.fault])).toEqual(
      [[{ chaos: 'timeout', namespace: true }, 'hang']],
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect((await app.request('/api/chaos', { method: 'DELETE' })).status).toBe(204);
    await expect.poll(() => settled, { timeout: 5000 }).toBe(true);
  });

  it('a full reset (DELETE /api/endpoints) removes it', async () => {
    const app = await appWith('a');
    await app.request('/api/chaos', { method: 'PUT', body: '{"rate":1,"faults":["503"]}' });
    expect((await app.request('/api/endpoints', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/api/chaos')).status).toBe(404);
  });

  it('the client sets, reads and clears it', async () => {
    const app = await appWith('a');
    const client = createClient({ baseUrl: 'http://mock.test', app });
    expect(await client.setNamespaceChaos({ rate: 1, faults: ['429'], seed: 5 })).toEqual({
      rate: 1,
      faults: ['429'],
      seed: 5,
    });
    expect(await client.namespaceChaos()).toEqual({ rate: 1, faults: ['429'], seed: 5 });
    expect(await status(app, '/endpoint/a')).toBe(429);
    await client.clearNamespaceChaos();
    await expect(client.namespaceChaos()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await status(app, '/endpoint/a')).toBe(200);
  });
});
