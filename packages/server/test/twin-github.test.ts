// The GitHub twin (docs/twins.md) through @octokit/rest, the official SDK, against the built
// daemon serving the twin at the root of a port of its own (`--serve`), its state in memory, on
// LevelDB, on a real redis-server and in a namespace (`unseen` at its default): issues and pull requests numbered in one sequence per repository, comments and
// their count, the labels of an issue, GitHub's list filters and order, `Link` pagination keeping
// every filter through `octokit.paginate`, GitHub's errors. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon } from './helpers/daemon.js';
import { GITHUB_NOT_FOUND, madeRepos, QUIET_LOG, rejection } from './helpers/octokit.js';
import {
  exampleKeys,
  hookReceiver,
  sharedTwinAt,
  TWIN_PLACES,
  type TwinDaemon,
  twinDaemon,
  useTwinRedis,
} from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A GitHub twin served at the root of its own port (`made`), and an Octokit for it. */
async function githubTwin(made: Promise<TwinDaemon>): Promise<{ octokit: Octokit; root: string }> {
  const { root } = await made;
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  return { octokit, root };
}

// Every operation of the document, missing and from the examples: twin-github-document.test.ts.
it("asks for a token in GitHub's error shape, and answers a path it does not know with GitHub's 404", async () => {
  const { root } = await githubTwin(twinDaemon('github', 'level', { unseen: 'examples' }));
  for (const authorization of [undefined, 'Basic Z2hwXzE6', 'token']) {
    const refused = await fetch(`${root}/repos/octo/app/issues`, {
      headers: authorization === undefined ? {} : { authorization },
    });
    expect([refused.status, Object.keys(await refused.json()).sort()]).toEqual([401, ['documentation_url', 'message']]);
  }
  const unknown = await fetch(`${root}/repos/octo/app/nothing-here`, { headers: { authorization: 'Bearer ghp_1' } });
  expect([unknown.status, Object.keys(await unknown.json()).sort()]).toEqual([404, ['documentation_url', 'message']]);
});

