// A GitHub hook takes every config.url GitHub takes (#84), against the built daemon in memory:
// `https://example.com/hook` is made (its deliveries, never sent to a host not allowed, are the
// delivery engine's, tested in twin-stripe-webhook-urls.test.ts); the metadata address is still
// refused. Every process listens on 127.0.0.1.
import { expect, it } from 'vitest';
import { requestJson, useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

const GITHUB = { authorization: 'token ghp_urls' };

it('takes a hook at https://example.com/hook, refuses the metadata address', {
  timeout: 60_000,
}, async () => {
  const { root } = await twinDaemon('github', 'memory');
  // octo/app made first, as a user would (GitHub's 404 below a repository never made).
  const repo = await requestJson(`${root}/orgs/octo/repos`, { method: 'POST', headers: GITHUB, body: { name: 'app' } });
  expect(repo.status, JSON.stringify(repo.body)).toBe(201);
  const made = await requestJson(`${root}/repos/octo/app/hooks`, {
    method: 'POST',
    headers: GITHUB,
    body: { config: { url: 'https://example.com/hook', content_type: 'json' }, events: ['issues'] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const kept = await requestJson(`${root}/repos/octo/app/hooks/${(made.body as { id: number }).id}`, {
    headers: GITHUB,
  });
  expect(kept.body).toMatchObject({ config: { url: 'https://example.com/hook' } });
  // What can never be sent is still refused: 422 Validation Failed.
  const refused = await requestJson(`${root}/repos/octo/app/hooks`, {
    method: 'POST',
    headers: GITHUB,
    body: { config: { url: 'http://169.254.169.254/' }, events: ['issues'] },
  });
  expect(refused.status).toBe(422);
});
