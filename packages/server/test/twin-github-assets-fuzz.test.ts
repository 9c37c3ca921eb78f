// Seeded fuzz of the GitHub twin's new readers of request text (docs/twins.md, "release assets"):
// random code points as an asset's `name` and `label` (and runs of dots, which a pattern trimming
// them at both ends would take quadratic time over), and as the `Host` a release's `upload_url` is
// made from, to the built daemon on 127.0.0.1. Every upload is 201 or GitHub's 422, every release
// 201 with an `upload_url` that is a URL or GitHub's own, never a 500; /api/health answers throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 9281;
const CASES = 200;
const auth = { authorization: 'token ghp_fuzz', 'content-type': 'application/json' };

it(`answers ${CASES} random asset names and hosts (seed ${SEED}) with 201 or 422`, async () => {
  const { daemon, root } = await twinDaemon('github', 'memory');
  expect((await fetch(`${root}/user/repos`, { method: 'POST', headers: auth, body: '{"name":"fuzzed"}' })).status).toBe(
    201,
  );
  const made = await fetch(`${root}/repos/octocat/fuzzed/releases`, {
    method: 'POST',
    headers: auth,
    body: '{"tag_name":"v1"}',
  });
  const release = (await made.json()) as { id: number };
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const roll = random();
    const name =
      roll < 0.1
        ? `${'.'.repeat(4000 + Math.floor(random() * 4000))}x`
        : randomText(random, 1 + Math.floor(random() * 60));
    const query = new URLSearchParams({ name, ...(random() < 0.5 ? { label: randomText(random, 20) } : {}) });
    const answer = await fetch(`${root}/repos/octocat/fuzzed/releases/${release.id}/assets?${query}`, {
      method: 'POST',
      headers: { authorization: 'token ghp_fuzz', 'content-type': 'application/octet-stream' },
      body: new Uint8Array([i % 256, 1, 2, 3]),
    });
    const text = await answer.text();
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect([201, 422], `${JSON.stringify(name.slice(0, 40))} → ${answer.status}`).toContain(answer.status);
    if (answer.status === 201) expect((JSON.parse(text) as { name: string }).name.length).toBeLessThanOrEqual(255);
    else expect(text.length).toBeLessThan(1000);
    if (i % 10 === 0) {
      // A release made through a random Host: its upload_url is a URL of that host, or GitHub's.
      const host = random() < 0.5 ? `127.0.0.1:${new URL(root).port}` : randomText(random, 30);
      const other = await fetch(`${root}/repos/octocat/fuzzed/releases`, {
        method: 'POST',
        headers: { ...auth, host },
        body: JSON.stringify({ tag_name: `v${i + 2}` }),
      }).catch(() => undefined);
      if (other !== undefined) {
        const body = (await other.json()) as { upload_url?: string };
        expect([other.status, typeof body.upload_url]).toEqual([201, 'string']);
        expect(() => new URL(String(body.upload_url).replace('{?name,label}', ''))).not.toThrow();
      }
    }
  }
  expect(statuses.get(201)).toBeGreaterThan(20);
  expect(statuses.get(422)).toBeGreaterThan(5);
  await health.check();
});
