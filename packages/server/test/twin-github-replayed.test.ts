// What the GitHub twin answers as api.github.com answers it where replayed recordings differed
// (issue #84), through @octokit/rest against the built daemon in memory and on LevelDB: a file's
// raw bytes, an archive's redirect to codeload, the list of a repository's refs, a label's color
// and its name in another case refused, notifications marked read, a repository's settings and
// language, an issue's and a comment's reactions, a pull request's unknown branches refused.
// Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG, rejection } from './helpers/octokit.js';
import { twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const NO_REACTIONS = {
  total_count: 0,
  '+1': 0,
  '-1': 0,
  laugh: 0,
  hooray: 0,
  confused: 0,
  heart: 0,
  rocket: 0,
  eyes: 0,
};

describe.each(['memory', 'level'] as const)('the GitHub twin as recorded (%s)', (place) => {
  it('answers files, archives, refs, notifications and repositories as GitHub does', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'recorded' };
    const made = await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    expect(made.data).toMatchObject({
      language: null,
      web_commit_signoff_required: false,
      allow_update_branch: false,
      use_squash_pr_title_as_default: false,
    });
    // No commit yet: GitHub's empty repository has no refs to list.
    expect(await rejection(octokit.request('GET /repos/{owner}/{repo}/git/refs', repo))).toEqual([
      409,
      { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest' },
    ]);

    const text = 'export const answer = 42;\n';
    const written = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'src/answer.ts',
      message: 'Add the answer',
      content: Buffer.from(text).toString('base64'),
    });
    expect(written.status).toBe(201);
    const raw = await octokit.rest.repos.getContent({ ...repo, path: 'src/answer.ts', mediaType: { format: 'raw' } });
    expect(raw.data).toBe(text);
    expect(raw.headers['content-type']).toMatch(/^text\/plain/);
    // The repository's language follows its files, as GitHub's Linguist tells it on a push.
    expect((await octokit.rest.repos.get(repo)).data.language).toBe('TypeScript');

    for (const [kind, format] of [
      ['tarball', 'tar.gz'],
      ['zipball', 'zip'],
    ] as const) {
      const archive = await octokit.request(`GET /repos/{owner}/{repo}/${kind}/{ref}`, {
        ...repo,
        ref: 'main',
        request: { redirect: 'manual' },
      });
      expect([archive.status, archive.headers.location]).toEqual([
        302,
        `https://codeload.github.com/octocat/recorded/legacy.${format}/refs/heads/main`,
      ]);
    }
    const unknownArchive = octokit.request('GET /repos/{owner}/{repo}/tarball/{ref}', {
      ...repo,
      ref: 'nowhere',
      request: { redirect: 'manual' },
    });
    expect(await rejection(unknownArchive)).toEqual([404, expect.objectContaining({ message: 'Not Found' })]);

    const sha = String(written.data.commit.sha);
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha });
    for (const path of ['GET /repos/{owner}/{repo}/git/refs', 'GET /repos/{owner}/{repo}/git/refs/'] as const) {
      const refs = await octokit.request(path, repo);
      expect((refs.data as { ref: string }[]).map((ref) => ref.ref)).toEqual(['refs/heads/feature', 'refs/heads/main']);
    }
    const heads = await octokit.request('GET /repos/{owner}/{repo}/git/refs/{ref}', { ...repo, ref: 'heads' });
    expect((heads.data as { ref: string }[]).map((ref) => ref.ref)).toEqual(['refs/heads/feature', 'refs/heads/main']);
    await octokit.rest.git.deleteRef({ ...repo, ref: 'heads/feature' });
    const left = await octokit.request('GET /repos/{owner}/{repo}/git/refs', repo);
    expect((left.data as { ref: string }[]).map((ref) => ref.ref)).toEqual(['refs/heads/main']);

    // Nothing is ever left unread: GitHub's 205 Reset Content.
    expect((await octokit.rest.activity.markNotificationsAsRead()).status).toBe(205);
    expect((await octokit.rest.activity.markRepoNotificationsAsRead(repo)).status).toBe(205);
  });

  it('refuses what GitHub refuses of labels and pull requests, and answers reactions', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'checked' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const failed = (errors: Record<string, unknown>[]) => [
      422,
      { message: 'Validation Failed', errors, documentation_url: 'https://docs.github.com/rest' },
    ];
    expect(await rejection(octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'invalid' }))).toEqual(
      failed([{ resource: 'Label', code: 'invalid', field: 'color' }]),
    );
    await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
    expect(await rejection(octokit.rest.issues.createLabel({ ...repo, name: 'BUG', color: 'd73a4a' }))).toEqual(
      failed([{ resource: 'Label', code: 'already_exists', field: 'name' }]),
    );
    await octokit.rest.issues.createLabel({ ...repo, name: 'docs', color: '0075ca' });
    expect(await rejection(octokit.rest.issues.updateLabel({ ...repo, name: 'docs', new_name: 'Bug' }))).toEqual(
      failed([{ resource: 'Label', code: 'already_exists', field: 'name' }]),
    );
    expect(await rejection(octokit.rest.issues.updateLabel({ ...repo, name: 'docs', color: 'blue' }))).toEqual(
      failed([{ resource: 'Label', code: 'invalid', field: 'color' }]),
    );
    // A label may change the case of its own name; none of the refused ones was kept.
    await octokit.rest.issues.updateLabel({ ...repo, name: 'bug', new_name: 'Bug' });
    const labels = await octokit.rest.issues.listLabelsForRepo(repo);
    expect(labels.data.map((label) => [label.name, label.color])).toEqual([
      ['Bug', 'd73a4a'],
      ['docs', '0075ca'],
    ]);

    const issue = await octokit.rest.issues.create({ ...repo, title: 'Crash on start' });
    expect(issue.data.reactions).toEqual({
      url: 'https://api.github.com/repos/octocat/checked/issues/1/reactions',
      ...NO_REACTIONS,
    });
    const comment = await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Me too' });
    expect(comment.data.reactions).toEqual({
      url: `https://api.github.com/repos/octocat/checked/issues/comments/${comment.data.id}/reactions`,
      ...NO_REACTIONS,
    });

    await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'README.md',
      message: 'Add the README',
      content: Buffer.from('Hello\n').toString('base64'),
    });
    const pull = octokit.rest.pulls.create({ ...repo, title: 'Nowhere', head: 'nowhere', base: 'elsewhere' });
    expect(await rejection(pull)).toEqual(
      failed([
        { resource: 'PullRequest', field: 'head', code: 'invalid' },
        { resource: 'PullRequest', field: 'base', code: 'invalid' },
      ]),
    );
    expect((await octokit.rest.pulls.list({ ...repo, state: 'all' })).data).toEqual([]);
    const main = await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' });
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/fix', sha: main.data.object.sha });
    const made = await octokit.rest.pulls.create({ ...repo, title: 'Fix', head: 'fix', base: 'main' });
    expect(made.data.number).toBe(2);
    const asIssue = await octokit.rest.issues.get({ ...repo, issue_number: 2 });
    expect(asIssue.data.reactions).toEqual({
      url: 'https://api.github.com/repos/octocat/checked/issues/2/reactions',
      ...NO_REACTIONS,
    });
  });
});
