// The GitHub twin's commit statuses and check runs (issue #73, docs/design.md#twins-as-the-provider-answers "statuses and the
// combined status"), through @octokit/rest against the built daemon in memory, on LevelDB, on a
// real redis-server and in a namespace, `unseen` at its default (one daemon per place): kept per
// repository and SHA, read by a branch's name, combined as GitHub combines them, each change's
// event to the repository's hook verified by @octokit/webhooks with the keys of
// @octokit/webhooks-examples, and `mockpoint trigger github status`. Every process listens on 127.0.0.1.
import { createClient } from '@mockpoint/core';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { exampleKeys, hookReceiver, type Received, sharedTwinAt, TWIN_PLACES, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const SECRET = 'It is a secret to everybody';
const SHA = 'aa218f56b14c9653891f9e74264a383fa43fefbd';

/** What a request Octokit rejects answered: its status and body. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number; response: { data: unknown } }) => [error.status, error.response.data],
  );

/** Each delivery's event (`status`, `check_run.created`) and payload, its signature verified. */
async function opened(received: readonly Received[]): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  const verifier = new Webhooks({ secret: SECRET });
  const out: { type: string; payload: Record<string, unknown> }[] = [];
  for (const { body, headers } of received) {
    expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
    const payload = JSON.parse(body) as Record<string, unknown>;
    out.push({ type: [headers['x-github-event'], payload.action].filter(Boolean).join('.'), payload });
  }
  return out;
}

