// The client's clock methods, against an app (no socket): freeze and set, advance past a timed
// state move, a refused change with its code, and back to real time.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

describe('client clock methods', () => {
  it('setClock, advanceClock, clock and resetClock', async () => {
    const app = createApp();
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    await client.setRoutes('api', [
      { match: { path: '/login' }, answer: { setState: { after: '1h', to: 'expired' } } },
      { match: { path: '/now' }, answer: { template: true, body: '{{now}}' } },
    ]);
    expect(await client.setClock({ freeze: true, set: '2030-01-01T00:00:00Z' })).toMatchObject({
      now: '2030-01-01T00:00:00.000Z',
      frozen: true,
    });
    await app.request('/endpoint/api/login', { method: 'POST' });
    expect(await client.state('api')).toEqual({ default: 'started' });
    expect((await client.advanceClock('1h')).now).toBe('2030-01-01T01:00:00.000Z');
    expect(await client.state('api')).toEqual({ default: 'expired' });
    expect(await (await app.request('/endpoint/api/now')).text()).toBe('2030-01-01T01:00:00.000Z');
    expect((await client.clock()).frozen).toBe(true);

    const bad = await client.advanceClock('soon').catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(MockpointError);
    expect((bad as MockpointError).code).toBe('INVALID_CLOCK');

    await client.resetClock();
    expect(await client.clock()).toMatchObject({ frozen: false, offsetMs: 0 });
  });
});
