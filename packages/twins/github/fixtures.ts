/**
 * GitHub's fixtures for `mockpoint trigger` (twin-fixtures.ts): the calls a person's clicks make,
 * for each event of `@octokit/webhooks-examples`.
 *
 * @module
 */
import type { FixtureStep } from '@mockpoint/core/internal';

/** A `POST` of `body` to `path`: most clicks make something. */
const post = (path: string, body: NonNullable<FixtureStep['body']>): FixtureStep => ({ method: 'POST', path, body });

const issue = post('/repos/{repo}/issues', {
  title: 'Spelling error in the README file',
  body: 'It looks like you accidentally spelled "commit" with two "t"s.',
});
const pull = post('/repos/{repo}/pulls', {
  title: 'Update the README with new information',
  head: 'changes',
  base: 'main',
  body: 'This is a pretty simple change.',
});
const comment = post('/repos/{repo}/issues/{number}/comments', {
  body: 'You are totally right! I will get this fixed right away.',
});
const close = (what: 'issues' | 'pulls'): FixtureStep => ({
  method: 'PATCH',
  path: `/repos/{repo}/${what}/{number}`,
  body: { state: 'closed' },
});
/** A user (`trigger-{unique}`) invited to collaborate, as write. */
const invitation: FixtureStep = {
  method: 'PUT',
  path: '/repos/{repo}/collaborators/trigger-{unique}',
  body: { permission: 'push' },
};
const label = post('/repos/{repo}/labels', { name: '{label}', color: 'd73a4a' });

/** A file written (`{unique}.md`, or another name) on the default branch or `branch`: a commit pushed. */
const write = (name = '{unique}.md', branch?: string): FixtureStep => ({
  method: 'PUT',
  path: `/repos/{repo}/contents/${name}`,
  body: {
    message: 'Update the README',
    content: 'SGVsbG8sIHdvcmxkIQo=',
    ...(branch === undefined ? {} : { branch }),
  },
});
/** A branch `{unique}` (or a tag) at the commit the last write made. */
const ref = (kind: 'heads' | 'tags'): FixtureStep =>
  post('/repos/{repo}/git/refs', { ref: `refs/${kind}/{unique}`, sha: '{sha}' });
/**
 * A pull request of a branch the twin holds (GitHub refuses one whose head or base the repository
 * lacks): a file written on the default branch, a branch `{unique}` at its commit, the pull request of it.
 */
const branchPull = (): FixtureStep[] => [write(), ref('heads'), { ...pull, body: { ...pull.body, head: '{unique}' } }];
const release = post('/repos/{repo}/releases', {
  tag_name: 'v1.0.0-{unique}',
  name: 'v1.0.0',
  body: 'Description of the release',
});
/** A commit status of the commit the last write made. */
const status = post('/repos/{repo}/statuses/{sha}', {
  state: 'success',
  context: 'ci/mockpoint',
  description: 'The build passed',
  target_url: 'https://ci.example.com/builds/1',
});
/** A check run of the commit the last write made. */
const checkRun = post('/repos/{repo}/check-runs', { name: 'mockpoint-ci', head_sha: '{sha}', status: 'in_progress' });
/** A workflow file `{unique}.yml` that takes `workflow_dispatch` (`name: CI`, one job echoing), on the default branch. */
const workflowFile: FixtureStep = {
  method: 'PUT',
  path: '/repos/{repo}/contents/.github/workflows/{unique}.yml',
  body: {
    message: 'Add the CI workflow',
    content:
      'bmFtZTogQ0kKb246CiAgd29ya2Zsb3dfZGlzcGF0Y2g6CmpvYnM6CiAgYnVpbGQ6CiAgICBydW5zLW9uOiB1YnVudHUtbGF0ZXN0CiAgICBzdGVwczoKICAgICAgLSBydW46IGVjaG8gSGVsbG8K',
  },
};
/** That workflow dispatched on a branch `{unique}` at its commit: a run requested (its id answered). */
const dispatched: FixtureStep[] = [
  workflowFile,
  ref('heads'),
  {
    method: 'POST',
    path: '/repos/{repo}/actions/workflows/{unique}.yml/dispatches',
    body: { ref: '{unique}', return_run_details: true },
  },
];
/** The repository read back (a `PATCH` of nothing, which changes nothing): its `{id}` for the next step. */
const touch: FixtureStep = { method: 'PATCH', path: '/repos/{repo}', body: {} };
/**
 * The twin's App installed on the repository's owner with it selected (the install click on
 * github.com, through the twin's `PUT /user/installations/{id}/repositories/{id}`: the installation's
 * id the repository's). Once per repository until it is uninstalled (`installation.deleted`).
 */
