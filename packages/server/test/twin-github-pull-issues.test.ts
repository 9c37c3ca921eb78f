// A pull request changed through its issue (docs/twins.md, "A GitHub twin"): GitHub numbers
// issues and pull requests in one sequence, and `…/issues/{number}` of a pull request edits,
// labels, assigns and locks the pull request itself, sending `pull_request` events. Through
// @octokit/rest against the built daemon in memory, on LevelDB, on a real redis-server and in a
// namespace, each delivery
// verified by @octokit/webhooks. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { GITHUB_NOT_FOUND, madeRepos, QUIET_LOG, rejection } from './helpers/octokit.js';
import { hookReceiver, TWIN_PLACES, type TwinPlace, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const DOCS = 'https://docs.github.com/rest';

async function githubTwin(place: TwinPlace): Promise<Octokit> {
  const { root } = await twinAt('github', place, twinRedis);
  return new Octokit({
    auth: 'ghp_test123',
    baseUrl: root,
    log: QUIET_LOG,
  });
}

/** The status of a request Octokit refused (its `HttpError`), 0 when it was not refused. */
/** Writes a file named `path` (its own name as content) to `branch` of `repo`: the commit's SHA. */
function fileWriter(octokit: Octokit, repo: { owner: string; repo: string }) {
  return async (branch: string, path: string): Promise<string> =>
    (
      await octokit.rest.repos.createOrUpdateFileContents({
        ...repo,
        branch,
        path,
        message: `Add ${path}`,
        content: Buffer.from(path).toString('base64'),
      })
    ).data.commit.sha as string;
}

async function statusOf(request: Promise<unknown>): Promise<number> {
  try {
    await request;
    return 0;
  } catch (error) {
    if ((error as Error).name === 'HttpError') return (error as { status: number }).status;
    throw error;
  }
}

describe.each(TWIN_PLACES)('a pull request changed through its issue (%s)', (place) => {
  it('edits, labels, assigns and locks the pull request, answering it as an issue, with its events', async () => {
    const octokit = await githubTwin(place);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      await madeRepos(octokit, 'octo/app');
      const secret = 'pull-issues';
      // GitHub's default: `push` alone (the document's example lists `pull_request` too).
      const pushOnly = await octokit.rest.repos.createWebhook({ ...repo, config: { url: 'http://127.0.0.1:9/none' } });
      expect(pushOnly.data.events).toEqual(['push']);
      await octokit.rest.repos.deleteWebhook({ ...repo, hook_id: pushOnly.data.id });
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret, content_type: 'json' },
        events: ['issues', 'pull_request'],
      });
      const issue = await octokit.rest.issues.create({ ...repo, title: 'Crash', assignees: ['octocat'] });
      // A new issue is unlocked, its assignees users, as GitHub answers them.
      expect(issue.data).toMatchObject({ number: 1, locked: false, active_lock_reason: null });
      expect(issue.data.assignees?.map((user) => user.login)).toEqual(['octocat']);
      expect(issue.data.assignee?.login).toBe('octocat');
      const pull = await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
      expect(pull.data).toMatchObject({ number: 2, locked: false, active_lock_reason: null });

      const edited = await octokit.rest.issues.update({
        ...repo,
        issue_number: 2,
        title: 'Fix the crash',
        labels: ['bug'],
        assignees: ['octocat'],
      });
      // Answered as the issue of the pull request: its `pull_request` key, label and user objects.
      expect(edited.data).toMatchObject({ number: 2, title: 'Fix the crash' });
      expect(edited.data.pull_request?.url).toMatch(/\/repos\/octo\/app\/pulls\/2$/);
      expect(edited.data.labels.map((label) => (typeof label === 'string' ? label : label.name))).toEqual(['bug']);
      expect(edited.data.assignees?.map((user) => user.login)).toEqual(['octocat']);

      const added = await octokit.rest.issues.addLabels({ ...repo, issue_number: 2, labels: ['ready'] });
      expect(added.data.map((label) => label.name)).toEqual(['bug', 'ready']);
      expect(
        (await octokit.rest.issues.listLabelsOnIssue({ ...repo, issue_number: 2 })).data.map((l) => l.name),
      ).toEqual(['bug', 'ready']);

      const locked = await octokit.rest.issues.lock({ ...repo, issue_number: 2, lock_reason: 'resolved' });
      expect(locked.status).toBe(204);
      const read = await octokit.rest.pulls.get({ ...repo, pull_number: 2 });
      expect(read.data).toMatchObject({ title: 'Fix the crash', locked: true, active_lock_reason: 'resolved' });
      expect(read.data.labels.map((label) => label.name)).toEqual(['bug', 'ready']);
      expect([read.data.assignees?.map((user) => user.login), read.data.assignee?.login]).toEqual([
        ['octocat'],
        'octocat',
      ]);

      // GitHub's four reasons, else 422.
      expect(
        await statusOf(
          octokit.request('PUT /repos/{owner}/{repo}/issues/{issue_number}/lock', {
            ...repo,
            issue_number: 1,
            lock_reason: 'boring' as 'spam',
          }),
        ),
      ).toBe(422);
      await octokit.rest.issues.unlock({ ...repo, issue_number: 2 });
      expect((await octokit.rest.issues.get({ ...repo, issue_number: 2 })).data).toMatchObject({
        locked: false,
        active_lock_reason: null,
      });
      await octokit.rest.issues.lock({ ...repo, issue_number: 1 });
      expect((await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data.locked).toBe(true);
      // A number neither an issue nor a pull request holds: 404, nothing made.
      expect(await statusOf(octokit.rest.issues.update({ ...repo, issue_number: 9, title: 'x' }))).toBe(404);
      expect(await statusOf(octokit.rest.issues.lock({ ...repo, issue_number: 9 }))).toBe(404);

      // ping, issues.opened, pull_request.opened, the pull request's own events, issue 1's lock: in
      // any order (deliveries may overtake one another), compared as a multiset.
      await receiver.until(8);
      const webhooks = new Webhooks({ secret });
      const seen: string[] = [];
      for (const { body, headers } of receiver.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as { action?: string; pull_request?: { number: number }; issue?: unknown };
        seen.push(`${String(headers['x-github-event'])}${payload.action === undefined ? '' : `.${payload.action}`}`);
        if (headers['x-github-event'] === 'pull_request') expect(payload.pull_request?.number).toBe(2);
      }
      expect(seen.sort()).toEqual(
        [
          'ping',
          'issues.opened',
          'pull_request.opened',
          'pull_request.edited',
          'pull_request.labeled',
          'pull_request.locked',
          'pull_request.unlocked',
          'issues.locked',
        ].sort(),
      );
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)('a pull request merged (%s)', (place) => {
  it("closes it merged, its issue too, moves the base branch, and refuses what GitHub's reference refuses", async () => {
    const octokit = await githubTwin(place);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octocat', repo: 'shop' };
      await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, allow_rebase_merge: false });
      const readme = Buffer.from('# Shop\n').toString('base64');
      await octokit.rest.repos.createOrUpdateFileContents({
        ...repo,
        path: 'README.md',
        message: 'Init',
        content: readme,
      });
      const before = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
      // The head branches exist, as GitHub needs them to (a branch it does not hold is 422).
      for (const branch of ['cart', 'drop', 'wip'])
        await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha: before });
      const secret = 'merges';
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret, content_type: 'json' },
        events: ['pull_request', 'push'],
      });
      const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Add cart', head: 'cart', base: 'main' })).data;
      expect(await rejection(octokit.rest.pulls.checkIfMerged({ ...repo, pull_number: pull.number }))).toEqual(
        GITHUB_NOT_FOUND,
      );
      // What GitHub's reference answers 422, 409 and (a method the repository does not allow) 405.
      const bogus = await rejection(
        octokit.rest.pulls.merge({ ...repo, pull_number: pull.number, merge_method: 'octopus' as 'merge' }),
      );
      expect(bogus).toMatchObject([422, { message: 'Validation Failed', errors: [{ field: 'merge_method' }] }]);
      expect(
        await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: pull.number, sha: 'f'.repeat(40) })),
      ).toEqual([
        409,
        { message: 'Head branch was modified. Review and try the merge again.', documentation_url: DOCS },
      ]);
      expect(
        await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: pull.number, merge_method: 'rebase' })),
      ).toEqual([405, { message: 'Rebase merges are not allowed on this repository.', documentation_url: DOCS }]);

      const merged = await octokit.rest.pulls.merge({ ...repo, pull_number: pull.number, sha: pull.head.sha });
      expect(merged.status).toBe(200);
      expect(merged.data).toEqual({
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        merged: true,
        message: 'Pull Request successfully merged',
      });
      const { sha } = merged.data;
      const read = (await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data;
      expect(read).toMatchObject({
        state: 'closed',
        merged: true,
        merge_commit_sha: sha,
        merged_by: { login: 'octocat' },
      });
      expect([typeof read.merged_at, read.merged_at === read.closed_at]).toEqual(['string', true]);
      const issue = (await octokit.rest.issues.get({ ...repo, issue_number: pull.number })).data;
      expect([issue.state, issue.pull_request?.merged_at]).toEqual(['closed', read.merged_at]);
      expect((await octokit.rest.pulls.list({ ...repo, state: 'open' })).data).toEqual([]);
      expect((await octokit.rest.pulls.checkIfMerged({ ...repo, pull_number: pull.number })).status).toBe(204);
      // The base branch is at the merge commit.
      expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha).toBe(sha);
      // Merged once: GitHub's 405, nothing moved.
      const again = await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: pull.number }));
      expect(again).toEqual([405, { message: 'Pull Request is not mergeable', documentation_url: DOCS }]);
      expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha).toBe(sha);

      // Closed unmerged, or a draft: 405 too; neither is merged.
      const closed = (await octokit.rest.pulls.create({ ...repo, title: 'Drop', head: 'drop', base: 'main' })).data;
      await octokit.rest.pulls.update({ ...repo, pull_number: closed.number, state: 'closed' });
      expect(await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: closed.number }))).toEqual(again);
      const draft = (await octokit.rest.pulls.create({ ...repo, title: 'WIP', head: 'wip', base: 'main', draft: true }))
        .data;
      expect(await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: draft.number }))).toEqual([
        405,
        { message: 'Pull Request is still a draft', documentation_url: DOCS },
      ]);
      expect(await rejection(octokit.rest.pulls.checkIfMerged({ ...repo, pull_number: closed.number }))).toEqual(
        GITHUB_NOT_FOUND,
      );
      expect(await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: 99 }))).toEqual(GITHUB_NOT_FOUND);

      // ping, three opened, the merge's closed and push, the unmerged one's closed.
      await receiver.until(7);
      const webhooks = new Webhooks({ secret });
      const seen: string[] = [];
      for (const { body, headers } of receiver.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as {
          action?: string;
          number?: number;
          pull_request?: { merged?: boolean; merge_commit_sha?: string };
          before?: string;
          after?: string;
          ref?: string;
        };
        const type = `${String(headers['x-github-event'])}${payload.action === undefined ? '' : `.${payload.action}`}`;
        seen.push(type);
        if (type === 'pull_request.closed') {
          const wasMerged = payload.number === pull.number;
          expect(payload.pull_request).toMatchObject({ merged: wasMerged });
          if (wasMerged) expect(payload.pull_request?.merge_commit_sha).toBe(sha);
        }
        if (type === 'push')
          expect([payload.ref, payload.before, payload.after]).toEqual(['refs/heads/main', before, sha]);
      }
      expect(seen.sort()).toEqual(
        [
          'ping',
          'pull_request.opened',
          'pull_request.opened',
          'pull_request.opened',
          'pull_request.closed',
          'pull_request.closed',
          'push',
        ].sort(),
      );
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)("a pull request's head and base commits (%s)", (place) => {
  it("are its branches' commits, the head following each push to its branch, and the merge checks it", async () => {
    const octokit = await githubTwin(place);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octocat', repo: 'cart' };
      await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
      const write = fileWriter(octokit, repo);
      const main = await write('main', 'README.md');
      await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: main });
      const first = await write('feature', 'one.md');
      const secret = 'heads';
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret, content_type: 'json' },
        events: ['pull_request'],
      });

      const made = (await octokit.rest.pulls.create({ ...repo, title: 'Feature', head: 'feature', base: 'main' })).data;
      expect([made.head.ref, made.head.label, made.head.sha]).toEqual(['feature', 'octocat:feature', first]);
      expect([made.base.ref, made.base.label, made.base.sha]).toEqual(['main', 'octocat:main', main]);

      // A push to the head branch moves the kept pull request's head.sha, and synchronizes it.
      const second = await write('feature', 'two.md');
      expect((await octokit.rest.pulls.get({ ...repo, pull_number: made.number })).data.head.sha).toBe(second);
      expect((await octokit.rest.pulls.list(repo)).data.map((pull) => pull.head.sha)).toEqual([second]);
      expect((await octokit.rest.pulls.get({ ...repo, pull_number: made.number })).data.base.sha).toBe(main);

      // The merge compares the `sha` sent with the head's commit as it now is.
      const stale = await rejection(octokit.rest.pulls.merge({ ...repo, pull_number: made.number, sha: first }));
      expect(stale).toEqual([
        409,
        { message: 'Head branch was modified. Review and try the merge again.', documentation_url: DOCS },
      ]);
      const merged = await octokit.rest.pulls.merge({ ...repo, pull_number: made.number, sha: second });
      expect(merged.data.merged).toBe(true);
      // A closed pull request's head stays where it was merged.
      await write('feature', 'three.md');
      expect((await octokit.rest.pulls.get({ ...repo, pull_number: made.number })).data.head.sha).toBe(second);

      // ping, opened, synchronize (at the second commit), closed.
      await receiver.until(4);
      const webhooks = new Webhooks({ secret });
      const seen: string[] = [];
      for (const { body, headers } of receiver.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as {
          action?: string;
          before?: string;
          after?: string;
          pull_request?: { head: { sha: string } };
        };
        seen.push(`${String(headers['x-github-event'])}${payload.action === undefined ? '' : `.${payload.action}`}`);
        if (payload.action === 'opened') expect(payload.pull_request?.head.sha).toBe(first);
        if (payload.action === 'synchronize') {
          expect([payload.before, payload.after, payload.pull_request?.head.sha]).toEqual([first, second, second]);
        }
      }
      expect(seen.sort()).toEqual(
        ['ping', 'pull_request.opened', 'pull_request.synchronize', 'pull_request.closed'].sort(),
      );
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)("a pull request's base commit (%s)", (place) => {
  it('is taken again at each push to its head (synchronize), not at a push to the base alone; a closed one stays', async () => {
    const octokit = await githubTwin(place);
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octocat', repo: 'shop' };
      await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
      const write = fileWriter(octokit, repo);
      const main = await write('main', 'README.md');
      await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: main });
      await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/other', sha: main });
      const head = await write('feature', 'one.md');
      const two = await write('other', 'two.md');
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret: 'base', content_type: 'json' },
        events: ['pull_request'],
      });
      const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Feature', head: 'feature', base: 'main' })).data;
      const closed = (await octokit.rest.pulls.create({ ...repo, title: 'Other', head: 'other', base: 'main' })).data;
      await octokit.rest.pulls.update({ ...repo, pull_number: closed.number, state: 'closed' });
      const sides = async (pull_number: number) => {
        const read = (await octokit.rest.pulls.get({ ...repo, pull_number })).data;
        return [read.base.sha, read.head.sha];
      };
      expect((await sides(pull.number))[0]).toBe(main);

      // A push to the base alone (a file written, the ref moved) leaves the base commit where it was.
      await write('main', 'CHANGELOG.md');
      // (Moved, with `force`, to a commit the repository holds: the other branch's.)
      const moved = two;
      await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: moved, force: true });
      expect(await sides(pull.number)).toEqual([main, head]);

      // A push to the head takes both again: the head's new commit, the base's as it now is.
      const pushed = await write('feature', 'three.md');
      expect(await sides(pull.number)).toEqual([moved, pushed]);
      const listed = (await octokit.rest.pulls.list({ ...repo, state: 'all', direction: 'asc' })).data;
      expect(listed.map((one) => one.base.sha)).toEqual([moved, main]);
      // A closed one is not taken again at a push to its head.
      await write('other', 'four.md');
      expect((await sides(closed.number))[0]).toBe(main);

      // ping, opened twice, closed once, one synchronize: a push to the base sends none.
      await receiver.until(5);
      const seen = receiver.received.map(({ body, headers }) => {
        const action = (JSON.parse(body) as { action?: string }).action;
        return `${String(headers['x-github-event'])}${action === undefined ? '' : `.${action}`}`;
      });
      expect(seen.sort()).toEqual(
        [
          'ping',
          'pull_request.opened',
          'pull_request.opened',
          'pull_request.closed',
          'pull_request.synchronize',
        ].sort(),
      );
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)('a merged pull request reopened (%s)', (place) => {
  it('is 422 Validation Failed, through the pull request or its issue; a closed unmerged one reopens', async () => {
    const octokit = await githubTwin(place);
    const repo = { owner: 'octocat', repo: 'reopen' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const merged = (await octokit.rest.pulls.create({ ...repo, title: 'Done', head: 'done', base: 'main' })).data;
    await octokit.rest.pulls.merge({ ...repo, pull_number: merged.number });
    const refusal = [
      422,
      {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'PullRequest',
            code: 'custom',
            field: 'state',
            message: 'state cannot be changed. The pull request cannot be reopened.',
          },
        ],
        documentation_url: DOCS,
      },
    ];
    expect(await rejection(octokit.rest.pulls.update({ ...repo, pull_number: merged.number, state: 'open' }))).toEqual(
      refusal,
    );
    expect(
      await rejection(octokit.rest.issues.update({ ...repo, issue_number: merged.number, state: 'open' })),
    ).toEqual(refusal);
    // Nothing changed; another change of it is taken.
    const read = (await octokit.rest.pulls.get({ ...repo, pull_number: merged.number })).data;
    expect([read.state, read.merged]).toEqual(['closed', true]);
    const renamed = await octokit.rest.pulls.update({ ...repo, pull_number: merged.number, title: 'Done well' });
    expect([renamed.data.title, renamed.data.state]).toEqual(['Done well', 'closed']);

    const dropped = (await octokit.rest.pulls.create({ ...repo, title: 'Drop', head: 'drop', base: 'main' })).data;
    await octokit.rest.pulls.update({ ...repo, pull_number: dropped.number, state: 'closed' });
    const reopened = await octokit.rest.pulls.update({ ...repo, pull_number: dropped.number, state: 'open' });
    expect([reopened.data.state, reopened.data.closed_at, reopened.data.merged]).toEqual(['open', null, false]);
  });
});
