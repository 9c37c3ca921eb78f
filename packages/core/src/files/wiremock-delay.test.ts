import { describe, expect, it } from 'vitest';
import type { Route } from '../api/route.js';
import { latencyFromWireMock, wireMockDistribution } from './wiremock-delay.js';
import { wireMockMappings } from './wiremock-export.js';
import { wireMockMockFile } from './wiremock-mock-file.js';

function imported(response: Record<string, unknown>) {
  const text = JSON.stringify({ mappings: [{ request: { method: 'GET', url: '/a' }, response }] });
  const made = wireMockMockFile([{ file: 'mappings.json', text }], { name: 'api' });
  const answer = made.parsed.endpoints[0]?.routes?.[0]?.answer;
  return { answer, skipped: made.skipped };
}

describe("WireMock's delayDistribution", () => {
  it('imports lognormal and uniform as latency beside the fixed delay, and exports them back', () => {
    const lognormal = imported({
      status: 200,
      body: 'x',
      fixedDelayMilliseconds: 10,
      delayDistribution: { type: 'lognormal', median: 90, sigma: 0.4, maxValue: 3000 },
    });
    expect(lognormal.answer?.delay).toBe(10);
    expect(lognormal.answer?.latency).toEqual({ distribution: 'lognormal', median: 90, sigma: 0.4, max: 3000 });
    expect(lognormal.skipped).toEqual([]);
    const uniform = imported({ body: 'x', delayDistribution: { type: 'uniform', lower: 5, upper: 50 } });
    expect(uniform.answer?.latency).toEqual({ distribution: 'uniform', min: 5, max: 50 });

    const route: Route = {
      id: 'r',
      match: { method: 'GET', path: '/a' },
      answer: { body: 'x', latency: { distribution: 'lognormal', median: 90, sigma: 0.4, max: 3000, seed: 1 } },
    };
    const out = wireMockMappings([{ name: 'api', routes: [route], queue: [] }]);
    const mapping = (JSON.parse(out.text) as { mappings: { response: Record<string, unknown> }[] }).mappings[0];
    expect(mapping?.response.delayDistribution).toEqual({ type: 'lognormal', median: 90, sigma: 0.4, maxValue: 3000 });
    expect(out.skipped.map((left) => left.what)).toContain('route r: latency.seed');
  });

  it('cuts a tail past the default delay limit at the limit, and says so', () => {
    const notes: string[] = [];
    const latency = latencyFromWireMock({ type: 'lognormal', median: 100, sigma: 2 }, 1000, (what, why) =>
      notes.push(`${what}: ${why}`),
    );
    expect(latency).toEqual({ distribution: 'lognormal', median: 100, sigma: 2, max: 59000 });
    expect(notes[0]).toMatch(/cut at 59000 ms/);
  });

  it('leaves out what it cannot draw, saying why', () => {
    const notes: string[] = [];
    const note = (what: string, why: string) => notes.push(`${what}: ${why}`);
    expect(latencyFromWireMock({ type: 'pareto' }, 0, note)).toBeUndefined();
    expect(latencyFromWireMock({ type: 'uniform', lower: 70000, upper: 80000 }, 0, note)).toBeUndefined();
    expect(wireMockDistribution({ distribution: 'normal', mean: 5, stddev: 1 }, note)).toBeUndefined();
    expect(notes).toEqual([
      expect.stringMatching(/not a uniform, fixed or lognormal/),
      expect.stringMatching(/pass the daemon's default limit/),
      expect.stringMatching(/no normal distribution/),
    ]);
  });
});
