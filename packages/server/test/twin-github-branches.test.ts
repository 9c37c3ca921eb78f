// The GitHub twin's branches and branch protection (issue #73), through @octokit/rest against the
// built daemon in memory, on LevelDB, on a real redis-server and in a namespace: the branches are the twin's own refs (a file written makes
// `main`, a ref made another), listed and read as GitHub answers them; a branch protected with the
// four members GitHub requires, read back, summarised on the branch, unprotected; GitHub's 404 and
// 422 where it answers them. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** What a request Octokit rejects answered: its status and message. */
const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number; response: { data: { message: string } } }) => [error.status, error.response.data.message],
  );

describe.each(TWIN_PLACES)("the GitHub twin's branches (%s)", (place) => {
  it('lists and reads branches of the refs it holds, and keeps, summarises and removes their protection', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'guarded' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    // No branch yet: none listed, a read is GitHub's 404.
    expect((await octokit.rest.repos.listBranches(repo)).data).toEqual([]);
    expect(await failed(octokit.rest.repos.getBranch({ ...repo, branch: 'main' }))).toEqual([404, 'Branch not found']);

    const written = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'README.md',
      message: 'Add the README',
      content: Buffer.from('Hello\n').toString('base64'),
    });
    const sha = String(written.data.commit.sha);
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha });
    const listed = await octokit.rest.repos.listBranches(repo);
    expect(listed.data).toEqual([
      { name: 'feature', commit: { sha, url: expect.stringContaining(`/commits/${sha}`) }, protected: false },
      { name: 'main', commit: { sha, url: expect.stringContaining(`/commits/${sha}`) }, protected: false },
    ]);
    const main = await octokit.rest.repos.getBranch({ ...repo, branch: 'main' });
    expect(main.data).toMatchObject({
      name: 'main',
      protected: false,
      commit: { sha, commit: { message: 'Add the README' } },
      protection: { enabled: false, required_status_checks: { enforcement_level: 'off' } },
    });
    expect(main.data.protection_url).toMatch(/\/branches\/main\/protection$/);
    expect(await failed(octokit.rest.repos.getBranchProtection({ ...repo, branch: 'main' }))).toEqual([
      404,
      'Branch not protected',
    ]);

    // The four members GitHub requires, each may be null; one missing is a 422.
    const partial = octokit.request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', {
      ...repo,
      branch: 'main',
      required_status_checks: null,
      enforce_admins: true,
      required_pull_request_reviews: null,
    } as never);
    expect(await failed(partial)).toEqual([422, 'Invalid request.\n\n"restrictions" wasn\'t supplied.']);
    const checksWithout = octokit.request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', {
      ...repo,
      branch: 'main',
      required_status_checks: { contexts: ['ci'] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    } as never);
    expect(await failed(checksWithout)).toEqual([422, 'Invalid request.\n\n"strict" wasn\'t supplied.']);
    const restricted = octokit.rest.repos.updateBranchProtection({
      ...repo,
      branch: 'main',
      required_status_checks: null,
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: { users: ['alice'], teams: [] },
    });
    expect(await failed(restricted)).toEqual([
      422,
      'Only organization repositories can have users and team restrictions',
    ]);
    const put = await octokit.rest.repos.updateBranchProtection({
      ...repo,
      branch: 'main',
      required_status_checks: { strict: true, contexts: ['ci/mockpoint'] },
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      restrictions: null,
      required_linear_history: true,
    });
    expect(put.data).toMatchObject({
      required_status_checks: { strict: true, contexts: ['ci/mockpoint'], checks: [{ context: 'ci/mockpoint' }] },
      enforce_admins: { enabled: true },
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      required_linear_history: { enabled: true },
      allow_force_pushes: { enabled: false },
    });
    expect(put.data).not.toHaveProperty('restrictions');
    expect((await octokit.rest.repos.getBranchProtection({ ...repo, branch: 'main' })).data).toEqual(put.data);
    const guarded = await octokit.rest.repos.getBranch({ ...repo, branch: 'main' });
    expect([guarded.data.protected, guarded.data.protection]).toEqual([
      true,
      {
        enabled: true,
        required_status_checks: {
          enforcement_level: 'everyone',
          contexts: ['ci/mockpoint'],
          checks: [{ context: 'ci/mockpoint', app_id: null }],
        },
      },
    ]);
    const onlyProtected = await octokit.rest.repos.listBranches({ ...repo, protected: true });
    expect(onlyProtected.data.map((one) => one.name)).toEqual(['main']);

    expect((await octokit.rest.repos.deleteBranchProtection({ ...repo, branch: 'main' })).status).toBe(204);
    expect((await octokit.rest.repos.getBranch({ ...repo, branch: 'main' })).data.protected).toBe(false);
    expect(await failed(octokit.rest.repos.deleteBranchProtection({ ...repo, branch: 'main' }))).toEqual([
      404,
      'Branch not protected',
    ]);
    expect(
      await failed(
        octokit.rest.repos.updateBranchProtection({
          ...repo,
          branch: 'nope',
          required_status_checks: null,
          enforce_admins: null,
          required_pull_request_reviews: null,
          restrictions: null,
        }),
      ),
    ).toEqual([404, 'Branch not found']);
  });
});