describe.each(TWIN_PLACES)('%s', (place) => {
  // One daemon for the place's four tests, each with a twin at a name (in a namespace) of its own.
  const twins = sharedTwinAt('github', place, twinRedis, 4);
  async function started() {
    const twin = await twins();
    return { ...twin, octokit: new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG }) };
  }

  describe("the GitHub twin's commit statuses", () => {
    it('keeps statuses per SHA, lists them newest first and combines the latest of each context', async () => {
      const { octokit } = await started();
      const receiver = await hookReceiver();
      try {
        const repo = { owner: 'octo-org', repo: 'statuses' };
        await octokit.rest.repos.createInOrg({ org: repo.owner, name: repo.repo });
        await octokit.rest.repos.createWebhook({
          ...repo,
          config: { url: receiver.url, secret: SECRET },
          events: ['status'],
        });
        const written = await octokit.rest.repos.createOrUpdateFileContents({
          ...repo,
          path: 'README.md',
          message: 'Add the README',
          content: Buffer.from('Hello\n').toString('base64'),
        });
        const sha = String(written.data.commit.sha);

        // A state GitHub does not take, a SHA it has no commit of: 422.
        const bad = octokit.request('POST /repos/{owner}/{repo}/statuses/{sha}' as string, {
          ...repo,
          sha,
          state: 'green',
        });
        expect((await failure(bad))[0]).toBe(422);
        const none = octokit.rest.repos.createCommitStatus({ ...repo, sha: 'not-a-sha', state: 'success' });
        expect(await failure(none)).toEqual([
          422,
          { message: 'No commit found for SHA: not-a-sha', documentation_url: 'https://docs.github.com/rest' },
        ]);

        const made = await octokit.rest.repos.createCommitStatus({ ...repo, sha, state: 'pending', context: 'ci' });
        expect(made.status).toBe(201);
        expect(made.data).toMatchObject({
          state: 'pending',
          context: 'ci',
          description: null,
          target_url: null,
          url: `https://api.github.com/repos/octo-org/statuses/statuses/${sha}`,
          creator: { login: 'octocat' },
        });
        expect(typeof made.data.id).toBe('number');
        expect(made.data.created_at).toBe(made.data.updated_at);
        await octokit.rest.repos.createCommitStatus({
          ...repo,
          sha,
          state: 'success',
          context: 'ci',
          target_url: 'https://ci.example.com/1',
          description: 'Passed',
        });
        const lint = await octokit.rest.repos.createCommitStatus({ ...repo, sha, state: 'failure' });
        expect(lint.data.context).toBe('default');

        // By the branch's name, newest first; by the SHA the same.
        const listed = await octokit.rest.repos.listCommitStatusesForRef({ ...repo, ref: 'main' });
        expect(listed.data.map((one) => [one.context, one.state])).toEqual([
          ['default', 'failure'],
          ['ci', 'success'],
          ['ci', 'pending'],
        ]);
        expect((await octokit.rest.repos.listCommitStatusesForRef({ ...repo, ref: sha })).data).toEqual(listed.data);
        const paged = await octokit.rest.repos.listCommitStatusesForRef({ ...repo, ref: sha, per_page: 1 });
        expect([paged.data.length, paged.headers.link]).toEqual([1, expect.stringContaining('page=2')]);

        const failing = await octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: 'main' });
        expect(failing.data).toMatchObject({
          state: 'failure',
          sha,
          total_count: 2,
          repository: { full_name: 'octo-org/statuses' },
          url: `https://api.github.com/repos/octo-org/statuses/commits/${sha}/status`,
        });
        expect(failing.data.statuses.map((one) => [one.context, one.state])).toEqual([
          ['default', 'failure'],
          ['ci', 'success'],
        ]);
        await octokit.rest.repos.createCommitStatus({ ...repo, sha, state: 'success' });
        expect((await octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: sha })).data.state).toBe('success');
        await octokit.rest.repos.createCommitStatus({ ...repo, sha, state: 'pending', context: 'deploy' });
        expect((await octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: sha })).data.state).toBe('pending');
        // Another SHA has none: pending, nothing listed. A ref the twin holds no branch or tag of: 404.
        const empty = await octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: SHA });
        expect([empty.data.state, empty.data.total_count, empty.data.statuses]).toEqual(['pending', 0, []]);
        expect((await octokit.rest.repos.listCommitStatusesForRef({ ...repo, ref: SHA })).data).toEqual([]);
        const unknown = octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: 'no-such-branch' });
        expect(await failure(unknown)).toEqual([
          404,
          { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
        ]);
        expect((await octokit.rest.repos.listCommitStatusesForRef({ ...repo, ref: 'no-such-branch' })).data).toEqual(
          [],
        );

        // Its ping, and each status its `status` event (the hook hears `status` alone: no push).
        await receiver.until(6);
        // Deliveries may overtake one another: compared as a multiset, the first status found by its id.
        const events = await opened(receiver.received);
        expect(events.map((one) => one.type).sort()).toEqual([
          'ping',
          'status',
          'status',
          'status',
          'status',
          'status',
        ]);
        const first = events.find((one) => one.payload.id === made.data.id);
        expect(Object.keys(first?.payload ?? {})).toEqual(expect.arrayContaining(exampleKeys('status')));
        expect(first?.payload).toMatchObject({
          id: made.data.id,
          sha,
          name: 'octo-org/statuses',
          state: 'pending',
          context: 'ci',
          commit: { sha, commit: { message: 'Add the README' } },
          branches: [{ name: 'main', commit: { sha }, protected: false }],
          repository: { full_name: 'octo-org/statuses' },
          sender: { login: 'octocat' },
        });
      } finally {
        await receiver.close();
      }
    });

    it('sends `mockpoint trigger github status` through the statuses flow', async () => {
      const { api, name, octokit } = await started();
      const client = createClient({ baseUrl: api });
      const sent = await client.triggerTwin(name, { event: 'status', repo: 'octo/app' });
      // The trigger makes octo/app first (GitHub's 404 below a repository never made).
      expect(sent.events.map((one) => one.type)).toEqual(['repository.created', 'create', 'push', 'status']);
      const event = sent.events[3]?.event as Record<string, unknown>;
      expect(event).toMatchObject({ state: 'success', context: 'ci/mockpoint', branches: [{ name: 'main' }] });
      const combined = await octokit.rest.repos.getCombinedStatusForRef({ owner: 'octo', repo: 'app', ref: 'main' });
      expect([combined.data.state, combined.data.sha]).toEqual(['success', event.sha]);
    });
  });

  describe("the GitHub twin's check runs", () => {
    it('makes, completes, reads and lists check runs, telling check_run created and completed', async () => {
      const { octokit } = await started();
      const receiver = await hookReceiver();
      try {
        const repo = { owner: 'octo-org', repo: 'checks' };
        await octokit.rest.repos.createInOrg({ org: repo.owner, name: repo.repo });
        await octokit.rest.repos.createWebhook({
          ...repo,
          config: { url: receiver.url, secret: SECRET },
          events: ['check_run'],
        });
        // `name` and `head_sha` are needed; a completion needs a conclusion; a status outside the list: 422.
        const nameless = octokit.request('POST /repos/{owner}/{repo}/check-runs' as string, { ...repo, head_sha: SHA });
        expect(await failure(nameless)).toEqual([
          422,
          {
            message: 'Invalid request.\n\n"name" wasn\'t supplied.',
            documentation_url: 'https://docs.github.com/rest',
          },
        ]);
        const unconcluded = octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: SHA, status: 'completed' });
        expect((await failure(unconcluded))[0]).toBe(422);
        const odd = octokit.request('POST /repos/{owner}/{repo}/check-runs' as string, {
          ...repo,
          name: 'ci',
          head_sha: SHA,
          status: 'done',
        });
        // GitHub's words for it, before the document's enum refusal (its own refusal first).
        expect(await failure(odd)).toEqual([
          422,
          {
            message:
              'Invalid request.\n\nFor \'properties/status\', "done" is not one of ["queued","in_progress","completed"].',
            documentation_url: 'https://docs.github.com/rest',
          },
        ]);

        const made = await octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: SHA, status: 'in_progress' });
        expect(made.status).toBe(201);
        expect(made.data).toMatchObject({
          name: 'ci',
          head_sha: SHA,
          status: 'in_progress',
          conclusion: null,
          completed_at: null,
          url: `https://api.github.com/repos/octo-org/checks/check-runs/${made.data.id}`,
          output: { title: null, annotations_count: 0 },
          pull_requests: [],
        });
        const lint = await octokit.rest.checks.create({ ...repo, name: 'lint', head_sha: SHA, conclusion: 'failure' });
        expect([lint.data.status, lint.data.conclusion, typeof lint.data.completed_at]).toEqual([
          'completed',
          'failure',
          'string',
        ]);
        const done = await octokit.rest.checks.update({
          ...repo,
          check_run_id: made.data.id,
          conclusion: 'success',
          output: { title: 'Passed', summary: 'Every test passed.' },
        });
        expect(done.data).toMatchObject({ status: 'completed', conclusion: 'success', output: { title: 'Passed' } });
        expect((await octokit.rest.checks.get({ ...repo, check_run_id: made.data.id })).data).toEqual(done.data);
        const missing = octokit.rest.checks.get({ ...repo, check_run_id: 999_999 });
        expect((await failure(missing))[0]).toBe(404);

        // A rerun of `ci`: the list shows the latest of each name unless `filter=all`.
        const rerun = await octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: SHA });
        const latest = await octokit.rest.checks.listForRef({ ...repo, ref: SHA });
        expect(latest.data.total_count).toBe(2);
        expect(latest.data.check_runs.map((run) => [run.name, run.id])).toEqual([
          ['ci', rerun.data.id],
          ['lint', lint.data.id],
        ]);
        const all = await octokit.rest.checks.listForRef({ ...repo, ref: SHA, filter: 'all' });
        expect(all.data.total_count).toBe(3);
        const named = await octokit.rest.checks.listForRef({ ...repo, ref: SHA, check_name: 'lint' });
        expect(named.data.check_runs.map((run) => run.id)).toEqual([lint.data.id]);

        // Its ping; ci created, lint created and completed, ci completed, the rerun created (each
        // delivery on its own: in any order).
        await receiver.until(6);
        const events = (await opened(receiver.received)).filter((one) => one.type !== 'ping');
        const told = events.map(({ type, payload }) => `${type} ${(payload.check_run as { id: number }).id}`);
        expect(told.sort()).toEqual(
          [
            `check_run.created ${made.data.id}`,
            `check_run.completed ${made.data.id}`,
            `check_run.created ${lint.data.id}`,
            `check_run.completed ${lint.data.id}`,
            `check_run.created ${rerun.data.id}`,
          ].sort(),
        );
        for (const { type, payload } of events) {
          const action = type.split('.')[1];
          expect(Object.keys(payload), type).toEqual(expect.arrayContaining(exampleKeys('check_run', action)));
          expect(payload.repository).toMatchObject({ full_name: 'octo-org/checks' });
        }
        const completed = events.find(
          ({ type, payload }) =>
            type === 'check_run.completed' && (payload.check_run as { id: number }).id === made.data.id,
        );
        expect(completed?.payload.check_run).toMatchObject({ conclusion: 'success', output: { title: 'Passed' } });
      } finally {
        await receiver.close();
      }
    });

    it('sends `mockpoint trigger github check_run.created` and `check_run.completed`', async () => {
      const { api, name, octokit } = await started();
      const client = createClient({ baseUrl: api });
      const created = await client.triggerTwin(name, { event: 'check_run.created', repo: 'octo/app' });
      // The first trigger makes octo/app (GitHub's 404 below a repository never made); the second finds it.
      expect(created.events.map((one) => one.type)).toEqual([
        'repository.created',
        'create',
        'push',
        'check_run.created',
      ]);
      const completed = await client.triggerTwin(name, { event: 'check_run.completed', repo: 'octo/app' });
      expect(completed.events.map((one) => one.type)).toEqual(['push', 'check_run.created', 'check_run.completed']);
      const run = completed.events[2]?.event.check_run as { id: number; head_sha: string };
      const read = await octokit.rest.checks.get({ owner: 'octo', repo: 'app', check_run_id: run.id });
      expect(read.data).toMatchObject({ status: 'completed', conclusion: 'success', head_sha: run.head_sha });
    });
  });
});
