// Seeded fuzz of the GitHub twin's repository secrets (docs/twins-github.md): random code points
// as the `{secret_name}` of `PUT`, `GET` and `DELETE …/{kind}/secrets/{secret_name}`, and as the
// members sent, to the built daemon on 127.0.0.1. Every request is answered with one of GitHub's
// statuses for them (201, 204, 200, 404, 422), never a 500; a secret made reads back under the
// name sent, in upper case, and never with its value; what an error says stays bounded;
// /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 8484;
const CASES = 200;
const ALLOWED = [200, 201, 204, 404, 422];
const KINDS = ['actions', 'agents', 'codespaces', 'dependabot'];

it(`answers ${CASES} random secret requests (seed ${SEED}) as GitHub does, reading back what it made`, async () => {
  const { daemon, root } = await twinDaemon('github', 'level');
  const auth = { authorization: 'token ghp_fuzz' };
  const repo = `${root}/repos/octocat/fuzzed`;
  const made = await requestJson(`${root}/user/repos`, { method: 'POST', headers: auth, body: { name: 'fuzzed' } });
  expect(made.status).toBe(201);
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  let readBack = 0;
  let named = 0;
  for (let i = 0; i < CASES; i++) {
    const name =
      random() < 0.3
        ? Array.from({ length: 1 + Math.floor(random() * 12) }, () => 'abcXYZ_19'[Math.floor(random() * 9)]).join('')
        : randomText(random, 1 + Math.floor(random() * 40));
    // As the daemon reads the path: UTF-8 bytes percent-encoded (a lone surrogate as U+FFFD's).
    const bytes = Buffer.from(name, 'utf8');
    const segment = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const at = `${repo}/${KINDS[i % KINDS.length]}/secrets/${segment}`;
    // The value as GitHub takes it (base64 of the sealed box), now and then random text it refuses.
    const text = randomText(random, 24);
    const value = random() < 0.85 ? Buffer.from(text, 'utf8').toString('base64') : text;
    const put = await requestJson(at, {
      method: 'PUT',
      headers: auth,
      body: { encrypted_value: value, key_id: randomText(random, 6) },
    });
    statuses.set(put.status, (statuses.get(put.status) ?? 0) + 1);
    expect(ALLOWED, `${JSON.stringify(name)} → ${put.status}`).toContain(put.status);
    // GitHub's rule for a secret's name (as the daemon reads it), and its base64 value: both or 422.
    const read = bytes.toString('utf8');
    const takes = /^[A-Za-z_][A-Za-z0-9_]*$/.test(read) && !/^GITHUB_/i.test(read) && value !== text;
    if (takes) named++;
    expect(put.status === 201 || put.status === 204, `${JSON.stringify(name)} → ${put.status}`).toBe(takes);
    if (put.status >= 400) expect(JSON.stringify(put.body).length).toBeLessThan(1000);
    if (put.status === 201 || put.status === 204) {
      const read = await requestJson(at, { headers: auth });
      expect(read.status, `${JSON.stringify(name)} ${segment} put ${put.status} ${at.slice(root.length)}`).toBe(200);
      const shown = read.body as Record<string, unknown>;
      expect(shown.name).toBe(bytes.toString('utf8').toUpperCase());
      expect(Object.keys(shown).sort()).toEqual(['created_at', 'name', 'updated_at']);
      readBack++;
      if (random() < 0.3) {
        expect((await requestJson(at, { method: 'DELETE', headers: auth })).status).toBe(204);
        expect((await requestJson(at, { headers: auth })).status).toBe(404);
      }
    }
  }
  expect(readBack, JSON.stringify([...statuses])).toBe(named);
  expect(named).toBeGreaterThan(CASES / 10);
  await health.check();
  // The lists still answer whole, each in GitHub's envelope.
  for (const kind of KINDS) {
    const listed = await requestJson(`${repo}/${kind}/secrets?per_page=100`, { headers: auth });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total_count: expect.any(Number), secrets: expect.any(Array) });
  }
});
