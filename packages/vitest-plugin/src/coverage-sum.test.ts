// The run's coverage added up from sessions' reports: a route of the mock file (the same id in
// every session) is dead only when no session hit it; a route one test added is its own.
import type { CoverageReport } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import { runCoverageText, sumCoverage } from './coverage-sum.js';

function report(routes: { id: string; match: string; hits: number }[], unmatched = 0): CoverageReport {
  const dead = routes.filter((route) => route.hits === 0).map(({ hits: _hits, ...route }) => ({ ...route, index: 0 }));
  return {
    window: {},
    requests: 0,
    endpoints: [
      {
        name: 'api',
        routes: routes.map((route, index) => ({ ...route, index })),
        dead,
        unmatched: { count: unmatched, byRecord: 0, unhandled: unmatched, sample: [] },
        other: 0,
        goneRouteHits: 0,
      },
    ],
    totals: { routes: routes.length, dead: dead.length, unmatched },
  };
}

describe('sumCoverage', () => {
  it('adds hits by endpoint and route id over the sessions', () => {
    const run = sumCoverage([
      report([
        { id: 'route-1', match: 'GET /a', hits: 0 },
        { id: 'route-2', match: 'GET /b', hits: 0 },
      ]),
      report(
        [
          { id: 'route-1', match: 'GET /a', hits: 2 },
          { id: 'route-2', match: 'GET /b', hits: 0 },
          { id: '3f2a9c0d1e4b', match: 'POST /c', hits: 0 },
        ],
        1,
      ),
    ]);
    expect(run).toMatchObject({ sessions: 2, routes: 3, dead: 2, unmatched: 1 });
    expect(run.endpoints[0]?.routes).toEqual([
      { id: 'route-1', match: 'GET /a', hits: 2, sessions: 2 },
      { id: 'route-2', match: 'GET /b', hits: 0, sessions: 2 },
      { id: '3f2a9c0d1e4b', match: 'POST /c', hits: 0, sessions: 1 },
    ]);
    expect(runCoverageText(run)).toBe(
      [
        'mockpoint coverage: 3 routes in 2 sessions, 2 never hit',
        '  api: GET /b  (route route-2)',
        '  api: POST /c  (route 3f2a9c0d1e4b)',
        '  1 request hit no route',
      ].join('\n'),
    );
  });

  it('says every one was hit, and counts nothing for no session', () => {
    expect(runCoverageText(sumCoverage([report([{ id: 'a', match: 'GET /a', hits: 1 }])]))).toBe(
      'mockpoint coverage: 1 route in 1 session, every one hit',
    );
    expect(sumCoverage([])).toEqual({ sessions: 0, routes: 0, dead: 0, unmatched: 0, endpoints: [] });
  });
});
