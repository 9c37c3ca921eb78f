// The labels an issue is sent by name (docs/twins.md, "A GitHub twin"): GitHub applies the
// repository's label of each name, whole (its id, node id, URL, colour, description), and makes a
// name the repository has no label of one of its labels (`ededed`), which its labels list from
// then on; by `issues.create`, `issues.update` (of a pull request too), `addLabels` and
// `setLabels`, names or `{ name }`. Through @octokit/rest against the built daemon in memory, on
// LevelDB, on a real redis-server and in a namespace. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

describe.each(TWIN_PLACES)('labels sent by name on an issue (%s)', (place) => {
  it("are the repository's labels, a name it lacked made one of them", async () => {
    const { root } = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'app' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const bug = (
      await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'f29513', description: 'Broken' })
    ).data;
    const label = async (name: string) => (await octokit.rest.issues.getLabel({ ...repo, name })).data;
    const names = async () =>
      (await octokit.rest.issues.listLabelsForRepo({ ...repo, per_page: 100 })).data.map((one) => one.name);

    const made = (await octokit.rest.issues.create({ ...repo, title: 'A', labels: ['bug', 'needs triage'] })).data;
    const triage = await label('needs triage');
    expect(made.labels).toEqual([bug, triage]);
    expect(triage).toMatchObject({ name: 'needs triage', color: 'ededed', description: null, default: false });
    expect(triage.id).toBeGreaterThan(bug.id);
    expect(triage.node_id).toMatch(/^LA_/);
    expect(triage.url).toBe('https://api.github.com/repos/octocat/app/labels/needs%20triage');
    expect(await names()).toEqual(['bug', 'needs triage']);
    expect((await octokit.rest.issues.get({ ...repo, issue_number: made.number })).data.labels).toEqual([bug, triage]);

    // An update takes names or `{ name }`; a name of another case is the label of that name.
    const updated = await octokit.rest.issues.update({
      ...repo,
      issue_number: made.number,
      labels: [{ name: 'BUG' }, 'docs'],
    });
    const docs = await label('docs');
    expect(updated.data.labels).toEqual([bug, docs]);
    expect(docs.id).toBeGreaterThan(triage.id);

    // Added and set at `…/labels`, of a pull request too.
    const added = await octokit.rest.issues.addLabels({ ...repo, issue_number: made.number, labels: ['p1'] });
    expect(added.data).toEqual([bug, docs, await label('p1')]);
    const set = await octokit.rest.issues.setLabels({ ...repo, issue_number: made.number, labels: ['needs triage'] });
    expect(set.data).toEqual([triage]);
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'P', head: 'feature', base: 'main' })).data;
    await octokit.rest.issues.update({ ...repo, issue_number: pull.number, labels: ['bug', 'review'] });
    expect((await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.labels).toEqual([
      bug,
      await label('review'),
    ]);
    expect(await names()).toEqual(['bug', 'needs triage', 'docs', 'p1', 'review']);
    // `pulls.update` takes no labels: one sent there is neither applied nor made.
    await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...repo,
      pull_number: pull.number,
      title: 'P2',
      labels: ['ghost'],
    });
    expect((await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.labels).toHaveLength(2);
    expect(await names()).not.toContain('ghost');

    // A create refused makes no label; another repository's labels are its own.
    await expect(octokit.rest.issues.create({ ...repo, title: '', labels: ['never'] })).rejects.toMatchObject({
      status: 422,
    });
    expect(await names()).not.toContain('never');
    const other = { owner: 'octocat', repo: 'other' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: other.repo });
    const theirs = (await octokit.rest.issues.create({ ...other, title: 'B', labels: ['bug'] })).data.labels[0];
    expect(theirs).toMatchObject({
      name: 'bug',
      color: 'ededed',
      url: 'https://api.github.com/repos/octocat/other/labels/bug',
    });
    expect((theirs as { id: number }).id).not.toBe(bug.id);
  });
});
