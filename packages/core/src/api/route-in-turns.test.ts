// The route list's text and routes, a slice per event-loop turn: the same as at once.
import { describe, expect, it } from 'vitest';
import { JsonText } from '../codec/json-text.js';
import { SLICED_ROUTES_CHARS, TurnBudget } from '../turns/turn-budget.js';
import { decodeRoutes, decodeRoutesInTurns, type Route, routesJson, routesJsonInTurns } from './route.js';

function longList(): Route[] {
  return Array.from({ length: 300 }, (_, i) => ({
    id: `r${i}`,
    match: { path: `/r${i}`, method: 'GET' },
    answer: {
      headers: { 'x-n': String(i) },
      data: new JsonText(`{"n":12345678901234567890,"s":"${'y'.repeat(1000)}"}`),
    },
  }));
}

describe('a long route list in turns', () => {
  it('is written as the same text and read back as the same routes', async () => {
    const routes = longList();
    const text = await routesJsonInTurns(routes, new TurnBudget(-1));
    expect(text.length).toBeGreaterThan(SLICED_ROUTES_CHARS);
    expect(text).toBe(routesJson([...routes]));
    const decoded = await decodeRoutesInTurns(text, new TurnBudget(-1));
    expect(routesJson(decoded)).toBe(text);
    expect(decoded).toEqual(decodeRoutes(text));
  });

  it('answers the text it wrote only while the list holds the same routes', async () => {
    const routes = longList();
    const text = await routesJsonInTurns(routes, new TurnBudget());
    expect(routesJson(routes)).toBe(text);
    routes.push({ id: 'added', answer: { statusCode: 204 } });
    expect(routesJson(routes)).toBe(routesJson([...routes]));
    expect(routesJson(routes)).toContain('"id":"added"');
    routes[0] = { id: 'replaced', answer: {} };
    expect(routesJson(routes).startsWith('[{"id":"replaced"')).toBe(true);
  });

  it('refuses damaged stored text like decodeRoutes', async () => {
    const text = await routesJsonInTurns(longList(), new TurnBudget());
    const damaged = `${text.slice(0, 200_000)}\u0001${text.slice(200_001)}`;
    expect(() => decodeRoutes(damaged)).toThrow();
    await expect(decodeRoutesInTurns(damaged, new TurnBudget())).rejects.toThrow();
  });
});
