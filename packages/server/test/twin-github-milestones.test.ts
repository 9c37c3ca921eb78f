// A repository's milestones (docs/twins.md, "A GitHub twin"): GitHub counts the issues and pull
// requests carrying a milestone by their state, `open_issues` and `closed_issues`, as each is made,
// moved to another milestone, closed, reopened or cleared of it; a pull request's milestone is set
// through its issue. Through @octokit/rest against the built daemon in memory, on LevelDB, on a
// real redis-server and in a namespace. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, type TwinPlace, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A twin at `place` with the repository `octocat/app` and its milestones `v1` and `v2`. */
async function withMilestones(place: TwinPlace) {
  const { root } = await twinAt('github', place, twinRedis);
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  const repo = { owner: 'octocat', repo: 'app' };
  await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
  const v1 = (await octokit.rest.issues.createMilestone({ ...repo, title: 'v1' })).data;
  const v2 = (await octokit.rest.issues.createMilestone({ ...repo, title: 'v2' })).data;
  return { octokit, repo, v1, v2 };
}

describe.each(TWIN_PLACES)("a milestone's counts (%s)", (place) => {
  it('are the open and closed issues and pull requests carrying it, as each read and list answers them', async () => {
    const { octokit, repo, v1, v2 } = await withMilestones(place);
    const counts = async (milestone_number: number) => {
      const { data } = await octokit.rest.issues.getMilestone({ ...repo, milestone_number });
      return [data.open_issues, data.closed_issues];
    };
    expect(await counts(v1.number)).toEqual([0, 0]);

    const a = (await octokit.rest.issues.create({ ...repo, title: 'A', milestone: v1.number })).data;
    const b = (await octokit.rest.issues.create({ ...repo, title: 'B', milestone: v1.number })).data;
    const c = (await octokit.rest.issues.create({ ...repo, title: 'C' })).data;
    // A pull request's milestone is set through its issue, and counts as an issue does.
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'P', head: 'feature', base: 'main' })).data;
    const set = await octokit.rest.issues.update({ ...repo, issue_number: pull.number, milestone: v1.number });
    expect(set.data.milestone?.number).toBe(v1.number);
    expect((await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.milestone?.number).toBe(
      v1.number,
    );
    expect(await counts(v1.number)).toEqual([3, 0]);

    // Closed, moved to another milestone, reopened, cleared: each counted where it now is.
    await octokit.rest.issues.update({ ...repo, issue_number: a.number, state: 'closed' });
    expect(await counts(v1.number)).toEqual([2, 1]);
    await octokit.rest.issues.update({ ...repo, issue_number: b.number, milestone: v2.number });
    expect([await counts(v1.number), await counts(v2.number)]).toEqual([
      [1, 1],
      [1, 0],
    ]);
    await octokit.rest.pulls.update({ ...repo, pull_number: pull.number, state: 'closed' });
    expect(await counts(v1.number)).toEqual([0, 2]);
    await octokit.rest.pulls.update({ ...repo, pull_number: pull.number, state: 'open' });
    await octokit.rest.issues.update({ ...repo, issue_number: a.number, state: 'open' });
    expect(await counts(v1.number)).toEqual([2, 0]);
    await octokit.rest.issues.update({ ...repo, issue_number: a.number, milestone: null });
    await octokit.rest.issues.update({ ...repo, issue_number: c.number, milestone: v1.number, state: 'closed' });
    expect(await counts(v1.number)).toEqual([1, 1]);

    // Listed, and answered by an update of the milestone, counted alike; another repository's apart.
    const listed = (await octokit.rest.issues.listMilestones({ ...repo, state: 'all' })).data;
    expect(listed.map((one) => [one.title, one.open_issues, one.closed_issues])).toEqual([
      ['v1', 1, 1],
      ['v2', 1, 0],
    ]);
    const closed = await octokit.rest.issues.updateMilestone({ ...repo, milestone_number: v2.number, state: 'closed' });
    expect([closed.data.state, closed.data.open_issues, closed.data.closed_issues]).toEqual(['closed', 1, 0]);
    const other = { owner: 'octocat', repo: 'other' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: other.repo });
    const elsewhere = (await octokit.rest.issues.createMilestone({ ...other, title: 'v1' })).data;
    expect(elsewhere.number).toBe(v1.number);
    await octokit.rest.issues.create({ ...other, title: 'D', milestone: elsewhere.number });
    expect(await counts(v1.number)).toEqual([1, 1]);
    const theirs = await octokit.rest.issues.getMilestone({ ...other, milestone_number: elsewhere.number });
    expect([theirs.data.open_issues, theirs.data.closed_issues]).toEqual([1, 0]);
  });

  it("are a renamed repository's own, made under any of its names, and none of a repository made again under its old name", async () => {
    const { root } = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const old = { owner: 'octocat', repo: 'app' };
    const moved = { owner: 'octocat', repo: 'app-renamed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: old.repo });
    const before = (await octokit.rest.issues.createMilestone({ ...old, title: 'before' })).data;
    await octokit.rest.repos.update({ ...old, name: moved.repo });
    const after = (await octokit.rest.issues.createMilestone({ ...moved, title: 'after' })).data;
    // A repository made again under the old name: its milestones its own, numbered from 1.
    await octokit.rest.repos.createForAuthenticatedUser({ name: old.repo });
    const again = (await octokit.rest.issues.createMilestone({ ...old, title: 'again' })).data;
    const third = (await octokit.rest.issues.createMilestone({ ...old, title: 'third' })).data;
    expect([before.number, after.number, again.number, third.number]).toEqual([1, 2, 1, 2]);
    await octokit.rest.issues.createMilestone({ ...old, title: 'fourth' });

    const issue = (await octokit.rest.issues.create({ ...moved, title: 'Old one', milestone: before.number })).data;
    expect(issue.milestone?.title).toBe('before');
    const next = await octokit.rest.issues.update({ ...moved, issue_number: issue.number, milestone: after.number });
    expect(next.data.milestone?.title).toBe('after');
    const mine = (await octokit.rest.issues.create({ ...old, title: 'New one', milestone: again.number })).data;
    expect(mine.milestone?.title).toBe('again');
    // The other repository's milestone 3 is not this one's.
    const foreign = await octokit.rest.issues
      .create({ ...moved, title: 'Foreign', milestone: 3 })
      .catch((error: { status: number }) => error.status);
    expect(foreign).toBe(422);
    const counts = async (where: typeof old, milestone_number: number) => {
      const { data } = await octokit.rest.issues.getMilestone({ ...where, milestone_number });
      return [data.title, data.open_issues];
    };
    expect(await counts(moved, before.number)).toEqual(['before', 0]);
    expect(await counts(moved, after.number)).toEqual(['after', 1]);
    expect(await counts(old, again.number)).toEqual(['again', 1]);
  });

  it("filter the repository's issue lists by a milestone's number, `*` or `none`, paged with the Link keeping it", async () => {
    const { octokit, repo, v1, v2 } = await withMilestones(place);
    const a = (await octokit.rest.issues.create({ ...repo, title: 'A', milestone: v1.number })).data;
    const b = (await octokit.rest.issues.create({ ...repo, title: 'B', milestone: v2.number })).data;
    const c = (await octokit.rest.issues.create({ ...repo, title: 'C' })).data;
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'P', head: 'feature', base: 'main' })).data;
    await octokit.rest.issues.update({ ...repo, issue_number: pull.number, milestone: v1.number });
    const listed = async (milestone: string) =>
      (await octokit.rest.issues.listForRepo({ ...repo, milestone })).data.map((one) => one.number);
    expect(await listed(String(v1.number))).toEqual([pull.number, a.number]);
    expect(await listed(String(v2.number))).toEqual([b.number]);
    expect(await listed('*')).toEqual([pull.number, b.number, a.number]);
    expect(await listed('none')).toEqual([c.number]);
    const page = await octokit.rest.issues.listForRepo({ ...repo, milestone: '*', per_page: 1 });
    expect(decodeURIComponent(page.headers.link ?? '')).toContain('milestone=*');
    const paged = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, milestone: '*', per_page: 1 });
    expect(paged.map((one) => one.number)).toEqual([pull.number, b.number, a.number]);

    // A number of no milestone of the repository (or no number) is GitHub's 422.
    for (const milestone of ['99', 'v1']) {
      const refused = await octokit.rest.issues.listForRepo({ ...repo, milestone }).catch((error) => error);
      expect(refused.status).toBe(422);
      expect(refused.response.data.errors).toEqual([
        { resource: 'Issue', field: 'milestone', code: 'invalid', value: milestone },
      ]);
    }
  });

  it('deleted, is taken off the issues and pull requests carrying it', async () => {
    const { octokit, repo, v1, v2 } = await withMilestones(place);
    const a = (await octokit.rest.issues.create({ ...repo, title: 'A', milestone: v1.number })).data;
    const b = (await octokit.rest.issues.create({ ...repo, title: 'B', milestone: v2.number })).data;
    const closed = (await octokit.rest.issues.create({ ...repo, title: 'D', milestone: v1.number })).data;
    await octokit.rest.issues.update({ ...repo, issue_number: closed.number, state: 'closed' });
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'P', head: 'feature', base: 'main' })).data;
    await octokit.rest.issues.update({ ...repo, issue_number: pull.number, milestone: v1.number });

    await octokit.rest.issues.deleteMilestone({ ...repo, milestone_number: v1.number });
    const milestoneOf = async (issue_number: number) =>
      (await octokit.rest.issues.get({ ...repo, issue_number })).data.milestone?.title ?? null;
    expect([await milestoneOf(a.number), await milestoneOf(closed.number), await milestoneOf(b.number)]).toEqual([
      null,
      null,
      'v2',
    ]);
    expect((await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.milestone).toBeNull();
    const none = await octokit.rest.issues.listForRepo({ ...repo, milestone: 'none', state: 'all' });
    expect(none.data.map((one) => one.number)).toEqual([pull.number, closed.number, a.number]);
    const gone = await octokit.rest.issues.getMilestone({ ...repo, milestone_number: v1.number }).catch((e) => e);
    expect(gone.status).toBe(404);
    expect((await octokit.rest.issues.getMilestone({ ...repo, milestone_number: v2.number })).data.open_issues).toBe(1);
  });
});
