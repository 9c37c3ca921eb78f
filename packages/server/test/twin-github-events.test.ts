// The GitHub twin's events of its own state (issue #73, "Deliveries as GitHub's"), through
// @octokit/rest against the built daemon in memory, on LevelDB, on a real redis-server and in a
// namespace, `unseen` at its default: `push`, `create`
// and `delete` of files written and refs moved, `pull_request.synchronize` of a pull request whose
// head branch moves, `release`, `pull_request_review.submitted`, `pull_request.reopened` and
// `repository` edited/renamed/deleted, each to the repository's hook, verified by
// @octokit/webhooks, its payload's keys those of @octokit/webhooks-examples and its `repository`
// the one kept. Every process listens on 127.0.0.1.
import { createClient } from '@mockpoint/core';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';

import { runCli } from './helpers/daemon.js';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import { exampleKeys, hookReceiver, type Received, sharedTwinAt, TWIN_PLACES, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const SECRET = 'It is a secret to everybody';
const ZERO = '0'.repeat(40);

/** A delivery's type (`push`, `release.created`) and payload, once `verify` has checked its signature. */
async function opened(
  received: readonly Received[],
  secret = SECRET,
): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const verifier = new Webhooks({ secret });
  const out: { type: string; payload: Record<string, unknown> }[] = [];
  for (const { body, headers } of received) {
    expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
    const payload = JSON.parse(body) as Record<string, unknown>;
    const event = String(headers['x-github-event']);
    out.push({ type: [event, payload.action].filter(Boolean).join('.'), payload });
  }
  return out;
}

/** The payloads of `type`, in the order they came. */
const of = (all: { type: string; payload: Record<string, unknown> }[], type: string) =>
  all.filter((one) => one.type === type).map((one) => one.payload);

/**
 * Each payload has every key the examples of its event and action have (`repository.deleted` has
 * none: its keys), `organization` where an organization owns the repository (GitHub's rule; the
 * examples of `repository.edited` are all of one).
 */
function keysAsExamples(all: { type: string; payload: Record<string, unknown> }[]): void {
  for (const { type, payload } of all) {
    const [event = '', action] = type.split('.');
    const wanted =
      type === 'repository.deleted' ? ['action', 'organization', 'repository', 'sender'] : exampleKeys(event, action);
    const owner = (payload.repository as { owner?: { type?: string } }).owner;
    const keys = owner?.type === 'Organization' ? wanted : wanted.filter((key) => key !== 'organization');
    expect(Object.keys(payload), type).toEqual(expect.arrayContaining(keys));
  }
}

