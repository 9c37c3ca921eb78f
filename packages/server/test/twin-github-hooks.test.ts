// The GitHub twin's repository hooks (docs/twins.md) as GitHub answers and sends them, through
// @octokit/rest against the built daemon on LevelDB and on a real redis-server: a hook's
// `config.secret` is answered as `********` (and still signs every delivery, verified by
// @octokit/webhooks), and a repository hook's deliveries carry no `installation` (an App's do); a
// hook made without a secret is delivered to unsigned, as GitHub delivers it.
// Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import { hookReceiver, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A daemon with a GitHub twin at the root of its own port, and an Octokit for it. */
async function githubTwin(store: 'level' | 'redis'): Promise<Octokit> {
  const { root } = await twinDaemon('github', await twinRedis.store(store));
  return new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
}

describe.each(['level', 'redis'] as const)("the GitHub twin's repository hooks (%s)", (store) => {
  it('answers a hook with its secret masked, signs with the secret, and sends no installation', async () => {
    const octokit = await githubTwin(store);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      await madeRepos(octokit, 'octo/app');
      const secret = 'It is a secret to everybody';
      const { url } = receiver;
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
      await octokit.rest.pulls.update({ ...repo, pull_number: 2, state: 'closed' });
      // The hook's ping first, then the changes' events.
      await receiver.until(4);
      const webhooks = new Webhooks({ secret });
      for (const { body, headers } of receiver.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as Record<string, unknown>;
        expect(payload).not.toHaveProperty('installation');
        expect(payload.repository).toMatchObject({ full_name: 'octo/app' });
      }
      // Sent several at a time, they may arrive in any order (as GitHub's may): each once.
      const actions = receiver.received.map(({ body }) => String((JSON.parse(body) as { action?: string }).action));
      expect(actions.sort()).toEqual(['closed', 'opened', 'opened', 'undefined']);
    } finally {
      await receiver.close();
    }
  });

  it('sends a hook made without a secret its ping and events unsigned, each with its delivery id', async () => {
    const octokit = await githubTwin(store);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'plain' };
      await madeRepos(octokit, 'octo/plain');
      const hook = await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, content_type: 'json' },
        events: ['issues'],
      });
      expect(hook.data.config).not.toHaveProperty('secret');
      await octokit.rest.issues.create({ ...repo, title: 'Unsigned' });
      await receiver.until(2);
      const ids = new Set<string>();
      for (const { headers } of receiver.received) {
        // GitHub's delivery to a hook with no secret: no signature header, its id and event named.
        expect(headers).not.toHaveProperty('x-hub-signature-256');
        expect(headers).not.toHaveProperty('x-hub-signature');
        expect(String(headers['x-github-delivery'])).toMatch(/^[0-9a-f-]{36}$/);
        expect(headers['x-github-hook-id']).toBe(String(hook.data.id));
        ids.add(String(headers['x-github-delivery']));
      }
      expect(ids.size).toBe(2);
      const events = receiver.received.map(({ headers }) => headers['x-github-event']).sort();
      expect(events).toEqual(['issues', 'ping']);
    } finally {
      await receiver.close();
    }
  });
});