const install: FixtureStep = { method: 'PUT', path: '/user/installations/{id}/repositories/{id}' };
/** A repository of its own, `trigger-{unique}` of the owner; made after `{repo}`, so that one stays. */
const repository: FixtureStep[] = [
  { method: 'PATCH', path: '/repos/{repo}', body: {} },
  { method: 'POST', path: '/orgs/{owner}/repos', body: { name: 'trigger-{unique}', description: 'Made by mockpoint' } },
];

/** GitHub's: the calls a person's clicks make, as the events of `@octokit/webhooks-examples` come from them. */
export const GITHUB: Record<string, readonly FixtureStep[]> = {
  'issues.opened': [issue],
  'issues.edited': [issue, { method: 'PATCH', path: '/repos/{repo}/issues/{number}', body: { body: 'Edited.' } }],
  'issues.closed': [issue, close('issues')],
  'issues.reopened': [
    issue,
    close('issues'),
    { method: 'PATCH', path: '/repos/{repo}/issues/{number}', body: { state: 'open' } },
  ],
  'issues.labeled': [
    issue,
    { method: 'POST', path: '/repos/{repo}/issues/{number}/labels', body: { labels: ['bug'] } },
  ],
  'issue_comment.created': [issue, comment],
  'issue_comment.edited': [
    issue,
    comment,
    { method: 'PATCH', path: '/repos/{repo}/issues/comments/{id}', body: { body: 'Edited.' } },
  ],
  'issue_comment.deleted': [issue, comment, { method: 'DELETE', path: '/repos/{repo}/issues/comments/{id}' }],
  'pull_request.opened': branchPull(),
  'pull_request.edited': [
    ...branchPull(),
    { method: 'PATCH', path: '/repos/{repo}/pulls/{number}', body: { body: 'Edited.' } },
  ],
  'pull_request.closed': [...branchPull(), close('pulls')],
  'pull_request.reopened': [
    ...branchPull(),
    close('pulls'),
    { method: 'PATCH', path: '/repos/{repo}/pulls/{number}', body: { state: 'open' } },
  ],
  'pull_request.synchronize': [
    write(),
    ref('heads'),
    { ...pull, body: { ...pull.body, head: '{unique}' } },
    write('{unique}-head.md', '{unique}'),
  ],
  'pull_request_review.submitted': [
    ...branchPull(),
    { method: 'POST', path: '/repos/{repo}/pulls/{number}/reviews', body: { body: 'Looks good.', event: 'APPROVE' } },
  ],
  push: [write()],
  status: [write(), status],
  'check_run.created': [write(), checkRun],
  'check_run.completed': [
    write(),
    checkRun,
    {
      method: 'PATCH',
      path: '/repos/{repo}/check-runs/{id}',
      body: { conclusion: 'success', output: { title: 'Passed', summary: 'Every test passed.' } },
    },
  ],
  create: [write(), ref('heads')],
  delete: [write(), ref('heads'), { method: 'DELETE', path: '/repos/{repo}/git/refs/heads%2F{unique}' }],
  'workflow_run.requested': dispatched,
  'workflow_run.completed': [
    ...dispatched,
    { method: 'POST', path: '/repos/{repo}/actions/runs/{workflow_run_id}/cancel' },
  ],
  'installation.created': [touch, install],
  'installation.deleted': [touch, install, touch, { method: 'DELETE', path: '/app/installations/{id}' }],
  'installation.suspend': [touch, install, touch, { method: 'PUT', path: '/app/installations/{id}/suspended' }],
  'installation.unsuspend': [
    touch,
    install,
    touch,
    { method: 'PUT', path: '/app/installations/{id}/suspended' },
    touch,
    { method: 'DELETE', path: '/app/installations/{id}/suspended' },
  ],
  'release.created': [release],
  'release.published': [release],
  'release.deleted': [release, { method: 'DELETE', path: '/repos/{repo}/releases/{id}' }],
  'repository.created': repository,
  'repository.edited': [{ method: 'PATCH', path: '/repos/{repo}', body: { description: 'Edited {unique}' } }],
  'repository.renamed': [
    ...repository,
    { method: 'PATCH', path: '/repos/{owner}/trigger-{unique}', body: { name: 'trigger-{unique}-renamed' } },
  ],
  'repository.deleted': [...repository, { method: 'DELETE', path: '/repos/{owner}/trigger-{unique}' }],
  'label.created': [label],
  'label.edited': [label, { method: 'PATCH', path: '/repos/{repo}/labels/{name}', body: { color: '0e8a16' } }],
  'label.deleted': [label, { method: 'DELETE', path: '/repos/{repo}/labels/{name}' }],
  'member.added': [invitation, { method: 'PATCH', path: '/user/repository_invitations/{id}' }],
  'member.removed': [
    invitation,
    { method: 'PATCH', path: '/user/repository_invitations/{id}' },
    { method: 'DELETE', path: '/repos/{repo}/collaborators/trigger-{unique}' },
  ],
};