describe.each(TWIN_PLACES)("the GitHub twin's events of its own state (%s)", (place) => {
  // One daemon for the place's three tests, each with a twin at a name (in a namespace) of its own.
  const twins = sharedTwinAt('github', place, twinRedis, 3);

  it('sends push, create, delete of files and refs, and synchronize of a pull whose head moves', async () => {
    const { root } = await twins();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      const made = await octokit.rest.repos.createInOrg({ org: 'octo-org', name: 'widgets' });
      const repo = { owner: 'octo-org', repo: 'widgets' };
      await octokit.rest.repos.createWebhook({ ...repo, config: { url: receiver.url, secret: SECRET }, events: ['*'] });
      // Deliveries are sent several at a time and may overtake one another (as GitHub's may): each
      // step's are waited for before the next, so the pushes below come in the order made.
      await receiver.until(1);
      const content = (text: string) => Buffer.from(text).toString('base64');
      const first = await octokit.rest.repos.createOrUpdateFileContents({
        ...repo,
        path: 'README.md',
        message: 'Add the README',
        content: content('Hello\n'),
      });
      await receiver.until(3);
      const second = await octokit.rest.repos.createOrUpdateFileContents({
        ...repo,
        path: 'README.md',
        message: 'Say more',
        content: content('Hello, world\n'),
        sha: first.data.content?.sha,
      });
      await receiver.until(4);
      const [one, two] = [first.data.commit.sha as string, second.data.commit.sha as string];
      // The branch moved with each commit, the second's parent the first.
      expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha).toBe(two);
      expect(second.data.commit.parents?.map((parent) => parent.sha)).toEqual([one]);
      await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: two });
      await receiver.until(6);
      const pull = await octokit.rest.pulls.create({ ...repo, title: 'Feature', head: 'feature', base: 'main' });
      expect([pull.data.head.ref, pull.data.base.ref]).toEqual(['feature', 'main']);
      await receiver.until(7);
      const third = await octokit.rest.repos.createOrUpdateFileContents({
        ...repo,
        path: 'feature.md',
        message: 'Start the feature',
        content: content('Soon\n'),
        branch: 'feature',
      });
      const three = third.data.commit.sha as string;
      await receiver.until(9);
      await octokit.rest.git.updateRef({ ...repo, ref: 'heads/feature', sha: one, force: true });
      await receiver.until(11);
      await octokit.rest.git.deleteRef({ ...repo, ref: 'heads/feature' });

      // ping; create+push; push; create+push; pull_request.opened; push+synchronize twice; delete+push.
      await receiver.until(13);
      const all = await opened(receiver.received);
      keysAsExamples(all);
      for (const { payload } of all) {
        expect(payload.repository).toMatchObject({
          id: made.data.id,
          full_name: 'octo-org/widgets',
          default_branch: 'main',
        });
        expect(payload.organization).toMatchObject({ login: 'octo-org' });
      }
      const pushes = of(all, 'push');
      expect(
        pushes.map((push) => [push.ref, push.before, push.after, push.created, push.deleted, push.forced]),
      ).toEqual([
        ['refs/heads/main', ZERO, one, true, false, false],
        ['refs/heads/main', one, two, false, false, false],
        ['refs/heads/feature', ZERO, two, true, false, false],
        ['refs/heads/feature', two, three, false, false, false],
        ['refs/heads/feature', three, one, false, false, true],
        ['refs/heads/feature', one, ZERO, false, true, false],
      ]);
      expect(pushes[1]?.commits).toEqual([
        expect.objectContaining({ id: two, message: 'Say more', added: [], modified: ['README.md'], removed: [] }),
      ]);
      expect(pushes[1]?.head_commit).toMatchObject({ id: two });
      // A branch made at a commit the twin made: its head commit, none pushed.
      expect([pushes[2]?.commits, (pushes[2]?.head_commit as { id?: string } | undefined)?.id]).toEqual([[], two]);
      expect(pushes[1]?.compare).toBe(
        `https://github.com/octo-org/widgets/compare/${one.slice(0, 12)}...${two.slice(0, 12)}`,
      );
      expect(of(all, 'create').map((create) => [create.ref, create.ref_type, create.master_branch])).toEqual([
        ['main', 'branch', 'main'],
        ['feature', 'branch', 'main'],
      ]);
      expect(of(all, 'delete').map((gone) => [gone.ref, gone.ref_type, gone.pusher_type])).toEqual([
        ['feature', 'branch', 'user'],
      ]);
      const synced = of(all, 'pull_request.synchronize');
      expect(
        synced.map((sync) => [
          sync.number,
          sync.before,
          sync.after,
          (sync.pull_request as { head: { sha: string } }).head.sha,
        ]),
      ).toEqual([
        [pull.data.number, two, three, three],
        [pull.data.number, three, one, one],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('sends release, pull_request_review, pull_request.reopened and repository events of its state', async () => {
    const { root } = await twins();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      const made = await octokit.rest.repos.createInOrg({ org: 'octo-org', name: 'gadgets' });
      const repo = { owner: 'octo-org', repo: 'gadgets' };
      await octokit.rest.repos.createWebhook({ ...repo, config: { url: receiver.url, secret: SECRET }, events: ['*'] });
      const release = await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0', name: 'One' });
      expect(release.status).toBe(201);
      expect(release.data).toMatchObject({
        tag_name: 'v1.0.0',
        name: 'One',
        draft: false,
        prerelease: false,
        author: { login: 'octocat' },
        html_url: 'https://github.com/octo-org/gadgets/releases/tag/v1.0.0',
        url: `https://api.github.com/repos/octo-org/gadgets/releases/${release.data.id}`,
      });
      const draft = await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v2.0.0', draft: true });
      expect([draft.data.draft, draft.data.published_at]).toEqual([true, null]);
      const published = await octokit.rest.repos.updateRelease({ ...repo, release_id: draft.data.id, draft: false });
      expect(typeof published.data.published_at).toBe('string');
      const listed = await octokit.rest.repos.listReleases(repo);
      expect(listed.data.map((one) => one.tag_name).sort()).toEqual(['v1.0.0', 'v2.0.0']);
      await octokit.rest.repos.deleteRelease({ ...repo, release_id: release.data.id });

      const pull = await octokit.rest.pulls.create({ ...repo, title: 'Fix', head: 'fix', base: 'main' });
      const pull_number = pull.data.number;
      const review = await octokit.rest.pulls.createReview({ ...repo, pull_number, body: 'Good.', event: 'APPROVE' });
      expect(review.data).toMatchObject({ state: 'APPROVED', body: 'Good.', user: { login: 'octocat' } });
      expect((await octokit.rest.pulls.listReviews({ ...repo, pull_number })).data.map((one) => one.id)).toEqual([
        review.data.id,
      ]);
      await octokit.rest.pulls.update({ ...repo, pull_number, state: 'closed' });
      await octokit.rest.pulls.update({ ...repo, pull_number, state: 'open' });

      await octokit.rest.repos.update({ ...repo, description: 'Gadgets, kept' });
      await octokit.rest.repos.update({ ...repo, name: 'gizmos' });
      await octokit.rest.repos.delete({ owner: 'octo-org', repo: 'gizmos' });

      // ping; 3 + 1 + 2 + 1 release; opened, review, closed, reopened; edited, renamed, deleted.
      await receiver.until(15);
      const all = await opened(receiver.received);
      keysAsExamples(all);
      for (const { payload } of all) expect(payload.repository).toMatchObject({ id: made.data.id });
      expect(all.map((one) => one.type).sort()).toEqual(
        [
          'ping',
          'release.created',
          'release.published',
          'release.released',
          'release.created',
          'release.published',
          'release.released',
          'release.deleted',
          'pull_request.opened',
          'pull_request_review.submitted',
          'pull_request.closed',
          'pull_request.reopened',
          'repository.edited',
          'repository.renamed',
          'repository.deleted',
        ].sort(),
      );
      // The two releases' deliveries may come in either order (several are sent at a time).
      expect(
        of(all, 'release.created')
          .map((one) => (one.release as { tag_name: string }).tag_name)
          .sort(),
      ).toEqual(['v1.0.0', 'v2.0.0']);
      expect(of(all, 'release.deleted')[0]?.release).toMatchObject({ id: release.data.id });
      const [submitted] = of(all, 'pull_request_review.submitted');
      expect(submitted?.review).toMatchObject({ id: review.data.id, state: 'approved' });
      expect(submitted?.pull_request).toMatchObject({ number: pull_number, title: 'Fix' });
      expect(of(all, 'repository.edited')[0]?.changes).toEqual({ description: { from: null } });
      const [renamed] = of(all, 'repository.renamed');
      expect([renamed?.changes, (renamed?.repository as { full_name?: string } | undefined)?.full_name]).toEqual([
        { repository: { name: { from: 'gadgets' } } },
        'octo-org/gizmos',
      ]);
      expect(of(all, 'repository.deleted')[0]?.repository).toMatchObject({ full_name: 'octo-org/gizmos' });
    } finally {
      await receiver.close();
    }
  });

  it('mockpoint trigger github sends each of these events, made through the twin, to the hook and --to', async () => {
    const { api, name, root } = await twins();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const hooks = await hookReceiver();
    const once = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      // Made before its hook, as GitHub's hooks are: each trigger finds it held (a 422 left as it is).
      await madeRepos(octokit, 'octo/app');
      await octokit.rest.repos.createWebhook({ ...repo, config: { url: hooks.url, secret: SECRET }, events: ['*'] });
      const cli = await runCli({ args: ['trigger', name, 'push', '--repo', 'octo/app', '--url', api] });
      expect([cli.code, cli.stderr]).toEqual([0, '']);
      // Its first write makes the branch `main`: `create` too, then the push asked for (starred).
      expect(cli.stdout).toBe('  create\n* push\n');
      const client = createClient({ baseUrl: api });
      const heard = [
        'create',
        'delete',
        'pull_request.reopened',
        'pull_request.synchronize',
        'pull_request_review.submitted',
        'release.created',
        'release.published',
        'release.deleted',
        'repository.edited',
      ];
      for (const event of heard) {
        const sent = await client.triggerTwin(name, { event, repo: 'octo/app' });
        expect(
          sent.events.map((one) => one.type),
          event,
        ).toContain(event);
      }
      // A repository of its own (`trigger-…` of the owner): no hook of it, so only `to` hears it.
      // Each heard before the next is made: deliveries of two changes may overtake each other, as GitHub's may.
      const apart = ['repository.created', 'repository.renamed', 'repository.deleted'];
      for (const [i, event] of apart.entries()) {
        const sent = await client.triggerTwin(name, { event, repo: 'octo/app', to: once.url, secret: 'shh' });
        expect(
          sent.events.map((one) => one.type),
          event,
        ).toContain(event);
        await once.until(i + 1);
      }
      // octo/app goes on being written (the trigger's own repositories, made and deleted, left it as it was).
      expect((await octokit.rest.issues.create({ ...repo, title: 'Still here' })).status).toBe(201);
      await once.until(3);
      const sentOnce = await opened(once.received, 'shh');
      expect(sentOnce.map((one) => one.type)).toEqual(apart);
      keysAsExamples(sentOnce);
      // Every event of the triggers' calls reached the hook, as GitHub sends it: the ping; push (its
      // first write makes `main`: create too); create; delete; reopened and the review (each of a
      // branch written and made first); synchronize; three releases (each tag made: create, push);
      // the edit; and the issue.
      const wanted = [
        ['ping'],
        ['create', 'push'],
        ['push', 'create', 'push'],
        ['push', 'create', 'push', 'delete', 'push'],
        ['push', 'create', 'push', 'pull_request.opened', 'pull_request.closed', 'pull_request.reopened'],
        ['push', 'create', 'push', 'pull_request.opened', 'push', 'pull_request.synchronize'],
        ['push', 'create', 'push', 'pull_request.opened', 'pull_request_review.submitted'],
        ['release.created', 'release.published', 'release.released', 'create', 'push'],
        ['release.created', 'release.published', 'release.released', 'create', 'push'],
        ['release.created', 'release.published', 'release.released', 'create', 'push', 'release.deleted'],
        ['repository.edited'],
        ['issues.opened'],
      ].flat();
      await hooks.until(wanted.length);
      const all = await opened(hooks.received);
      expect(all.map((one) => one.type).sort()).toEqual(wanted.sort());
      keysAsExamples(all.filter((one) => one.type !== 'release.released'));
      for (const { payload } of all) expect(payload.repository).toMatchObject({ full_name: 'octo/app' });
    } finally {
      await hooks.close();
      await once.close();
    }
  });
});
