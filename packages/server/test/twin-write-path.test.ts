// The twin's write path (issue #71 S2) against the built daemon on memory, LevelDB and a real
// redis-server: every twin write is held to --max-collection-bytes, refused in Stripe's own error
// form. (M2, concurrent flows acting once, is twin-bounds.test.ts's.) Every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';

import { requestJson } from './helpers/daemon.js';
import { twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const AUTH = { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' };

async function post(root: string, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${root}${path}`, { method: 'POST', headers: { ...AUTH, ...headers }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(['memory', 'level', 'redis'] as const)('the Stripe twin write path (%s)', (kind) => {
  it('holds twin objects, events and idempotency answers to --max-collection-bytes', async () => {
    const store = kind === 'memory' ? 'memory' : await twinRedis.store(kind);
    const { root, daemon, name } = await twinDaemon('stripe', store, {}, ['--max-collection-bytes', '1048576']);
    const big = 'x'.repeat(300_000);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      // A field the document leaves unbounded (a `description` past its 5,000 characters is refused first).
      answers.push(await post(root, '/v1/customers', `tax[ip_address]=${big}`, { 'idempotency-key': `k${i}` }));
    }
    expect(answers.slice(0, 2).map((one) => one.status)).toEqual([200, 200]);
    const refused = answers.at(-1) as { status: number; body: Record<string, unknown> };
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { type: 'invalid_request_error', code: 'collection_too_large' },
    });
    expect(String((refused.body.error as { message: string }).message)).toContain('--max-collection-bytes');
    const health = await requestJson(`${daemon.url}/api/health`);
    expect(health.status).toBe(200);
    // Every collection of the name, the events and idempotency answers included, stays within the limit.
    const held = await fetch(`${daemon.url}/api/endpoints/${name}/collections`);
    expect(held.status).toBe(200);
    const collections = JSON.parse(await held.text()) as Record<string, unknown[]>;
    for (const [collection, items] of Object.entries(collections)) {
      expect(JSON.stringify(items).length, collection).toBeLessThanOrEqual(1_048_576);
    }
    expect(Object.keys(collections)).toEqual(expect.arrayContaining(['_idempotency']));
  });
});

describe("the GitHub twin's write path", () => {
  it("refuses a write past --max-collection-bytes in GitHub's form: 422", async () => {
    const { root } = await twinDaemon('github', 'memory', {}, ['--max-collection-bytes', '1048576']);
    const headers = { authorization: 'token ghp_1', 'content-type': 'application/json' };
    // octocat/hello-world made first, as a user would (GitHub's 404 below a repository never made).
    const repo = { method: 'POST', headers, body: '{"name":"hello-world"}' };
    expect((await fetch(`${root}/user/repos`, repo)).status).toBe(201);
    const answers: { status: number; body: Record<string, unknown> }[] = [];
    for (let i = 0; i < 5; i++) {
      // An issue's `body` is one the document leaves unbounded.
      const body = JSON.stringify({ title: `Issue ${i}`, body: 'x'.repeat(300_000) });
      const response = await fetch(`${root}/repos/octocat/hello-world/issues`, { method: 'POST', headers, body });
      answers.push({ status: response.status, body: (await response.json()) as Record<string, unknown> });
    }
    expect(answers.slice(0, 2).map((one) => one.status)).toEqual([201, 201]);
    const refused = answers.at(-1) as { status: number; body: Record<string, unknown> };
    expect(refused.status).toBe(422);
    expect(String(refused.body.message)).toContain('--max-collection-bytes');
  });
});
