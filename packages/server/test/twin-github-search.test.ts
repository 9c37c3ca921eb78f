// GitHub's search over what the twin holds (docs/twins.md, "A GitHub twin"): `search.issuesAndPullRequests`
// and `search.repos` through @octokit/rest against the built daemon in memory, on LevelDB, on a real
// redis-server and in a namespace, `unseen` at its default, with GitHub's query
// syntax, its envelope and `octokit.paginate` over the `Link` it answers. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

describe.each(TWIN_PLACES)("the GitHub twin's search (%s)", (place) => {
  it('finds the issues, pull requests and repositories it holds, as GitHub searches them', async () => {
    const { root } = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({
      auth: 'ghp_test',
      baseUrl: root,
      log: QUIET_LOG,
    });
    const app = { owner: 'octo', repo: 'app' };
    await octokit.rest.repos.createInOrg({ org: 'octo', name: 'app', description: 'The app' });
    await octokit.rest.repos.createInOrg({ org: 'octo', name: 'docs', description: 'Its manual' });
    await octokit.rest.issues.create({ ...app, title: 'Crash on start', body: 'It crashes', labels: ['bug'] });
    await octokit.rest.issues.create({ ...app, title: 'Typo in README' });
    await octokit.rest.issues.update({ ...app, issue_number: 2, state: 'closed' });
    await octokit.rest.issues.create({ owner: 'octo', repo: 'docs', title: 'The crash page is empty' });
    await octokit.rest.pulls.create({ ...app, title: 'Fix the crash', head: 'fix', base: 'main' });

    const search = async (q: string, more: Record<string, string> = {}) => {
      const { data } = await octokit.rest.search.issuesAndPullRequests({ q, ...more });
      return data.items.map((item) => `${item.repository_url.split('/').at(-1)}#${item.number}`);
    };
    // Newest first where no sort is named; a word in the title or the body, case aside.
    expect(await search('crash')).toEqual(['app#3', 'docs#1', 'app#1']);
    expect(await search('crash repo:octo/app')).toEqual(['app#3', 'app#1']);
    expect(await search('crash is:pr')).toEqual(['app#3']);
    expect(await search('crash is:issue -label:bug')).toEqual(['docs#1']);
    expect(await search('is:closed')).toEqual(['app#2']);
    expect(await search('"on start" in:title')).toEqual(['app#1']);
    expect(await search('crashes in:title')).toEqual([]);
    expect(await search('label:bug author:octocat')).toEqual(['app#1']);
    expect(await search('crash', { sort: 'created', order: 'asc' })).toEqual(['app#1', 'docs#1', 'app#3']);

    // Merged, by the merge kept: a pull request merged, or (unmerged) one open or closed without it.
    await octokit.rest.pulls.create({ ...app, title: 'Drop the crash log', head: 'drop', base: 'main' });
    await octokit.rest.pulls.update({ ...app, pull_number: 4, state: 'closed' });
    expect(await search('is:merged')).toEqual([]);
    expect(await search('is:unmerged')).toEqual(['app#4', 'app#3']);
    await octokit.rest.pulls.merge({ ...app, pull_number: 3 });
    expect(await search('is:merged')).toEqual(['app#3']);
    expect(await search('crash is:unmerged')).toEqual(['app#4']);
    expect(await search('crash -is:merged')).toEqual(['app#4', 'docs#1', 'app#1']);

    const found = await octokit.rest.search.issuesAndPullRequests({ q: 'crash is:pr is:merged' });
    expect(found.data).toMatchObject({ total_count: 1, incomplete_results: false });
    expect(found.data.items[0]).toMatchObject({ number: 3, title: 'Fix the crash', score: 1 });
    expect(found.data.items[0]?.pull_request?.url).toMatch(/\/repos\/octo\/app\/pulls\/3$/);

    // `paginate` follows the Link, which keeps `q`, and gathers the items of every page.
    const all = await octokit.paginate(octokit.rest.search.issuesAndPullRequests, { q: 'user:octo', per_page: 1 });
    expect(all.map((item) => item.number).sort()).toEqual([1, 1, 2, 3, 4]);

    const repos = await octokit.rest.search.repos({ q: 'manual org:octo' });
    expect(repos.data.items.map((repo) => repo.full_name)).toEqual(['octo/docs']);
    expect((await octokit.rest.search.repos({ q: 'user:octo' })).data.total_count).toBe(2);

    // No query: GitHub's 422.
    const missing = await octokit.rest.search.issuesAndPullRequests({ q: '' }).catch((error: unknown) => error);
    expect(missing).toMatchObject({ name: 'HttpError', status: 422 });
  });
});
