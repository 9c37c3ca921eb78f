// Seeded fuzz of a GitHub search's query (`GET /search/issues?q=`, `GET /search/repositories?q=`,
// docs/twins.md "A GitHub twin"): random code points, GitHub's qualifiers with random values,
// quotes, `-`, `NOT`, sort and order, sent to the GitHub twin of the built daemon on 127.0.0.1
// over the issues and repositories it holds: every query is answered in GitHub's envelope or
// refused with GitHub's `422 Validation Failed` (a query missing, too long, or a sort or order
// GitHub does not take), never a 500, and /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 7301;
const CASES = 300;
const QUALIFIERS = [
  'repo:octo/app',
  'user:octo',
  'is:pr',
  'is:issue',
  'is:open',
  'label:bug',
  'in:title',
  'author:octocat',
];

/** A term of a query: random text, a qualifier, a qualifier with random text, a phrase, an operator. */
function term(random: () => number): string {
  const text = randomText(random, Math.floor(random() * 40));
  const roll = random();
  if (roll < 0.3) return QUALIFIERS[Math.floor(random() * QUALIFIERS.length)] as string;
  if (roll < 0.45) return `${QUALIFIERS[Math.floor(random() * QUALIFIERS.length)]}${text}`;
  if (roll < 0.55) return `"${text}"`;
  if (roll < 0.6) return ['NOT', 'AND', 'OR', '-'][Math.floor(random() * 4)] as string;
  return text;
}

it(`answers or refuses ${CASES} random searches (seed ${SEED}) in GitHub's form, and stays healthy`, async () => {
  const { daemon, root } = await twinDaemon('github', 'memory');
  const auth = { authorization: 'token ghp_fuzz' };
  // octo/app made first, as a user would (GitHub's 404 below a repository never made).
  const repo = await requestJson(`${root}/orgs/octo/repos`, { method: 'POST', headers: auth, body: { name: 'app' } });
  expect(repo.status).toBe(201);
  for (const title of ['Crash on start', 'Typo in README', 'Ünïcode 💥 title']) {
    const made = await requestJson(`${root}/repos/octo/app/issues`, { method: 'POST', headers: auth, body: { title } });
    expect(made.status).toBe(201);
  }
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const q = Array.from({ length: 1 + Math.floor(random() * 6) }, () => term(random)).join(' ');
    const params = new URLSearchParams({ q });
    if (random() < 0.2)
      params.set('sort', ['created', 'updated', 'comments', 'stars', randomText(random, 5)][i % 5] as string);
    if (random() < 0.2) params.set('order', ['asc', 'desc', randomText(random, 3)][i % 3] as string);
    const path = random() < 0.7 ? 'search/issues' : 'search/repositories';
    // A lone surrogate has no UTF-8: URLSearchParams sends it as U+FFFD, as a client would.
    const answer = await requestJson(`${root}/${path}?${params}`, { headers: auth });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const body = answer.body as Record<string, unknown>;
    if (answer.status === 200) {
      expect(Object.keys(body)).toEqual(expect.arrayContaining(['total_count', 'incomplete_results', 'items']));
      expect(body.total_count).toBe((body.items as unknown[]).length);
      continue;
    }
    expect([answer.status, body.message], q).toEqual([422, 'Validation Failed']);
    expect(JSON.stringify(body).length).toBeLessThan(2000);
  }
  // Both kinds of answer were reached.
  expect(statuses.get(200)).toBeGreaterThan(50);
  expect(statuses.get(422)).toBeGreaterThan(5);
  expect([...statuses.keys()].sort()).toEqual([200, 422]);
  await health.check();
});
