// Octokit unchanged, with its default base URL (https://api.github.com): the
// mock intercepts this process's requests to it (createMockServer's `intercept`,
// built on @mswjs/interceptors) and answers them in-process, with no socket.
import { createMockServer, expect, it } from '@mockpoint/vitest';
import { Octokit } from '@octokit/rest';

it('Octokit with its default base URL, answered in-process by the mock', async () => {
  await using mock = await createMockServer({
    hosts: { 'api.github.com': 'github' },
    intercept: ['https://api.github.com'],
    interceptUnmatched: 'error',
  });
  const github = await mock.api('github', [
    {
      match: { path: '/repos/:owner/:repo' },
      answer: { data: { name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}' }, template: true },
    },
  ]);
  const octokit = new Octokit({ auth: 'test-token' });
  const { status, data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'app' });
  expect([status, data]).toEqual([200, { name: 'app', full_name: 'acme/app' }]);
  await expect(github).toHaveBeenRequestedWith({
    method: 'GET',
    path: '/repos/:owner/:repo',
    headers: { authorization: 'token test-token', host: 'api.github.com' },
  });
});
