// A long JSON mock file of routes (an import's) checked a slice per event-loop turn: the same mock file as one parse,
// exact numbers and the ids given to routes without one included, and the same error for a bad route.
import { describe, expect, it } from 'vitest';
import { SLICED_ROUTES_CHARS } from '../turns/turn-budget.js';
import { pactMockFile, pactMockFileInTurns } from './pact-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';
import { parseMockFileInTurns } from './parse-mock-file-in-turns.js';

function fileOf(routes: unknown[]): string {
  return JSON.stringify({ version: 1, endpoints: [{ name: 'items', routes }, { name: 'empty' }] }).replaceAll(
    '"price":1.5',
    '"price":1.50',
  );
}

const ROUTES = Array.from({ length: 3200 }, (_, i) => ({
  ...(i % 3 === 0 ? {} : { id: `r${i}` }),
  match: { method: 'GET', path: `/items/${i}` },
  answer: { data: { id: i, price: 1.5 } },
}));

describe('parseMockFileInTurns', () => {
  it('makes the mock file one parse makes, letting the event loop run', async () => {
    const text = fileOf(ROUTES);
    expect(text.length).toBeGreaterThan(SLICED_ROUTES_CHARS);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const sliced = await parseMockFileInTurns(text, { format: 'json' });
    clearInterval(ticking);
    expect(sliced).toEqual(parseMockFile(text, { format: 'json' }));
    expect(sliced.endpoints[0]?.routes[0]?.id).toBe('route-1');
    expect(turns).toBeGreaterThan(5);
  });

  it('refuses a bad route as one parse does, where the file has it', async () => {
    const text = fileOf([...ROUTES.slice(0, 1500), { answer: { statusCode: 99 } }]);
    const whole = (() => {
      try {
        parseMockFile(text, { format: 'json' });
      } catch (error) {
        return error;
      }
    })();
    await expect(parseMockFileInTurns(text, { format: 'json' })).rejects.toEqual(whole);
    expect(String(whole)).toContain('endpoints[0].routes[1500]');
  });

  it('refuses an id repeated in different slices as one parse does', async () => {
    const routes = ROUTES.map((route, i) => (i === 0 || i === 60 ? { ...route, id: 'a' } : route));
    const text = fileOf(routes);
    expect(text.length).toBeGreaterThan(SLICED_ROUTES_CHARS);
    const whole = (() => {
      try {
        parseMockFile(text, { format: 'json' });
      } catch (error) {
        return error;
      }
    })();
    expect(whole).toMatchObject({ code: 'MOCK_FILE_INVALID', details: { reason: 'DUPLICATE_ROUTE_ID' } });
    expect(String(whole)).toMatch(/endpoints\[0\]\.routes\[60\].*id "a" is already used/);
    await expect(parseMockFileInTurns(text, { format: 'json' })).rejects.toEqual(whole);
  });

  it('reads a Pact file in turns into the same import', async () => {
    const interactions = Array.from({ length: 500 }, (_, i) => ({
      description: `get ${i % 400}`,
      request: { method: 'GET', path: `/items/${i % 450}` },
      response: { status: 200, body: { id: i, big: 1 } },
    }));
    const text = JSON.stringify({ provider: { name: 'items' }, interactions }).replaceAll('"big":1', '"big":1.50');
    expect(await pactMockFileInTurns(text)).toEqual(pactMockFile(text));
    await expect(pactMockFileInTurns('{"interactions": 3}')).rejects.toThrow('no interactions list');
  });
});
