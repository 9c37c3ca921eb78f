// Octokit's own throttling plugin (`@octokit/plugin-throttling`, from npm) against
// routes with a GitHub-style rate limit (docs/rate-limits.md), served by a real
// listener (`serve()`): the plugin reads our 429s — `x-ratelimit-remaining: 0`
// and `x-ratelimit-reset` for the primary limit, "secondary rate limit" and
// `Retry-After` for the secondary one — calls `onRateLimit` or
// `onSecondaryRateLimit`, waits and retries, and the retry gets the answer.
//
// No sleeping on real time: the daemon's rate-limit clock is the test's
// (`rateLimitNow`), moved on by the handler that agrees to retry, and the
// plugin's `retryAfterBaseValue` (1000 ms per second of Retry-After by default)
// is 1 ms, so the plugin waits its Retry-After in milliseconds.
import { createApp } from '@mockpoint/core';
import { serve } from '@mockpoint/core/node';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const time = { now: Date.now() };
let served: Awaited<ReturnType<typeof serve>>;
let base: string;

beforeAll(async () => {
  served = await serve(createApp({ rateLimitNow: () => time.now }), { port: 0 });
  base = `http://127.0.0.1:${served.port}`;
});

afterAll(async () => {
  await served.close();
});

async function fakeGitHub(name: string, style: string, limit: number, per: string): Promise<string> {
  const routes = [
    {
      id: 'repo',
      match: { method: 'GET', path: '/repos/:owner/:repo' },
      rateLimit: { limit, per, style },
      answer: { template: true, data: { name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}' } },
    },
  ];
  const put = await fetch(`${base}/api/endpoints/${name}/routes`, { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.text()).toBe(200);
  return `${base}/endpoint/${name}`;
}

async function journal(name: string): Promise<[number, true | null][]> {
  const { requests } = (await (await fetch(`${base}/api/endpoints/${name}/requests`)).json()) as {
    requests: { statusCode: number; rateLimited?: true }[];
  };
  return requests.map((r) => [r.statusCode, r.rateLimited ?? null]);
}

const ThrottledOctokit = Octokit.plugin(throttling);
/** Octokit logs every 429 it gets; these are expected. */
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe("Octokit's throttling plugin", () => {
  it('backs off on the primary limit (x-ratelimit-remaining 0) and retries after the reset', async () => {
    const url = await fakeGitHub('primary', 'github', 2, '10s');
    const calls: { retryAfter: number; retryCount: number }[] = [];
    const octokit = new ThrottledOctokit({
      baseUrl: url,
      log: quiet,
      throttle: {
        retryAfterBaseValue: 1,
        onRateLimit: (retryAfter, _options, _octokit, retryCount) => {
          calls.push({ retryAfter, retryCount });
          // The bucket is full again one window (10 s) later: move the daemon's clock there.
          time.now += 10_000;
          return retryCount < 1;
        },
        onSecondaryRateLimit: () => {
          throw new Error('a primary limit is not a secondary one');
        },
      },
    });
    const repo = { owner: 'acme', repo: 'app' };
    await octokit.rest.repos.get(repo);
    const second = await octokit.rest.repos.get(repo);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const third = await octokit.rest.repos.get(repo);
    expect([third.status, third.data]).toEqual([200, { name: 'app', full_name: 'acme/app' }]);
    expect(third.headers['x-ratelimit-remaining']).toBe('1');
    // The plugin's own reckoning: x-ratelimit-reset (10 s after the test's clock, rounded up to a whole
    // second) less its wall clock (never behind the test's, read earlier), rounded up, plus the second
    // it adds: at most 12, and at least 1 whatever wall time the run took.
    expect(calls).toHaveLength(1);
    expect(calls[0]?.retryCount).toBe(0);
    expect(calls[0]?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(calls[0]?.retryAfter).toBeLessThanOrEqual(12);
    expect(await journal('primary')).toEqual([
      [200, null],
      [200, null],
      [429, true],
      [200, null],
    ]);
  });

  it('backs off on a secondary limit for exactly its Retry-After, then the retry succeeds', async () => {
    const url = await fakeGitHub('secondary', 'github-secondary', 1, '30s');
    const calls: { retryAfter: number; url: string }[] = [];
    const octokit = new ThrottledOctokit({
      baseUrl: url,
      log: quiet,
      throttle: {
        retryAfterBaseValue: 1,
        onRateLimit: () => {
          throw new Error('a secondary limit is not a primary one');
        },
        onSecondaryRateLimit: (retryAfter, options) => {
          calls.push({ retryAfter, url: String(options.url) });
          time.now += retryAfter * 1000;
          return true;
        },
      },
    });
    const repo = { owner: 'acme', repo: 'app' };
    await octokit.rest.repos.get(repo);
    const again = await octokit.rest.repos.get(repo);
    expect(again.status).toBe(200);
    expect(calls).toEqual([{ retryAfter: 30, url: '/repos/{owner}/{repo}' }]);
    expect(await journal('secondary')).toEqual([
      [200, null],
      [429, true],
      [200, null],
    ]);
  });

  it('gives up when onRateLimit says so: the 429 reaches the caller as a RequestError', async () => {
    const url = await fakeGitHub('refused', 'github', 1, '1h');
    const octokit = new ThrottledOctokit({
      baseUrl: url,
      log: quiet,
      throttle: { onRateLimit: () => false, onSecondaryRateLimit: () => false },
    });
    const repo = { owner: 'acme', repo: 'app' };
    await octokit.rest.repos.get(repo);
    await expect(octokit.rest.repos.get(repo)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^API rate limit exceeded/),
    });
  });
});
