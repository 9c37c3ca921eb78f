// The GitHub twin's writes naming a commit or a review comment (#84), through @octokit/rest against
// the built daemon in memory and on LevelDB, `unseen` at its default: a check run and a check suite
// of a commit the repository holds are made, of one it does not hold GitHub's `422 No commit found
// for SHA`; a review and a review comment on the pull request's head are made, on a commit the pull
// request does not bring refused; review comments are kept (listed, read, changed, deleted) and a
// reply to one held is taken, to one never made refused; release notes of a new tag read its
// `target_commitish`, of a tag that exists ignore it; an asynchronous merge expecting another head is
// GitHub's `409`. The refusals of a value naming nothing are twin-github-body-references.test.ts's.
// Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { sharedTwinDaemon } from './helpers/twin.js';

/** A SHA no repository of the twin holds. */
const NO_SHA = '0123456789abcdef0123456789abcdef01234567';

describe.each(['memory', 'level'] as const)('the GitHub twin’s commit references (%s)', (store) => {
  const twins = sharedTwinDaemon('github', async () => store, 1);

  it('takes what names a held commit or comment, and refuses the rest as GitHub does', {
    timeout: 60_000,
  }, async () => {
    const twin = await twins();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'refs84' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const base = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: base });
    const written = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'a.txt',
      message: 'add a',
      content: Buffer.from('a\n').toString('base64'),
      branch: 'feature',
    });
    const head = String(written.data.commit.sha);
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'a', head: 'feature', base: 'main' })).data;
    expect(pull.head.sha).toBe(head);
    const pull_number = pull.number;

    // Checks: of a commit of the history (the branch's, the pull request's), made; of none, refused.
    expect((await octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: head })).status).toBe(201);
    expect((await octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: base })).status).toBe(201);
    expect((await octokit.rest.checks.createSuite({ ...repo, head_sha: head })).status).toBeLessThan(300);
    const noCommit = [422, { message: `No commit found for SHA: ${NO_SHA}`, documentation_url: expect.any(String) }];
    expect(await rejection(octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: NO_SHA }))).toEqual(noCommit);
    expect(await rejection(octokit.rest.checks.createSuite({ ...repo, head_sha: NO_SHA }))).toEqual(noCommit);
    expect((await octokit.rest.checks.listForRef({ ...repo, ref: head })).data.total_count).toBe(1);

    // A review: on the head, made; on the base's commit (not brought by the pull request), refused.
    const review = await octokit.rest.pulls.createReview({
      ...repo,
      pull_number,
      commit_id: head,
      event: 'COMMENT',
      body: 'ok',
    });
    expect(review.data.state).toBe('COMMENTED');
    expect(
      await rejection(octokit.rest.pulls.createReview({ ...repo, pull_number, commit_id: base, event: 'COMMENT' })),
    ).toEqual([
      422,
      expect.objectContaining({
        message: 'Unprocessable Entity',
        errors: ['The commitOID is not part of the pull request'],
      }),
    ]);

    // Review comments: made on the head and kept, a reply to one held taken, to one never made refused.
    const comment = (
      await octokit.rest.pulls.createReviewComment({
        ...repo,
        pull_number,
        commit_id: head,
        path: 'a.txt',
        line: 1,
        body: 'why?',
      })
    ).data;
    expect(comment).toMatchObject({
      body: 'why?',
      path: 'a.txt',
      line: 1,
      commit_id: head,
      user: { login: 'octocat' },
    });
    expect(comment).not.toHaveProperty('in_reply_to_id');
    const offPull = octokit.rest.pulls.createReviewComment({
      ...repo,
      pull_number,
      commit_id: base,
      path: 'a.txt',
      line: 1,
      body: 'x',
    });
    expect(await rejection(offPull)).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [expect.objectContaining({ field: 'pull_request_review_thread.end_commit_oid', code: 'custom' })],
      }),
    ]);
    const reply = (
      await octokit.rest.pulls.createReviewComment({
        ...repo,
        pull_number,
        commit_id: head,
        path: 'a.txt',
        body: 'because',
        in_reply_to: comment.id,
      } as Parameters<typeof octokit.rest.pulls.createReviewComment>[0])
    ).data;
    expect(reply).toMatchObject({ body: 'because', path: 'a.txt', line: 1, in_reply_to_id: comment.id });
    const answered = await octokit.rest.pulls.createReplyForReviewComment({
      ...repo,
      pull_number,
      comment_id: reply.id,
      body: 'thanks',
    });
    expect(answered.data).toMatchObject({ body: 'thanks', in_reply_to_id: comment.id });
    const stray = octokit.rest.pulls.createReviewComment({
      ...repo,
      pull_number,
      commit_id: head,
      path: 'a.txt',
      body: 'to nothing',
      in_reply_to: 98_484,
    } as Parameters<typeof octokit.rest.pulls.createReviewComment>[0]);
    expect(await rejection(stray)).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [expect.objectContaining({ field: 'in_reply_to' })],
      }),
    ]);
    expect(
      await rejection(
        octokit.rest.pulls.createReplyForReviewComment({ ...repo, pull_number, comment_id: 98_484, body: 'x' }),
      ),
    ).toEqual(GITHUB_NOT_FOUND);
    const listed = (await octokit.rest.pulls.listReviewComments({ ...repo, pull_number })).data;
    expect(listed.map((one) => one.body)).toEqual(['why?', 'because', 'thanks']);
    expect((await octokit.rest.pulls.getReviewComment({ ...repo, comment_id: comment.id })).data).toEqual(comment);
    const changed = await octokit.rest.pulls.updateReviewComment({ ...repo, comment_id: comment.id, body: 'why not?' });
    expect(changed.data.body).toBe('why not?');
    expect((await octokit.rest.pulls.deleteReviewComment({ ...repo, comment_id: answered.data.id })).status).toBe(204);
    expect(await rejection(octokit.rest.pulls.getReviewComment({ ...repo, comment_id: answered.data.id }))).toEqual(
      GITHUB_NOT_FOUND,
    );
    const all = (await octokit.rest.pulls.listReviewCommentsForRepo(repo)).data;
    expect(all.map((one) => one.body)).toEqual(['why not?', 'because']);

    // Release notes: a new tag's target read (a branch, a commit, or refused), an existing tag's ignored.
    expect(
      (await octokit.rest.repos.generateReleaseNotes({ ...repo, tag_name: 'v2', target_commitish: 'main' })).status,
    ).toBe(200);
    expect(
      (await octokit.rest.repos.generateReleaseNotes({ ...repo, tag_name: 'v2', target_commitish: head })).status,
    ).toBe(200);
    expect((await octokit.rest.repos.generateReleaseNotes({ ...repo, tag_name: 'v2' })).status).toBe(200);
    expect(
      await rejection(octokit.rest.repos.generateReleaseNotes({ ...repo, tag_name: 'v2', target_commitish: 'nope' })),
    ).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [{ resource: 'Release', code: 'invalid', field: 'target_commitish' }],
      }),
    ]);
    await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1' });
    expect(
      (await octokit.rest.repos.generateReleaseNotes({ ...repo, tag_name: 'v1', target_commitish: 'nope' })).status,
    ).toBe(200);

    // An asynchronous merge: expecting the head, taken; another, GitHub's 409.
    const mergeAsync = (sha: string) =>
      octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge-async' as string, {
        ...repo,
        pull_number,
        sha,
      });
    expect(await rejection(mergeAsync(base))).toEqual([
      409,
      expect.objectContaining({ message: 'Head branch was modified. Review and try the merge again.' }),
    ]);
    expect((await mergeAsync(head)).status).toBeLessThan(300);
  });
});
