// A routes list of SLICED_ROUTES_CHARS or more is read, checked and compiled a slice per
// event-loop turn (#49 S7): the same routes, answers and refusals as a short list, and other
// work (here a timer) runs while it is read. (Compiling on the first request is sliced by time,
// when reading the list took a turn's budget: not asserted here.)
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { SLICED_ROUTES_CHARS } from '../../turns/turn-budget.js';

/** Sends `routes`, each `"BIG"` as the integer 12345678901234567890 (beyond a double's precision). */
function put(app: MockpointApp, name: string, routes: unknown[], method = 'PUT') {
  const body = JSON.stringify({ routes }).replaceAll('"BIG"', '12345678901234567890');
  return app.request(`/api/endpoints/${name}/routes`, { method, body });
}

/** `count` routes of about 1 KiB, each its own path, `data` with a big integer kept exact. */
function routes(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    match: { path: `/items/${i}/:part` },
    answer: { headers: { 'x-route': `r${i}` }, data: { id: 'BIG', text: 'x'.repeat(1000) } },
  }));
}

/** Timer ticks while `work` runs: 0 when it held the event loop from start to end. */
async function ticksDuring<T>(work: () => T | Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  try {
    return { result: await work(), ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('a long routes list', () => {
  const long = routes(600);
  it('is long enough to be read in slices', () => {
    expect(JSON.stringify(long).length).toBeGreaterThan(2 * SLICED_ROUTES_CHARS);
  });

  it('is stored and answered like a short one, data exact, while timers run', async () => {
    const app = createApp({ maxBodyBytes: 1024 * 1024 });
    const { result: saved, ticks } = await ticksDuring(() => put(app, 'long', long));
    expect(saved.status).toBe(200);
    expect(ticks).toBeGreaterThan(0);
    const text = await saved.text();
    expect(text).toContain('"data":{"id":12345678901234567890,');
    const short = createApp({ maxBodyBytes: 1024 * 1024 });
    const one = await put(short, 'long', long.slice(0, 300));
    const two = await put(short, 'long', long.slice(300), 'POST');
    expect(two.status).toBe(201);
    expect(one.status).toBe(200);
    expect(await two.text()).toBe(text);
    const served = await app.request('/endpoint/long/items/599/a');
    expect(served.status).toBe(200);
    expect(served.headers.get('x-route')).toBe('r599');
    expect(await served.text()).toBe(`{"id":12345678901234567890,"text":"${'x'.repeat(1000)}"}`);
  });

  it('is refused at its first bad route, with its index, nothing stored', async () => {
    const app = createApp({ maxBodyBytes: 1024 * 1024 });
    const cases: [Record<string, unknown>, string][] = [
      [{ answer: { statusCode: 99 } }, 'INVALID_STATUS_CODE'],
      [{ id: 'r1', answer: {} }, 'DUPLICATE_ROUTE_ID'],
      [{ answer: { bodyBase64: 'not base64!' } }, 'INVALID_ANSWER'],
      [{ answer: {}, extra: 1 }, 'UNKNOWN_FIELD'],
      [{ match: {} }, 'INVALID_ROUTE'],
    ];
    for (const [bad, code] of cases) {
      const list = [...long.slice(0, 500), bad, ...long.slice(500)];
      const response = await put(app, 'long', list);
      const body = (await response.json()) as { error: { code: string; message: string; details: { index: number } } };
      expect(response.status, code).toBe(400);
      expect(body.error).toMatchObject({ code, details: { index: 500 } });
      expect(body.error.message).toMatch(/^routes\[500\]/);
    }
    const listed = (await (await app.request('/api/endpoints/long/routes')).json()) as { routes: unknown[] };
    expect(listed.routes).toEqual([]);
  });
});
