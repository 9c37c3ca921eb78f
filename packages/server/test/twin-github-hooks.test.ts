// The GitHub twin's repository hooks (docs/twins.md) as GitHub answers and sends them, through
// @octokit/rest against the built daemon on LevelDB and on a real redis-server: a hook's
// `config.secret` is answered as `********` (and still signs every delivery, verified by
// @octokit/webhooks), and a repository hook's deliveries carry no `installation` (an App's do).
// Every process listens on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(() => killAll());
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

let twins = 0;

/** A daemon with a GitHub twin at the root of its own port, and an Octokit for it. */
async function githubTwin(store: 'level' | 'redis'): Promise<Octokit> {
  const name = `hooks${++twins}`;
  const daemon =
    store === 'level'
      ? await startDaemon({ args: ['--data-dir', await makeTempDir(), '--serve', `${name}=0`] })
      : await startDaemon({ args: ['--serve', `${name}=0`], env: { MOCKPOINT_REDIS_URL: redis.socket } });
  const note = daemon.notes.find((line) => line.startsWith(`${name} served at `));
  expect(note, daemon.startLine).toBeDefined();
  const made = await fetch(`${daemon.url}/api/endpoints/${name}/twin`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'github' }),
  });
  expect(made.status).toBe(200);
  const quiet = () => undefined;
  const log = { debug: quiet, info: quiet, warn: quiet, error: quiet };
  return new Octokit({ auth: 'ghp_test123', baseUrl: (note as string).slice(`${name} served at `.length), log });
}

describe.each(['level', 'redis'] as const)("the GitHub twin's repository hooks (%s)", (store) => {
  it('answers a hook with its secret masked, signs with the secret, and sends no installation', async () => {
    const octokit = await githubTwin(store);
    const received: { body: string; signature: string }[] = [];
    const waiters: (() => void)[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({ body, signature: String(request.headers['x-hub-signature-256']) });
        response.end('ok');
        for (const wake of waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const repo = { owner: 'octo', repo: 'app' };
      const secret = 'It is a secret to everybody';
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const hook = await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url, secret, content_type: 'json' },
        events: ['*'],
      });
      expect(hook.data.config).toMatchObject({ url, secret: '********', content_type: 'json' });
      const read = await octokit.rest.repos.getWebhook({ ...repo, hook_id: hook.data.id });
      expect(read.data.config.secret).toBe('********');
      const listed = await octokit.rest.repos.listWebhooks(repo);
      expect(listed.data.map((one) => one.config.secret)).toEqual(['********']);
      const updated = await octokit.rest.repos.updateWebhook({ ...repo, hook_id: hook.data.id, active: true });
      expect(updated.data.config.secret).toBe('********');

      await octokit.rest.issues.create({ ...repo, title: 'Crash' });
      await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
      await octokit.rest.pulls.update({ ...repo, pull_number: 1, state: 'closed' });
      while (received.length < 3) await new Promise<void>((resolve) => waiters.push(resolve));
      const webhooks = new Webhooks({ secret });
      for (const { body, signature } of received) {
        expect(await webhooks.verify(body, signature)).toBe(true);
        const payload = JSON.parse(body) as Record<string, unknown>;
        expect(payload).not.toHaveProperty('installation');
        expect(payload.repository).toMatchObject({ full_name: 'octo/app' });
      }
      expect(received.map(({ body }) => (JSON.parse(body) as { action: string }).action)).toEqual([
        'opened',
        'opened',
        'closed',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
