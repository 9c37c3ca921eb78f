// Seeded fuzz of the GitHub twin's collaborators and branch protection (docs/twins.md "A GitHub
// twin"): random code points as the `{username}` and `{branch}` of their paths, and as the
// `permission` and protection members sent, to the built daemon on 127.0.0.1. Every request is
// answered with one of GitHub's statuses for them (201, 204, 200, 404, 422), never a 500; what an
// error says echoes no more than GitHub's own words; /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 7319;
const CASES = 300;
const ALLOWED = [200, 201, 204, 404, 422];

it(`answers ${CASES} random collaborator and protection requests (seed ${SEED}) as GitHub does`, async () => {
  const { daemon, root } = await twinDaemon('github', 'memory');
  const auth = { authorization: 'token ghp_fuzz' };
  const repo = `${root}/repos/octocat/fuzzed`;
  expect(
    (await requestJson(`${root}/user/repos`, { method: 'POST', headers: auth, body: { name: 'fuzzed' } })).status,
  ).toBe(201);
  const file = await requestJson(`${repo}/contents/README.md`, {
    method: 'PUT',
    headers: auth,
    body: { message: 'Add', content: 'aGk=' },
  });
  expect(file.status).toBe(201);
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    // Random code points, or a name of a login's letters (so that invitations are made too).
    const name =
      random() < 0.4
        ? Array.from({ length: 1 + Math.floor(random() * 12) }, () => 'abcdefgh-19'[Math.floor(random() * 11)]).join('')
        : randomText(random, 1 + Math.floor(random() * 50));
    // A path segment as a client sends one: every UTF-8 byte percent-encoded (a lone surrogate as U+FFFD's).
    const segment = [...Buffer.from(name, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const roll = random();
    let answer: { status: number; body: unknown };
    if (roll < 0.5) {
      const permission = random() < 0.5 ? ['pull', 'push', 'admin', 'maintain'][i % 4] : randomText(random, 12);
      answer = await requestJson(`${repo}/collaborators/${segment}`, {
        method: 'PUT',
        headers: auth,
        body: { permission },
      });
    } else if (roll < 0.7) {
      answer = await requestJson(`${repo}/collaborators/${segment}/permission`, { headers: auth });
    } else {
      const branch = random() < 0.3 ? 'main' : segment;
      const body = {
        required_status_checks: random() < 0.5 ? null : { strict: random() < 0.5, contexts: [randomText(random, 20)] },
        enforce_admins: random() < 0.5,
        required_pull_request_reviews: null,
        restrictions: null,
        ...(random() < 0.3 ? { [randomText(random, 8)]: randomText(random, 8) } : {}),
      };
      answer = await requestJson(`${repo}/branches/${branch}/protection`, { method: 'PUT', headers: auth, body });
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect(ALLOWED, `${name} → ${answer.status}`).toContain(answer.status);
    if (answer.status >= 400) expect(JSON.stringify(answer.body).length).toBeLessThan(1000);
  }
  // Invitations made, refusals met, protections kept.
  expect(statuses.get(201)).toBeGreaterThan(20);
  expect(statuses.get(404)).toBeGreaterThan(20);
  expect(statuses.get(200)).toBeGreaterThan(10);
  await health.check();
  // The twin still answers its lists whole.
  const invitations = await requestJson(`${repo}/invitations?per_page=100`, { headers: auth });
  expect(invitations.status).toBe(200);
  expect(Array.isArray(invitations.body)).toBe(true);
});
