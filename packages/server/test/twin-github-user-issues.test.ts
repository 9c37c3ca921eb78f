// The authenticated user's issues across repositories (docs/twins.md, "A GitHub twin"): `GET
// /issues`, `/user/issues` and `/orgs/{org}/issues` list the issues and pull requests of the
// repositories the twin keeps, each with its `repository`, by GitHub's `filter`, `state`, `labels`,
// `sort`, `direction`, paged with a `Link` keeping every parameter. Through @octokit/rest against
// the built daemon in memory, on LevelDB, on a real redis-server and in a namespace. Every process
// listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

type Listed = { title: string; pull_request?: unknown; repository?: { full_name: string } };
const titles = (items: Listed[]) => items.map((item) => item.title);

describe.each(TWIN_PLACES)("the authenticated user's issues (%s)", (place) => {
  it('lists the issues and pull requests of every repository kept, by filter, state, labels and order, paged', async () => {
    const { root } = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const alpha = { owner: 'octocat', repo: 'alpha' };
    const tools = { owner: 'acme', repo: 'tools' };
    const app = { owner: 'octo', repo: 'app' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: alpha.repo });
    await octokit.rest.repos.createInOrg({ org: tools.owner, name: tools.repo });
    await octokit.rest.repos.createInOrg({ org: app.owner, name: app.repo });
    // Made in the order listed, so that two made in one millisecond keep that order too.
    await octokit.rest.issues.create({ ...alpha, title: 'A1', labels: ['bug'], assignees: ['octocat'] });
    await octokit.rest.issues.create({ ...alpha, title: 'A2' });
    const pull = (await octokit.rest.pulls.create({ ...alpha, title: 'A3', head: 'a3', base: 'main' })).data;
    await octokit.rest.issues.addAssignees({ ...alpha, issue_number: pull.number, assignees: ['octocat'] });
    const t1 = (await octokit.rest.issues.create({ ...tools, title: 'T1', labels: ['bug'], assignees: ['octocat'] }))
      .data;
    await octokit.rest.issues.update({ ...tools, issue_number: t1.number, state: 'closed' });
    await octokit.rest.issues.create({ ...tools, title: 'T2', assignees: ['octocat'] });
    // A third repository, of another organization: the user writes to it too.
    await octokit.rest.issues.create({ ...app, title: 'O1', assignees: ['octocat'] });

    // By default: assigned to the user, open, newest first; each with its repository.
    const assigned = (await octokit.rest.issues.list()).data as Listed[];
    expect(titles(assigned)).toEqual(['O1', 'T2', 'A3', 'A1']);
    expect(assigned.map((item) => item.repository?.full_name)).toEqual([
      'octo/app',
      'acme/tools',
      'octocat/alpha',
      'octocat/alpha',
    ]);
    expect(assigned.map((item) => item.pull_request !== undefined)).toEqual([false, false, true, false]);
    expect(titles((await octokit.rest.issues.listForAuthenticatedUser()).data as Listed[])).toEqual(titles(assigned));

    const all = { filter: 'all', state: 'all' } as const;
    expect(titles((await octokit.rest.issues.list({ ...all, direction: 'asc' })).data as Listed[])).toEqual([
      'A1',
      'A2',
      'A3',
      'T1',
      'T2',
      'O1',
    ]);
    // Every one the twin holds is the user's; mentions it reads none of.
    expect(titles((await octokit.rest.issues.list({ filter: 'created' })).data as Listed[])).toEqual([
      'O1',
      'T2',
      'A3',
      'A2',
      'A1',
    ]);
    expect((await octokit.rest.issues.list({ filter: 'mentioned', state: 'all' })).data).toEqual([]);
    expect(titles((await octokit.rest.issues.list({ ...all, labels: 'bug' })).data as Listed[])).toEqual(['T1', 'A1']);
    expect(titles((await octokit.rest.issues.list({ filter: 'all', state: 'closed' })).data as Listed[])).toEqual([
      'T1',
    ]);
    await octokit.rest.issues.createComment({ ...alpha, issue_number: 2, body: 'Seen' });
    const commented = (await octokit.rest.issues.list({ ...all, sort: 'comments' })).data as Listed[];
    expect(titles(commented)[0]).toBe('A2');

    // An organization's alone; GitHub's 404 for one the twin holds none of.
    expect(titles((await octokit.rest.issues.listForOrg({ org: 'acme', ...all })).data as Listed[])).toEqual([
      'T2',
      'T1',
    ]);
    expect(titles((await octokit.rest.issues.listForOrg({ org: 'acme' })).data as Listed[])).toEqual(['T2']);
    expect((await octokit.rest.issues.listForOrg({ org: 'acme', ...all, type: 'Bug' })).data).toEqual([]);
    expect(await rejection(octokit.rest.issues.listForOrg({ org: 'nobody' }))).toEqual(GITHUB_NOT_FOUND);

    // Paged, the Link keeping every parameter.
    const page = await octokit.rest.issues.list({ ...all, labels: 'bug', per_page: 1 });
    expect(titles(page.data as Listed[])).toEqual(['T1']);
    expect(page.headers.link).toContain('filter=all&state=all&labels=bug&per_page=1&page=2>; rel="next"');
    const paged = await octokit.paginate(octokit.rest.issues.list, { ...all, per_page: 2 });
    expect(titles(paged as Listed[])).toEqual(['O1', 'T2', 'T1', 'A3', 'A2', 'A1']);

    // A filter GitHub does not take: 422, as a repository's list refuses a state it does not take.
    const bad = await rejection(octokit.rest.issues.list({ filter: 'everything' as 'all' }));
    expect(bad).toMatchObject([
      422,
      {
        message: "Validation Failed: filter 'everything' is not one GitHub takes.",
        errors: [{ resource: 'Issue', field: 'filter', code: 'invalid', value: 'everything' }],
      },
    ]);
  });
});
