// The node ids of what the GitHub twin makes (docs/twins.md, "A GitHub twin"): GitHub gives each
// object a global `node_id`, opaque, one an object, its kind's prefix first (`I_…` an issue, `PR_…`
// a pull request, `LA_…` a label, `MI_…` a milestone, `IC_…` an issue comment); the twin makes
// each from its kind and id, never the document's example, the same on every read. Through
// @octokit/rest against the built daemon in memory, on LevelDB, on a real redis-server and in a
// namespace. Every process listens on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** Every `node_id` of an example in GitHub's REST description as `@octokit/openapi` ships it, and the schema's own word. */
function exampleNodeIds(): Set<string> {
  const pinned = createRequire(new URL('../../openapi-documents/package.json', import.meta.url));
  const text = readFileSync(pinned.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8');
  const found = new Set(['', 'node_id']);
  for (const match of text.matchAll(/"node_id":\s*"([^"]*)"/g)) found.add(match[1] as string);
  return found;
}

describe.each(TWIN_PLACES)('the node ids of what the GitHub twin makes (%s)', (place) => {
  it('are one for each object, of its kind, none an example, the same on every read', async () => {
    const { root } = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'app' };

    const made = (await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo })).data;
    const orgRepo = (await octokit.rest.repos.createInOrg({ org: 'acme', name: 'tools' })).data;
    const first = (await octokit.rest.issues.create({ ...repo, title: 'One' })).data;
    const second = (await octokit.rest.issues.create({ ...repo, title: 'Two' })).data;
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Pull', head: 'feature', base: 'main' })).data;
    const label = (await octokit.rest.issues.createLabel({ ...repo, name: 'bug' })).data;
    const milestone = (await octokit.rest.issues.createMilestone({ ...repo, title: 'v1' })).data;
    const comment = (await octokit.rest.issues.createComment({ ...repo, issue_number: first.number, body: 'Hi' })).data;
    const review = (
      await octokit.rest.pulls.createReview({ ...repo, pull_number: pull.number, event: 'COMMENT', body: 'Fine' })
    ).data;
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0' })).data;
    const asset = (
      await octokit.rest.repos.uploadReleaseAsset({
        ...repo,
        release_id: release.id,
        url: release.upload_url,
        name: 'app.zip',
        data: 'bytes',
      })
    ).data;
    const deployment = (await octokit.rest.repos.createDeployment({ ...repo, ref: 'main' })).data as { id: number };
    const gist = (await octokit.rest.gists.create({ files: { 'a.txt': { content: 'x' } } })).data;
    // A status is of a commit the repository holds: one a file's write makes.
    const written = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'README.md',
      message: 'Add a README',
      content: Buffer.from('# App').toString('base64'),
    });
    const sha = String(written.data.commit.sha);
    const status = (await octokit.rest.repos.createCommitStatus({ ...repo, sha, state: 'success' })).data;
    const check = (await octokit.rest.checks.create({ ...repo, name: 'ci', head_sha: sha })).data;
    const environment = (await octokit.rest.repos.createOrUpdateEnvironment({ ...repo, environment_name: 'prod' }))
      .data;
    const invitation = (await octokit.rest.repos.addCollaborator({ ...repo, username: 'alice' })).data;

    const ids: Record<string, [string | undefined, string]> = {
      repository: [made.node_id, 'R'],
      'organization repository': [orgRepo.node_id, 'R'],
      organization: [orgRepo.owner.node_id, 'O'],
      'first issue': [first.node_id, 'I'],
      'second issue': [second.node_id, 'I'],
      'pull request': [pull.node_id, 'PR'],
      label: [label.node_id, 'LA'],
      milestone: [milestone.node_id, 'MI'],
      comment: [comment.node_id, 'IC'],
      review: [review.node_id, 'PRR'],
      release: [release.node_id, 'RE'],
      asset: [asset.node_id, 'RA'],
      deployment: [(deployment as { node_id?: string }).node_id, 'DE'],
      gist: [gist.node_id, 'G'],
      status: [status.node_id, 'SC'],
      check: [check.node_id, 'CR'],
      environment: [environment.node_id, 'EN'],
      invitation: [invitation?.node_id, 'RI'],
      invitee: [invitation?.invitee?.node_id, 'U'],
    };
    const examples = exampleNodeIds();
    for (const [what, [nodeId, kind]] of Object.entries(ids)) {
      expect(examples.has(String(nodeId)), `${what}: ${nodeId}`).toBe(false);
      expect(nodeId, what).toMatch(new RegExp(`^${kind}_[A-Za-z0-9_-]{8,}$`));
    }
    const all = Object.values(ids).map(([nodeId]) => nodeId);
    expect(new Set(all).size).toBe(all.length);

    // The same on every read, in a list too; a pull request listed among the issues keeps its own.
    const again: Record<string, string | undefined> = {
      repository: (await octokit.rest.repos.get(repo)).data.node_id,
      'first issue': (await octokit.rest.issues.get({ ...repo, issue_number: first.number })).data.node_id,
      'pull request': (await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.node_id,
      label: (await octokit.rest.issues.getLabel({ ...repo, name: 'bug' })).data.node_id,
      milestone: (await octokit.rest.issues.getMilestone({ ...repo, milestone_number: milestone.number })).data.node_id,
      comment: (await octokit.rest.issues.getComment({ ...repo, comment_id: comment.id })).data.node_id,
      review: (await octokit.rest.pulls.getReview({ ...repo, pull_number: pull.number, review_id: review.id })).data
        .node_id,
      release: (await octokit.rest.repos.getRelease({ ...repo, release_id: release.id })).data.node_id,
      gist: (await octokit.rest.gists.get({ gist_id: String(gist.id) })).data.node_id,
    };
    for (const [what, nodeId] of Object.entries(again)) expect(nodeId, what).toBe(ids[what]?.[0]);
    const listed = (await octokit.rest.issues.listForRepo(repo)).data;
    expect(listed.map((item) => item.node_id)).toEqual([pull.node_id, second.node_id, first.node_id]);
  });
});
