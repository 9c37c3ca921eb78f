// What GitHub says beside its bodies, against the built daemon's GitHub twin through the official
// SDKs (docs/twins.md#a-github-twin): every answer's `X-GitHub-Request-Id` and `X-RateLimit-*`
// (5,000 requests an hour a token, a conditional request's 304 not counted, a request past the
// limit refused with 403), a GET's strong `ETag` that Octokit's conditional request meets with
// `304 Not Modified`; and its deliveries as Hookshot sends them: a `ping` to a new hook alone,
// each delivery with `X-GitHub-Event`, `X-GitHub-Delivery`, `X-GitHub-Hook-ID`,
// `X-GitHub-Hook-Installation-Target-Type`/`-ID`, both signatures and Hookshot's user agent,
// verified by @octokit/webhooks. Every process listens on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { requestJson } from './helpers/daemon.js';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import { exampleKeys, hookReceiver, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const REQUEST_ID = /^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{6}:[0-9A-F]{6}:[0-9A-F]{8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The rejection of `call` (an Octokit `RequestError`), failing the test when it answers. */
async function refusal(
  call: Promise<unknown>,
): Promise<{ status: number; response?: { headers: Record<string, string> } }> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as { status: number; response?: { headers: Record<string, string> } };
}

describe("the GitHub twin's headers", () => {
  it('answers with a request id and its rate limit, and a GET with an ETag a conditional request meets with 304', async () => {
    const { root } = await twinDaemon('github', 'memory');
    const octokit = new Octokit({ auth: 'ghp_headers', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octo', repo: 'app' };
    // Made with another token, so this one's count starts below.
    await madeRepos(new Octokit({ auth: 'ghp_maker', baseUrl: root, log: QUIET_LOG }), 'octo/app');
    const before = Math.floor(Date.now() / 1000);
    const made = await octokit.rest.issues.create({ ...repo, title: 'Crash' });
    const read = await octokit.rest.issues.get({ ...repo, issue_number: made.data.number });
    const missing = await refusal(octokit.rest.issues.get({ ...repo, issue_number: 9999 }));
    expect(missing.status).toBe(404);
    const answers = [made.headers, read.headers, missing.response?.headers ?? {}] as Record<string, unknown>[];

    // A request id in GitHub's form on every answer, errors too, each its own.
    const ids = answers.map((headers) => String(headers['x-github-request-id']));
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(3);
    // GitHub's authenticated limit, counted for this token: 3 requests used of 5,000.
    expect(answers.map((headers) => [headers['x-ratelimit-used'], headers['x-ratelimit-remaining']])).toEqual([
      ['1', '4999'],
      ['2', '4998'],
      ['3', '4997'],
    ]);
    for (const headers of answers) {
      expect(headers).toMatchObject({ 'x-ratelimit-limit': '5000', 'x-ratelimit-resource': 'core' });
      const reset = Number(headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(before + 3600);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    }
    // Another token has a window of its own.
    const other = new Octokit({ auth: 'ghp_other', baseUrl: root, log: QUIET_LOG });
    const listed = await other.rest.issues.listForRepo(repo);
    expect([listed.headers['x-ratelimit-used'], listed.headers['x-ratelimit-remaining']]).toEqual(['1', '4999']);

    // A strong ETag on a GET; the same request with If-None-Match is 304, no body, not counted.
    const etag = String(read.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(made.headers.etag).toBeUndefined();
    const unchanged = await refusal(
      octokit.rest.issues.get({ ...repo, issue_number: 1, headers: { 'if-none-match': etag } }),
    );
    expect(unchanged.status).toBe(304);
    expect(unchanged.response?.headers).toMatchObject({
      etag,
      'x-ratelimit-used': '3',
      'x-ratelimit-remaining': '4997',
    });
    expect(unchanged.response?.headers['x-github-request-id']).toMatch(REQUEST_ID);
    const raw = await fetch(`${root}/repos/octo/app/issues/1`, {
      headers: { authorization: 'token ghp_headers', 'if-none-match': etag },
    });
    expect([raw.status, await raw.text()]).toEqual([304, '']);
    // A list's ETag too; once the issue changes, the old ETag no longer matches: 200 and a new one.
    const list = await octokit.rest.issues.listForRepo(repo);
    expect(list.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(list.headers.etag).not.toBe(etag);
    await octokit.rest.issues.update({ ...repo, issue_number: 1, title: 'Crash on start' });
    const changed = await octokit.rest.issues.get({ ...repo, issue_number: 1, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.data.title).toBe('Crash on start');
    expect(changed.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('refuses a request past the limit with 403 and remaining 0 until the window ends', async () => {
    const { daemon, name, root } = await twinDaemon('github', 'memory');
    // The shipped profile's limit made small by the setting's own profile.
    const rateLimit = { limit: 3, per: '1h', style: 'github', status: 403 };
    const put = await requestJson(`${daemon.url}/api/endpoints/${name}/twin`, {
      method: 'PUT',
      body: { provider: 'github', profile: { rateLimit } },
    });
    expect(put.status).toBe(200);
    const octokit = new Octokit({ auth: 'ghp_small', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octo', repo: 'app' };
    await madeRepos(new Octokit({ auth: 'ghp_maker', baseUrl: root, log: QUIET_LOG }), 'octo/app');
    for (let i = 0; i < 3; i++) await octokit.rest.issues.listForRepo(repo);
    const refused = await refusal(octokit.rest.issues.listForRepo(repo));
    expect(refused.status).toBe(403);
    expect(refused.response?.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '3',
    });
    expect(refused.response?.headers['x-github-request-id']).toMatch(REQUEST_ID);
    expect((refused as unknown as { message: string }).message).toMatch(/^API rate limit exceeded for this token/);
    // Another token is not refused.
    const other = new Octokit({ auth: 'ghp_else', baseUrl: root, log: QUIET_LOG });
    expect((await other.rest.issues.listForRepo(repo)).status).toBe(200);
    // Long tokens are counted apart too (the twin keeps a bounded key of each), past their shared start.
    const long = (tail: string) =>
      new Octokit({ auth: `ghp_${'x'.repeat(5_000)}${tail}`, baseUrl: root, log: QUIET_LOG });
    for (let i = 0; i < 3; i++) await long('a').rest.issues.listForRepo(repo);
    expect((await refusal(long('a').rest.issues.listForRepo(repo))).status).toBe(403);
    expect((await long('b').rest.issues.listForRepo(repo)).headers['x-ratelimit-used']).toBe('1');
    // The twin's clock past the window's end: a new window.
    await requestJson(`${daemon.url}/api/clock`, { method: 'PUT', body: { advance: '1h' } });
    const next = await octokit.rest.issues.listForRepo(repo);
    expect([next.status, next.headers['x-ratelimit-used'], next.headers['x-ratelimit-remaining']]).toEqual([
      200,
      '1',
      '2',
    ]);
  });
});

describe.each(['level', 'redis'] as const)("the GitHub twin's deliveries (%s)", (store) => {
  it("pings a new hook alone, and sends every delivery with GitHub's headers, verified by @octokit/webhooks", async () => {
    const { root } = await twinDaemon('github', await twinRedis.store(store));
    const octokit = new Octokit({ auth: 'ghp_hooks', baseUrl: root, log: QUIET_LOG });
    const first = await hookReceiver();
    const second = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      await madeRepos(octokit, 'octo/app');
      const secret = 'It is a secret to everybody';
      const hook = await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: first.url, secret, content_type: 'json' },
        events: ['issues', 'issue_comment'],
      });
      await first.until(1);
      // A second hook's ping goes to it alone, although the first takes every event it takes.
      const again = await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: second.url, secret },
        events: ['issues'],
      });
      await second.until(1);
      await octokit.rest.issues.create({ ...repo, title: 'Crash' });
      await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Seen it too' });
      await first.until(3);
      await second.until(2);

      const [ping] = first.received;
      const payload = JSON.parse(ping?.body ?? '{}') as Record<string, unknown>;
      expect(ping?.headers['x-github-event']).toBe('ping');
      expect(Object.keys(payload).sort()).toEqual(expect.arrayContaining(exampleKeys('ping')));
      expect(payload).toMatchObject({
        zen: expect.any(String),
        hook_id: hook.data.id,
        hook: { id: hook.data.id, events: ['issues', 'issue_comment'], config: { url: first.url, secret: '********' } },
        repository: { full_name: 'octo/app' },
        sender: { login: expect.any(String) },
      });
      expect(JSON.parse(second.received[0]?.body ?? '{}')).toMatchObject({ hook_id: again.data.id });

      const webhooks = new Webhooks({ secret });
      const deliveries = new Set<string>();
      for (const [receiver, id] of [
        [first, hook.data.id],
        [second, again.data.id],
      ] as const) {
        for (const { body, headers } of receiver.received) {
          expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
          // GitHub's SHA-1 signature beside it, for integrations that still read it.
          expect(headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', secret).update(body).digest('hex')}`);
          const sent = JSON.parse(body) as { repository: { id: number } };
          expect(headers).toMatchObject({
            'x-github-hook-id': String(id),
            'x-github-hook-installation-target-type': 'repository',
            'x-github-hook-installation-target-id': String(sent.repository.id),
          });
          expect(headers['user-agent']).toMatch(/^GitHub-Hookshot\/[0-9a-f]{7}$/);
          expect(headers['x-github-delivery']).toMatch(UUID);
          deliveries.add(String(headers['x-github-delivery']));
        }
      }
      expect(deliveries.size).toBe(5);
      // The pings were waited for; the two changes' deliveries may arrive in either order.
      const told = first.received.map(({ headers }) => String(headers['x-github-event']));
      expect([told[0], told.slice(1).sort()]).toEqual(['ping', ['issue_comment', 'issues']]);
      expect(second.received.map(({ headers }) => headers['x-github-event'])).toEqual(['ping', 'issues']);
      const commented = first.received.find(({ headers }) => headers['x-github-event'] === 'issue_comment');
      const comment = JSON.parse(commented?.body ?? '{}') as Record<string, Record<string, unknown>>;
      expect(comment.comment?.user).toMatchObject({ login: expect.any(String) });
      expect(comment.sender).toMatchObject({ login: expect.any(String) });
      expect(comment.repository).toMatchObject({ full_name: 'octo/app' });
    } finally {
      await first.close();
      await second.close();
    }
  });
});
