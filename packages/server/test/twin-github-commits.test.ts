// The GitHub twin's commit history (issue #84), through @octokit/rest against the built daemon in
// memory and on LevelDB: `auto_init`'s first commit, each file written a commit on its branch with
// its parent and tree, listed, read with its files, compared (the three-dot comparison), a pull
// request's commits and files (what a bot reading its diff reads), a merge commit with its two
// parents, and the issues a merged pull request's closing keywords close. Every process listens
// on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG, rejection } from './helpers/octokit.js';
import { twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const base64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(['memory', 'level'] as const)("the GitHub twin's commits (%s)", (place) => {
  it('keeps each write a commit, lists, reads and compares them, and a pull request its files', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const empty = { owner: 'octocat', repo: 'empty' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: empty.repo });
    expect(await rejection(octokit.rest.repos.listCommits(empty))).toEqual([
      409,
      { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest' },
    ]);

    const repo = { owner: 'octocat', repo: 'shop' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, description: 'A shop', auto_init: true });
    const [initial] = (await octokit.rest.repos.listCommits(repo)).data;
    expect(initial).toMatchObject({ commit: { message: 'Initial commit' }, parents: [] });
    const readme = await octokit.rest.repos.getContent({ ...repo, path: 'README.md', mediaType: { format: 'raw' } });
    expect(readme.data).toBe('# shop\nA shop\n');
    const main = await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' });
    expect(main.data.object.sha).toBe(initial?.sha);

    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/cart', sha: String(initial?.sha) });
    const added = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      branch: 'cart',
      path: 'src/cart.js',
      message: 'Add the cart',
      content: base64('export const items = [];\n'),
    });
    const file = await octokit.rest.repos.getContent({ ...repo, path: 'README.md' });
    const edited = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      branch: 'cart',
      path: 'README.md',
      message: 'Name the cart\n\nFixes #1',
      sha: (file.data as { sha: string }).sha,
      content: base64('# shop\nA shop with a cart\n'),
    });
    expect(edited.data.commit.parents?.map((parent) => parent.sha)).toEqual([added.data.commit.sha]);
    const history = await octokit.rest.repos.listCommits({ ...repo, sha: 'cart' });
    expect(history.data.map((commit) => commit.commit.message)).toEqual([
      'Name the cart\n\nFixes #1',
      'Add the cart',
      'Initial commit',
    ]);
    const touching = await octokit.rest.repos.listCommits({ ...repo, sha: 'cart', path: 'src/cart.js' });
    expect(touching.data.map((commit) => commit.sha)).toEqual([added.data.commit.sha]);
    const paged = await octokit.rest.repos.listCommits({ ...repo, sha: 'cart', per_page: 1, page: 2 });
    expect(paged.data.map((commit) => commit.sha)).toEqual([added.data.commit.sha]);

    const one = await octokit.rest.repos.getCommit({ ...repo, ref: String(edited.data.commit.sha) });
    expect(one.data.stats).toEqual({ total: 2, additions: 1, deletions: 1 });
    expect(one.data.files).toEqual([
      expect.objectContaining({
        filename: 'README.md',
        status: 'modified',
        additions: 1,
        deletions: 1,
        changes: 2,
        patch: '@@ -2,1 +2,1 @@\n-A shop\n+A shop with a cart',
      }),
    ]);
    expect(await rejection(octokit.rest.repos.getCommit({ ...repo, ref: 'nowhere' }))).toEqual([
      422,
      expect.objectContaining({ message: 'No commit found for SHA: nowhere' }),
    ]);

    const comparison = await octokit.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...cart' });
    expect(comparison.data).toMatchObject({
      status: 'ahead',
      ahead_by: 2,
      behind_by: 0,
      total_commits: 2,
      merge_base_commit: { sha: initial?.sha },
    });
    expect(comparison.data.commits.map((commit) => commit.commit.message)).toEqual([
      'Add the cart',
      'Name the cart\n\nFixes #1',
    ]);
    expect(comparison.data.files?.map((entry) => [entry.filename, entry.status])).toEqual([
      ['README.md', 'modified'],
      ['src/cart.js', 'added'],
    ]);

    // The pull request's diff, as a bot reads it; its merge closes the issues it names.
    const bug = await octokit.rest.issues.create({ ...repo, title: 'No cart' });
    const typo = await octokit.rest.issues.create({ ...repo, title: 'Typo' });
    const other = await octokit.rest.issues.create({ ...repo, title: 'Unrelated' });
    expect([bug.data.number, typo.data.number, other.data.number]).toEqual([1, 2, 3]);
    const pull = await octokit.rest.pulls.create({
      ...repo,
      title: 'Add a cart',
      head: 'cart',
      base: 'main',
      body: 'Closes #2, see #3.',
    });
    const files = await octokit.rest.pulls.listFiles({ ...repo, pull_number: pull.data.number });
    expect(files.data.map((entry) => [entry.filename, entry.status, entry.additions, entry.deletions])).toEqual([
      ['README.md', 'modified', 1, 1],
      ['src/cart.js', 'added', 1, 0],
    ]);
    expect(files.data[1]?.patch).toBe('@@ -0,0 +1,1 @@\n+export const items = [];');
    const commits = await octokit.rest.pulls.listCommits({ ...repo, pull_number: pull.data.number });
    expect(commits.data.map((commit) => commit.sha)).toEqual([added.data.commit.sha, edited.data.commit.sha]);

    const merged = await octokit.rest.pulls.merge({ ...repo, pull_number: pull.data.number });
    const mergeCommit = await octokit.rest.repos.getCommit({ ...repo, ref: merged.data.sha });
    expect(mergeCommit.data.parents.map((parent) => parent.sha)).toEqual([initial?.sha, edited.data.commit.sha]);
    expect(mergeCommit.data.files?.map((entry) => entry.filename)).toEqual(['README.md', 'src/cart.js']);
    const states = await octokit.rest.issues.listForRepo({ ...repo, state: 'all', direction: 'asc' });
    expect(states.data.filter((issue) => !issue.pull_request).map((issue) => [issue.number, issue.state])).toEqual([
      [1, 'closed'],
      [2, 'closed'],
      [3, 'open'],
    ]);
    expect((await octokit.rest.issues.get({ ...repo, issue_number: 2 })).data).toMatchObject({
      state_reason: 'completed',
      closed_by: { login: 'octocat' },
    });
    // Merged, its files are still those it brought; its head is now behind the base.
    const after = await octokit.rest.pulls.listFiles({ ...repo, pull_number: pull.data.number });
    expect(after.data.map((entry) => entry.filename)).toEqual(['README.md', 'src/cart.js']);
    const behind = await octokit.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...cart' });
    expect([behind.data.status, behind.data.ahead_by, behind.data.behind_by]).toEqual(['behind', 0, 1]);
  });

  it("makes a published release's tag a ref at its target's commit", async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'tagged' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const main = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0', name: 'One' });
    const tag = await octokit.rest.git.getRef({ ...repo, ref: 'tags/v1.0.0' });
    expect(tag.data).toMatchObject({ ref: 'refs/tags/v1.0.0', object: { sha: main, type: 'commit' } });
    const archive = await octokit.request('GET /repos/{owner}/{repo}/tarball/{ref}', {
      ...repo,
      ref: 'v1.0.0',
      request: { redirect: 'manual' },
    });
    expect(archive.headers.location).toBe('https://codeload.github.com/octocat/tagged/legacy.tar.gz/refs/tags/v1.0.0');

    // A draft makes no tag until it is published, then at the commit its target names then.
    const draft = await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v2.0.0', draft: true });
    expect(await rejection(octokit.rest.git.getRef({ ...repo, ref: 'tags/v2.0.0' }))).toEqual([
      404,
      expect.objectContaining({ message: 'Not Found' }),
    ]);
    const next = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'CHANGELOG.md',
      message: 'Changelog',
      content: base64('# 2.0.0\n'),
    });
    await octokit.rest.repos.updateRelease({ ...repo, release_id: draft.data.id, draft: false });
    const published = await octokit.rest.git.getRef({ ...repo, ref: 'tags/v2.0.0' });
    expect(published.data.object.sha).toBe(next.data.commit.sha);
    const tags = await octokit.rest.git.listMatchingRefs({ ...repo, ref: 'tags/' });
    expect(tags.data.map((ref) => ref.ref)).toEqual(['refs/tags/v1.0.0', 'refs/tags/v2.0.0']);
  });
});