it('moves nothing by a key sent in a PATCH: an issue keeps its number, a milestone its number, a label its name', async () => {
  const { octokit, root } = await githubTwin(twinDaemon('github', 'memory'));
  await madeRepos(octokit, 'octo/app');
  const repo = { owner: 'octo', repo: 'app' };
  await octokit.rest.issues.create({ ...repo, title: 'One' });
  await octokit.rest.issues.createMilestone({ ...repo, title: 'v1' });
  await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
  const headers = { authorization: 'token ghp_1', 'content-type': 'application/json' };
  const patch = (path: string, body: Record<string, unknown>) =>
    fetch(`${root}/repos/octo/app/${path}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
  // GitHub reads none of these fields of the body (`new_name` renames a label).
  expect((await patch('issues/1', { number: 7, title: 'Still one' })).status).toBe(200);
  expect((await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data).toMatchObject({
    number: 1,
    title: 'Still one',
  });
  expect(await rejection(octokit.rest.issues.get({ ...repo, issue_number: 7 }))).toEqual(GITHUB_NOT_FOUND);
  expect((await patch('milestones/1', { number: 5, description: 'First' })).status).toBe(200);
  expect((await octokit.rest.issues.getMilestone({ ...repo, milestone_number: 1 })).data).toMatchObject({
    number: 1,
    description: 'First',
  });
  expect((await patch('labels/bug', { name: 'other', color: '00ff00' })).status).toBe(200);
  expect((await octokit.rest.issues.getLabel({ ...repo, name: 'bug' })).data).toMatchObject({
    name: 'bug',
    color: '00ff00',
  });
  expect(await rejection(octokit.rest.issues.getLabel({ ...repo, name: 'other' }))).toEqual(GITHUB_NOT_FOUND);
});

it("refuses a string past its schema's maxLength with GitHub's 422 Validation Failed naming the field", async () => {
  const { root } = await githubTwin(twinDaemon('github', 'level'));
  const headers = { authorization: 'token ghp_1', 'content-type': 'application/json' };
  // The organization held first (a repository made in it): below one never made, GitHub's 404.
  const org = await fetch(`${root}/orgs/octo/repos`, { method: 'POST', headers, body: '{"name":"app"}' });
  expect(org.status).toBe(201);
  // A campaign's `name` is at most 50 characters in GitHub's description.
  const refused = await fetch(`${root}/orgs/octo/campaigns`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'n'.repeat(51), description: 'd' }),
  });
  expect(refused.status).toBe(422);
  expect(await refused.json()).toEqual({
    message: 'Validation Failed',
    errors: [
      { resource: 'Campaign', code: 'custom', field: 'name', message: 'name is too long (maximum is 50 characters)' },
    ],
    documentation_url: 'https://docs.github.com/rest',
  });
  const taken = await fetch(`${root}/orgs/octo/campaigns`, {
    method: 'POST',
    headers,
    // With the fields GitHub's description requires beside it (`ends_at`; alerts, one of the two kinds).
    body: JSON.stringify({
      name: 'n'.repeat(50),
      description: 'd',
      ends_at: '2030-01-01T00:00:00Z',
      code_scanning_alerts: [{ repository_id: 1, alert_numbers: [1] }],
    }),
  });
  expect(taken.status).toBeLessThan(300);
});

it("reads a JSON body sent with curl's form type, as GitHub does (its docs' `curl -d '{…}'`)", async () => {
  const { root } = await githubTwin(twinDaemon('github', 'memory'));
  const made = await fetch(`${root}/user/repos`, {
    method: 'POST',
    headers: { authorization: 'token ghp_1', 'content-type': 'application/x-www-form-urlencoded' },
    body: '{"name":"from-curl","private":true}',
  });
  expect(made.status).toBe(201);
  expect(await made.json()).toMatchObject({ name: 'from-curl', full_name: 'octocat/from-curl', private: true });
});

it('--twin github=0 makes the twin at start and serves it at a port of its own', async () => {
  const daemon = await startDaemon({ args: ['--memory', '--twin', 'github=0'] });
  const note = daemon.notes.find((line) => line.startsWith('github served at '));
  expect(note, daemon.startLine).toBeDefined();
  const octokit = new Octokit({ auth: 'ghp_1', baseUrl: (note as string).slice('github served at '.length) });
  await madeRepos(octokit, 'octo/app');
  const issue = await octokit.rest.issues.create({ owner: 'octo', repo: 'app', title: 'At start' });
  expect(issue.data).toMatchObject({ number: 1, title: 'At start' });
  expect((await requestJson(`${daemon.url}/api/endpoints/github/twin`)).body).toMatchObject({ provider: 'github' });
  // An issue it never made is GitHub's 404; a repository's issues are only those made (docs/design.md#twins-as-the-provider-answers).
  const missing = await octokit.rest.issues.get({ owner: 'octo', repo: 'app', issue_number: 9999 }).catch((e) => e);
  // Octokit's RequestError (by its name: @octokit/request-error is no direct dependency here).
  expect(missing.name).toBe('HttpError');
  expect([missing.status, missing.response.data]).toEqual([
    404,
    { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
  ]);
  // Below a repository never made, GitHub's 404 too: nothing is listed, nothing written is kept.
  const elsewhere = { owner: 'octo', repo: 'other' };
  expect(await rejection(octokit.rest.issues.listForRepo(elsewhere))).toEqual(GITHUB_NOT_FOUND);
  expect(await rejection(octokit.rest.issues.create({ ...elsewhere, title: 'Lost' }))).toEqual(GITHUB_NOT_FOUND);
  expect(await rejection(octokit.rest.repos.get(elsewhere))).toEqual(GITHUB_NOT_FOUND);
});

describe.each(TWIN_PLACES)('the GitHub twin through @octokit/rest (%s)', (place) => {
  // One daemon for the place's eight tests, each with a twin at a name (in a namespace) of its own.
  const twins = sharedTwinAt('github', place, twinRedis, 8);

  it('numbers issues per repository, keeps them exact, updates, closes and reopens them', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app', 'octo/other');
    const repo = { owner: 'octo', repo: 'app' };
    const first = await octokit.rest.issues.create({ ...repo, title: 'Crash on start', body: 'It crashes.' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ number: 1, title: 'Crash on start', body: 'It crashes.', state: 'open' });
    // Made by the token's user (the twin keeps none: every token is `octocat`), at GitHub's URLs.
    expect(first.data).toMatchObject({
      user: { login: 'octocat', id: 1, type: 'User' },
      html_url: 'https://github.com/octo/app/issues/1',
      url: 'https://api.github.com/repos/octo/app/issues/1',
      repository_url: 'https://api.github.com/repos/octo/app',
      comments: 0,
      closed_at: null,
      state_reason: null,
    });
    const second = await octokit.rest.issues.create({ ...repo, title: 'Typo' });
    const elsewhere = await octokit.rest.issues.create({ owner: 'octo', repo: 'other', title: 'Elsewhere' });
    expect([second.data.number, elsewhere.data.number]).toEqual([2, 1]);
    expect(second.data.id).not.toBe(elsewhere.data.id);

    const read = await octokit.rest.issues.get({ ...repo, issue_number: 1 });
    expect(read.data).toEqual(first.data);
    expect((await octokit.rest.issues.get({ owner: 'octo', repo: 'other', issue_number: 1 })).data.title).toBe(
      'Elsewhere',
    );
    const closed = await octokit.rest.issues.update({ ...repo, issue_number: 1, state: 'closed' });
    expect(closed.data).toMatchObject({ number: 1, state: 'closed', title: 'Crash on start' });
    expect(closed.data).toMatchObject({ state_reason: 'completed', closed_by: { login: 'octocat' } });
    const closedAt = Date.parse(String(closed.data.closed_at));
    expect(closedAt).toBeGreaterThanOrEqual(Date.parse(first.data.created_at));
    expect((await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data.closed_at).toBe(closed.data.closed_at);
    // GitHub lists the open ones, newest first, unless told otherwise.
    expect((await octokit.rest.issues.listForRepo({ ...repo })).data.map((issue) => issue.number)).toEqual([2]);
    const listed = await octokit.rest.issues.listForRepo({ ...repo, state: 'all' });
    expect(listed.data.map((issue) => issue.number)).toEqual([2, 1]);
    const reopened = await octokit.rest.issues.update({ ...repo, issue_number: 1, state: 'open' });
    expect(reopened.data).toMatchObject({ state: 'open', closed_at: null, closed_by: null, state_reason: 'reopened' });
    const notPlanned = await octokit.rest.issues.update({
      ...repo,
      issue_number: 2,
      state: 'closed',
      state_reason: 'not_planned',
    });
    expect(notPlanned.data).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    expect(notPlanned.data.closed_at).not.toBeNull();

    // No title: GitHub's 422, and nothing made.
    const untitled = await octokit.request('POST /repos/{owner}/{repo}/issues', repo as never).catch((e) => e);
    expect([untitled.status, untitled.response.data]).toEqual([
      422,
      {
        message: 'Validation Failed',
        documentation_url: 'https://docs.github.com/rest',
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      },
    ]);
    expect((await octokit.rest.issues.listForRepo({ ...repo, state: 'all' })).data.length).toBe(2);
  });

  it('filters, orders and pages issues as GitHub does, with a Link header keeping every filter that octokit.paginate follows', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/many');
    const repo = { owner: 'octo', repo: 'many' };
    // 36 issues: every third closed (12), every fourth labeled bug and ui, every other one bug.
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const labelsOf = (n: number) => (n % 4 === 0 ? ['bug', 'ui'] : n % 2 === 0 ? ['bug'] : []);
    for (const n of range(1, 36))
      await octokit.rest.issues.create({ ...repo, title: `Issue ${n}`, labels: labelsOf(n) });
    for (const n of range(1, 36).filter((n) => n % 3 === 0)) {
      await octokit.rest.issues.update({ ...repo, issue_number: n, state: 'closed' });
    }
    const newest = (numbers: number[]) => [...numbers].reverse();
    const numbers = async (query: Record<string, unknown>) =>
      (await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, per_page: 10, ...query })).map(
        (issue) => issue.number,
      );
    expect(await numbers({ state: 'all' })).toEqual(newest(range(1, 36)));
    expect(await numbers({})).toEqual(newest(range(1, 36).filter((n) => n % 3 !== 0)));
    expect(await numbers({ state: 'open' })).toHaveLength(24);
    expect(await numbers({ state: 'closed' })).toEqual(newest(range(1, 36).filter((n) => n % 3 === 0)));
    expect(await numbers({ state: 'all', direction: 'asc' })).toEqual(range(1, 36));
    expect(await numbers({ state: 'all', labels: 'bug,ui' })).toEqual(newest(range(1, 36).filter((n) => n % 4 === 0)));
    expect(await numbers({ labels: 'bug', direction: 'asc' })).toEqual(
      range(1, 36).filter((n) => n % 2 === 0 && n % 3 !== 0),
    );
    // Updated since the last close: only those the closes touched after it.
    const closedLast = (await octokit.rest.issues.get({ ...repo, issue_number: 36 })).data.updated_at;
    expect(await numbers({ state: 'closed', since: closedLast })).toContain(36);
    expect(await numbers({ state: 'all', sort: 'updated', direction: 'desc' })).toHaveLength(36);

    // Each Link keeps the request's filters, only the page changed.
    const page = await octokit.rest.issues.listForRepo({ ...repo, state: 'closed', per_page: 5, page: 2 });
    expect(page.data.map((issue) => issue.number)).toEqual([21, 18, 15, 12, 9]);
    expect(page.headers.link).toContain('state=closed&per_page=5&page=3>; rel="next"');
    expect(page.headers.link).toContain('state=closed&per_page=5&page=1>; rel="first"');

    // A value GitHub does not take is its 422.
    const bad = await octokit.rest.issues.listForRepo({ ...repo, state: 'any' as never }).catch((e) => e);
    expect([bad.status, bad.response.data.message]).toEqual([422, expect.stringContaining('Validation Failed')]);
  });

  it('keeps labels by name, refuses a second of one name with 422, and answers 404 for one deleted', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app');
    const repo = { owner: 'octo', repo: 'app' };
    // A label the twin never saw is GitHub's 404.
    const never = await octokit.rest.issues.getLabel({ ...repo, name: 'wontfix' }).catch((e) => e);
    expect([never.status, never.response.data.message]).toEqual([404, 'Not Found']);
    const bug = await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
    expect(bug.data).toMatchObject({ name: 'bug', color: 'd73a4a' });
    expect((await octokit.rest.issues.getLabel({ ...repo, name: 'bug' })).data).toEqual(bug.data);
    const again = await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: '000000' }).catch((e) => e);
    expect(again.status).toBe(422);
    expect(again.response.data).toMatchObject({
      message: expect.stringContaining('Validation Failed'),
      documentation_url: expect.any(String),
      errors: [{ code: 'already_exists', field: 'name' }],
    });
    await octokit.rest.issues.createLabel({ ...repo, name: 'docs', color: '0075ca' });
    const labels = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, repo);
    expect(labels.map((label) => label.name)).toEqual(['bug', 'docs']);
    await octokit.rest.issues.deleteLabel({ ...repo, name: 'bug' });
    const gone = await octokit.rest.issues.getLabel({ ...repo, name: 'bug' }).catch((e) => e);
    expect([gone.status, Object.keys(gone.response.data).sort()]).toEqual([404, ['documentation_url', 'message']]);
    // Made again under the name freed: read, changed and deleted as the new label, not the deleted one's 404.
    const remade = (await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: '00ff00' })).data;
    expect(remade.id).not.toBe(bug.data.id);
    expect((await octokit.rest.issues.getLabel({ ...repo, name: 'bug' })).data).toEqual(remade);
    const recolored = await octokit.rest.issues.updateLabel({ ...repo, name: 'bug', color: '0000ff' });
    expect(recolored.data).toMatchObject({ id: remade.id, color: '0000ff' });
    expect((await octokit.rest.issues.deleteLabel({ ...repo, name: 'bug' })).status).toBe(204);
    expect(await rejection(octokit.rest.issues.getLabel({ ...repo, name: 'bug' }))).toEqual(GITHUB_NOT_FOUND);
  });

  it("renames a label by new_name, its URL with it, the old name GitHub's 404; made as GitHub makes one", async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app');
    const repo = { owner: 'octo', repo: 'app' };
    const made = (await octokit.rest.issues.createLabel({ ...repo, name: 'needs triage', color: 'ff0000' })).data;
    expect(made).toMatchObject({
      name: 'needs triage',
      url: 'https://api.github.com/repos/octo/app/labels/needs%20triage',
      description: null,
      default: false,
    });
    await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a', description: 'Broken' });
    // Carried by an issue and a pull request: renamed on them too, as GitHub's labels are one.
    await octokit.rest.issues.create({ ...repo, title: 'Crash', labels: ['needs triage', 'bug'] });
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Fix', head: 'fix', base: 'main' })).data;
    await octokit.rest.issues.addLabels({ ...repo, issue_number: pull.number, labels: ['needs triage'] });
    const carried = async () => [
      (await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data.labels.map((one) =>
        typeof one === 'string' ? one : one.name,
      ),
      (await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.labels.map((one) => one.name),
    ];
    expect(await carried()).toEqual([['needs triage', 'bug'], ['needs triage']]);
    const renamed = (
      await octokit.rest.issues.updateLabel({ ...repo, name: 'needs triage', new_name: 'triaged', color: '00ff00' })
    ).data;
    expect(renamed).toMatchObject({
      id: made.id,
      name: 'triaged',
      color: '00ff00',
      url: 'https://api.github.com/repos/octo/app/labels/triaged',
    });
    expect((await octokit.rest.issues.getLabel({ ...repo, name: 'triaged' })).data).toEqual(renamed);
    expect(await rejection(octokit.rest.issues.getLabel({ ...repo, name: 'needs triage' }))).toEqual(GITHUB_NOT_FOUND);
    expect(await carried()).toEqual([['triaged', 'bug'], ['triaged']]);
    const filtered = await octokit.rest.issues.listForRepo({ ...repo, labels: 'triaged', state: 'all' });
    expect(filtered.data.map((one) => one.number)).toEqual([pull.number, 1]);
    // Onto a name another label has: GitHub's 422 already_exists, nothing moved.
    const taken = await rejection(octokit.rest.issues.updateLabel({ ...repo, name: 'triaged', new_name: 'bug' }));
    expect(taken).toMatchObject([422, { errors: [{ code: 'already_exists', field: 'name' }] }]);
    expect(await carried()).toEqual([['triaged', 'bug'], ['triaged']]);
    const names = (await octokit.paginate(octokit.rest.issues.listLabelsForRepo, repo)).map((label) => label.name);
    expect(names).toEqual(['triaged', 'bug']);
    // A new label of the old name is another label.
    const again = (await octokit.rest.issues.createLabel({ ...repo, name: 'needs triage' })).data;
    expect(again.id).not.toBe(made.id);
  });

  it('numbers milestones per repository and lists them by state, due first', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app', 'octo/other');
    const repo = { owner: 'octo', repo: 'app' };
    const later = (await octokit.rest.issues.createMilestone({ ...repo, title: 'v2', due_on: '2031-01-01T00:00:00Z' }))
      .data;
    const sooner = (await octokit.rest.issues.createMilestone({ ...repo, title: 'v1', due_on: '2030-01-01T00:00:00Z' }))
      .data;
    expect([later.number, sooner.number, later.state, later.description, later.open_issues]).toEqual([
      1,
      2,
      'open',
      null,
      0,
    ]);
    expect(later.url).toBe('https://api.github.com/repos/octo/app/milestones/1');
    const closed = (
      await octokit.rest.issues.updateMilestone({ ...repo, milestone_number: sooner.number, state: 'closed' })
    ).data;
    expect([closed.state, typeof closed.closed_at]).toEqual(['closed', 'string']);
    const titles = async (query: { state?: 'open' | 'closed' | 'all'; direction?: 'asc' | 'desc' }) =>
      (await octokit.paginate(octokit.rest.issues.listMilestones, { ...repo, ...query, per_page: 1 })).map(
        (milestone) => milestone.title,
      );
    expect(await titles({})).toEqual(['v2']);
    expect(await titles({ state: 'closed' })).toEqual(['v1']);
    expect(await titles({ state: 'all' })).toEqual(['v1', 'v2']);
    expect(await titles({ state: 'all', direction: 'desc' })).toEqual(['v2', 'v1']);
    // An issue's milestone: sent as its number, answered as the milestone; one the repository lacks is 422.
    const issue = (await octokit.rest.issues.create({ ...repo, title: 'Ship it', milestone: later.number })).data;
    expect(issue.milestone).toMatchObject({ number: later.number, title: 'v2', url: later.url });
    const moved = await octokit.rest.issues.update({ ...repo, issue_number: issue.number, milestone: sooner.number });
    expect(moved.data.milestone).toMatchObject({ number: sooner.number, title: 'v1' });
    expect((await octokit.rest.issues.get({ ...repo, issue_number: issue.number })).data.milestone?.title).toBe('v1');
    const other = (await octokit.rest.issues.createMilestone({ owner: 'octo', repo: 'other', title: 'elsewhere' }))
      .data;
    const foreign = octokit.rest.issues.update({ ...repo, issue_number: issue.number, milestone: other.number + 40 });
    expect(await rejection(foreign)).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', code: 'invalid', field: 'milestone', value: other.number + 40 }],
      }),
    ]);
    const cleared = await octokit.rest.issues.update({ ...repo, issue_number: issue.number, milestone: null });
    expect(cleared.data.milestone).toBeNull();
    await octokit.rest.issues.deleteMilestone({ ...repo, milestone_number: later.number });
    expect(await rejection(octokit.rest.issues.getMilestone({ ...repo, milestone_number: later.number }))).toEqual(
      GITHUB_NOT_FOUND,
    );
  });

  it('opens and closes pull requests, numbered with the issues of their repository and listed among them', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app', 'octo/other');
    const repo = { owner: 'octo', repo: 'app' };
    await octokit.rest.issues.create({ ...repo, title: 'One' });
    await octokit.rest.issues.create({ ...repo, title: 'Two' });
    const pull = await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
    expect(pull.data).toMatchObject({ number: 3, title: 'Fix crash', state: 'open', closed_at: null });
    expect(pull.data).toMatchObject({
      html_url: 'https://github.com/octo/app/pull/3',
      user: { login: 'octocat' },
    });
    const after = await octokit.rest.issues.create({ ...repo, title: 'After' });
    expect(after.data.number).toBe(4);
    // Another repository counts on its own.
    const elsewhere = await octokit.rest.pulls.create({
      owner: 'octo',
      repo: 'other',
      title: 'X',
      head: 'x',
      base: 'main',
    });
    expect(elsewhere.data.number).toBe(1);
    // A pull request is an issue: listed among them with its `pull_request` key.
    const issues = (await octokit.rest.issues.listForRepo(repo)).data;
    expect(issues.map((issue) => [issue.number, issue.pull_request === undefined])).toEqual([
      [4, true],
      [3, false],
      [2, true],
      [1, true],
    ]);
    expect(issues[1]).toMatchObject({
      title: 'Fix crash',
      html_url: 'https://github.com/octo/app/pull/3',
      pull_request: { html_url: 'https://github.com/octo/app/pull/3' },
    });
    // And read as one by its number (it was 404); a number neither holds is still 404, also for an
    // action on it (it answered the document's example).
    expect((await octokit.rest.issues.get({ ...repo, issue_number: 3 })).data).toMatchObject({
      number: 3,
      title: 'Fix crash',
      pull_request: { html_url: 'https://github.com/octo/app/pull/3' },
    });
    expect(await octokit.rest.issues.get({ ...repo, issue_number: 9 }).catch((e: unknown) => e)).toMatchObject({
      status: 404,
    });
    expect(await octokit.rest.issues.lock({ ...repo, issue_number: 9 }).catch((e: unknown) => e)).toMatchObject({
      status: 404,
    });
    const comment = octokit.rest.issues.createComment({ ...repo, issue_number: 9, body: 'Hi' });
    expect(await comment.catch((e: unknown) => e)).toMatchObject({ status: 404 });
    const closed = await octokit.rest.pulls.update({ ...repo, pull_number: 3, state: 'closed' });
    expect(closed.data).toMatchObject({ number: 3, state: 'closed' });
    expect(closed.data.closed_at).not.toBeNull();
    expect((await octokit.rest.pulls.list(repo)).data).toEqual([]);
    expect((await octokit.rest.pulls.list({ ...repo, state: 'all' })).data.map((p) => p.title)).toEqual(['Fix crash']);
    expect((await octokit.rest.issues.listForRepo({ ...repo, state: 'closed' })).data.map((i) => i.number)).toEqual([
      3,
    ]);
  });

  it('keeps comments per issue, and labels added to an issue on it', async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app');
    const repo = { owner: 'octo', repo: 'app' };
    await octokit.rest.issues.create({ ...repo, title: 'One' });
    await octokit.rest.issues.create({ ...repo, title: 'Two' });
    const comment = await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Me too' });
    expect(comment.status).toBe(201);
    expect(comment.data).toMatchObject({ body: 'Me too' });
    await octokit.rest.issues.createComment({ ...repo, issue_number: 2, body: 'Other issue' });
    const listed = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: 1 });
    expect(listed.map((c) => c.body)).toEqual(['Me too']);
    const edited = await octokit.rest.issues.updateComment({ ...repo, comment_id: comment.data.id, body: 'Edited' });
    expect(edited.data.body).toBe('Edited');
    expect((await octokit.rest.issues.getComment({ ...repo, comment_id: comment.data.id })).data.body).toBe('Edited');

    // An issue's `comments` counts its comments, as made and deleted.
    await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'And me' });
    const commented = async (n: number) => (await octokit.rest.issues.get({ ...repo, issue_number: n })).data.comments;
    expect([await commented(1), await commented(2)]).toEqual([2, 1]);
    // The repository's comments, of every issue: by creation, ascending unless a `sort` says `desc`.
    const bodies = (list: { body?: string }[]) => list.map((one) => one.body);
    const ofRepo = (
      query: Omit<Parameters<typeof octokit.rest.issues.listCommentsForRepo>[0], 'owner' | 'repo'> = {},
    ) => octokit.paginate(octokit.rest.issues.listCommentsForRepo, { ...repo, ...query });
    expect(bodies(await ofRepo())).toEqual(['Edited', 'Other issue', 'And me']);
    const firstPage = await octokit.rest.issues.listCommentsForRepo({ ...repo, per_page: 2 });
    expect([bodies(firstPage.data), firstPage.headers.link]).toEqual([
      ['Edited', 'Other issue'],
      expect.stringContaining('rel="next"'),
    ]);
    expect(bodies(await ofRepo({ per_page: 1 }))).toEqual(['Edited', 'Other issue', 'And me']);
    expect(bodies(await ofRepo({ sort: 'created', direction: 'desc' }))).toEqual(['And me', 'Other issue', 'Edited']);
    expect(bodies(await ofRepo({ direction: 'desc' }))).toEqual(['Edited', 'Other issue', 'And me']);
    const other = (await ofRepo()).find((one) => one.body === 'Other issue');
    await octokit.rest.issues.updateComment({ ...repo, comment_id: Number(other?.id), body: 'Other, edited' });
    const byUpdate = await ofRepo({ sort: 'updated', direction: 'desc' });
    const stamp = (one: { updated_at: string; id: number }): [number, number] => [Date.parse(one.updated_at), one.id];
    // Newest change first; two in one millisecond, the later made first.
    expect(byUpdate.map(stamp)).toEqual(byUpdate.map(stamp).sort(([a, x], [b, y]) => b - a || y - x));
    expect(bodies(await ofRepo({ since: '2999-01-01T00:00:00Z' }))).toEqual([]);
    const since = byUpdate.find((one) => one.body === 'Other, edited')?.updated_at;
    expect(bodies(await ofRepo({ since }))).toContain('Other, edited');
    expect(
      await rejection(octokit.rest.issues.listCommentsForRepo({ ...repo, sort: 'top' as 'created' })),
    ).toMatchObject([422, { errors: [{ field: 'sort', code: 'invalid' }] }]);
    await octokit.rest.issues.deleteComment({ ...repo, comment_id: comment.data.id });
    expect(await commented(1)).toBe(1);
    expect(bodies(await ofRepo())).toEqual(['Other, edited', 'And me']);
    const bySort = await octokit.rest.issues.listForRepo({ ...repo, sort: 'comments', direction: 'asc' });
    expect(bySort.data.map((issue) => [issue.number, issue.comments])).toEqual([
      [1, 1],
      [2, 1],
    ]);

    const added = await octokit.rest.issues.addLabels({ ...repo, issue_number: 2, labels: ['bug', 'urgent'] });
    expect(added.data.map((label) => label.name)).toEqual(['bug', 'urgent']);
    const names = (labels: ({ name?: string } | string)[]) =>
      labels.map((label) => (typeof label === 'string' ? label : label.name));
    const onIssue = async () => names((await octokit.rest.issues.listLabelsOnIssue({ ...repo, issue_number: 2 })).data);
    const issue = await octokit.rest.issues.get({ ...repo, issue_number: 2 });
    expect(names(issue.data.labels)).toEqual(['bug', 'urgent']);
    expect(await onIssue()).toEqual(['bug', 'urgent']);
    const set = await octokit.rest.issues.setLabels({ ...repo, issue_number: 2, labels: ['urgent', 'docs'] });
    expect(names(set.data)).toEqual(['urgent', 'docs']);
    expect(await onIssue()).toEqual(['urgent', 'docs']);
    const removed = await octokit.rest.issues.removeLabel({ ...repo, issue_number: 2, name: 'urgent' });
    expect(names(removed.data)).toEqual(['docs']);
    expect(await onIssue()).toEqual(['docs']);
    const absent = await octokit.rest.issues.removeLabel({ ...repo, issue_number: 2, name: 'urgent' }).catch((e) => e);
    expect([absent.status, absent.response.data.message]).toEqual([404, 'Label does not exist']);
    // GitHub's `204 No Content` for removing them all.
    const cleared = await octokit.rest.issues.removeAllLabels({ ...repo, issue_number: 2 });
    expect([cleared.status, cleared.data]).toEqual([204, '']);
    expect(await onIssue()).toEqual([]);
    expect((await octokit.rest.issues.get({ ...repo, issue_number: 2 })).data.labels).toEqual([]);
  });

  it("sends each change to the repository's hooks as GitHub's event, verified by @octokit/webhooks", async () => {
    const { octokit } = await githubTwin(twins());
    await madeRepos(octokit, 'octo/app', 'octo/elsewhere');
    const hooks = await hookReceiver();
    const other = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      const secret = 'It is a secret to everybody';
      const config = { url: hooks.url, secret, content_type: 'json' as const };
      const hook = await octokit.rest.repos.createWebhook({ ...repo, config, events: ['*'] });
      expect(hook.status).toBe(201);
      // A hook of another repository hears nothing of this one.
      const elsewhere = await octokit.rest.repos.createWebhook({
        owner: 'octo',
        repo: 'elsewhere',
        config: { url: other.url, secret },
        events: ['*'],
      });
      await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
      await octokit.rest.issues.create({ ...repo, title: 'Crash' });
      await octokit.rest.issues.update({ ...repo, issue_number: 1, title: 'Crash on start' });
      await octokit.rest.issues.addLabels({ ...repo, issue_number: 1, labels: ['bug'] });
      await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Fixed in #2' });
      await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
      // Numbered after the issue: one sequence per repository.
      await octokit.rest.pulls.update({ ...repo, pull_number: 2, state: 'closed' });
      await octokit.rest.issues.update({ ...repo, issue_number: 1, state: 'closed' });
      const wanted = [
        'ping',
        'label.created',
        'issues.opened',
        'issues.edited',
        'issues.labeled',
        'issue_comment.created',
        'pull_request.opened',
        'pull_request.closed',
        'issues.closed',
      ];
      await hooks.until(wanted.length);
      await other.until(1);
      expect(JSON.parse(other.received[0]?.body ?? '{}')).toMatchObject({ hook_id: elsewhere.data.id });
      const webhooks = new Webhooks({ secret });
      const seen: string[] = [];
      for (const { body, headers } of hooks.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        expect(headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        const payload = JSON.parse(body) as Record<string, unknown>;
        const event = String(headers['x-github-event']);
        const action = payload.action as string | undefined;
        seen.push(action === undefined ? event : `${event}.${action}`);
        expect(Object.keys(payload).sort()).toEqual(expect.arrayContaining(exampleKeys(event, action)));
        expect(payload.repository).toMatchObject({ full_name: 'octo/app' });
      }
      expect(seen.sort()).toEqual([...wanted].sort());
      // Its own ping only.
      expect(other.received.map(({ headers }) => headers['x-github-event'])).toEqual(['ping']);
    } finally {
      await hooks.close();
      await other.close();
    }
  });
});
