// Seeded fuzz of what a GitHub twin's path names and a team's name (docs/twins-github.md, "What a
// path names outside a repository"): random code points as a team's `name` (its slug derived by a
// regex) and as the values of the paths path-objects.ts resolves (`{username}`, `{team_slug}`,
// `{team_id}`, `{owner}/{repo}`, `{org}`, `{package_type}`, `{client_id}`), to the built daemon on
// LevelDB on 127.0.0.1. Every answer is GitHub's (201, 204, 404, 422), never a 500; a team made
// reads back at its slug; an error stays bounded; /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 8487;
const CASES = 150;

/** `text` as one path segment: its UTF-8 bytes percent-encoded (a lone surrogate as U+FFFD's). */
const segment = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

it(`answers ${CASES} random team names and path values (seed ${SEED}) as GitHub does`, async () => {
  const { daemon, root } = await twinDaemon('github', 'level');
  const auth = { authorization: 'token ghp_pathfuzz' };
  expect(
    (await requestJson(`${root}/orgs/fuzzorg/repos`, { method: 'POST', headers: auth, body: { name: 'kept' } })).status,
  ).toBe(201);
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  let made = 0;
  for (let i = 0; i < CASES; i++) {
    const text = randomText(random, 1 + Math.floor(random() * 30));
    const team = await requestJson(`${root}/orgs/fuzzorg/teams`, {
      method: 'POST',
      headers: auth,
      body: { name: text },
    });
    expect([201, 422], `${JSON.stringify(text)} → ${team.status}`).toContain(team.status);
    if (team.status === 201) {
      made++;
      const { slug, id } = team.body as { slug: string; id: number };
      expect(slug).toMatch(/^[a-z0-9-]*$/);
      if (slug !== '')
        expect((await requestJson(`${root}/orgs/fuzzorg/teams/${slug}`, { headers: auth })).body).toMatchObject({ id });
      expect((await requestJson(`${root}/teams/${id}`, { headers: auth })).body).toMatchObject({ slug });
    } else expect(JSON.stringify(team.body).length).toBeLessThan(1000);
    const at = segment(text);
    for (const [method, path] of [
      ['PUT', `/user/following/${at}`],
      ['GET', `/orgs/fuzzorg/teams/${at}/members`],
      ['PATCH', `/teams/${at}`],
      ['PUT', `/user/starred/fuzzorg/${at}`],
      ['GET', `/organizations/${at}/settings/billing/budgets`],
      ['DELETE', `/user/packages/${at}/left-pad`],
      ['POST', `/applications/${at}/token`],
    ] as const) {
      const answer = await requestJson(`${root}${path}`, {
        method,
        headers: auth,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: { access_token: 'x', name: 'n' } }),
      });
      expect([200, 201, 204, 404, 422], `${method} ${path} → ${answer.status}`).toContain(answer.status);
      expect(JSON.stringify(answer.body ?? '').length).toBeLessThan(4000);
    }
  }
  expect(made).toBeGreaterThan(CASES / 4);
  await health.check();
});
