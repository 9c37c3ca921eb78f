// GitHub's own client, Octokit (`@octokit/rest` from npm), against a fake
// GitHub made only of routes (src/fake-github.ts). Octokit builds every URL from
// `baseUrl`, so the fake's URL is all it needs. One instance for the file,
// emptied after each test (routes, queue and journal).
import { expect, it, useMockServer } from '@mockpoint/vitest';
import { Octokit } from '@octokit/rest';
import { fakeGitHub, ISSUES } from './fake-github.js';

const mock = useMockServer({ resetAfterEach: true });

it('a repository lookup, with the rate-limit headers GitHub sends', async () => {
  const github = await fakeGitHub(mock);
  const octokit = new Octokit({ baseUrl: github.url, auth: 'test-token' });
  const { status, data, headers } = await octokit.rest.repos.get({ owner: 'acme', repo: 'app' });
  expect(status).toBe(200);
  expect(data).toMatchObject({ id: 1296269, name: 'app', full_name: 'acme/app' });
  expect(headers['x-ratelimit-remaining']).toBe('4999');
  await expect(github).toHaveBeenRequestedWith({
    method: 'GET',
    path: '/repos/:owner/:repo',
    headers: { authorization: 'token test-token' },
  });
});

it('a paginated list: octokit.paginate follows the Link headers to the last page', async () => {
  const github = await fakeGitHub(mock);
  const octokit = new Octokit({ baseUrl: github.url });
  const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: 'acme', repo: 'app', per_page: 2 });
  expect(issues.map((issue) => issue.number)).toEqual(ISSUES.map((issue) => issue.number));
  const requests = await github.requests();
  expect(requests.map((r) => [r.subpath, r.query.page ?? null, r.answeredBy])).toEqual([
    ['/repos/acme/app/issues', null, { route: 'issues-page-1' }],
    ['/repos/acme/app/issues', '2', { route: 'issues-page-2' }],
  ]);
});

it('a create with a body rule: the body the route wants gets 201, rendered from the request', async () => {
  const github = await fakeGitHub(mock);
  const octokit = new Octokit({ baseUrl: github.url });
  const created = await octokit.rest.issues.create({
    owner: 'acme',
    repo: 'app',
    title: 'Bug',
    body: 'It breaks',
    labels: ['bug', 'p1'],
  });
  expect(created.status).toBe(201);
  expect(created.data).toMatchObject({ number: 4, title: 'Bug', body: 'It breaks', labels: ['bug', 'p1'] });
  expect(created.headers.location).toBe('https://api.github.com/repos/acme/app/issues/4');
  const [request] = await github.requests();
  expect(request).toMatchObject({ method: 'POST', params: { owner: 'acme', repo: 'app' }, json: { title: 'Bug' } });
});

it('a near miss: a 404 whose body names the nearest route and what did not match', async () => {
  const github = await fakeGitHub(mock);
  const octokit = new Octokit({ baseUrl: github.url });
  const error = await octokit.rest.issues.create({ owner: 'acme', repo: 'app', title: 'Feature' }).catch((e) => e);
  expect(error).toMatchObject({ name: 'HttpError', status: 404 });
  const body = error.response.data as {
    error: { code: string; details: { nearMisses: { id: string; reason: string }[] } };
  };
  expect(body.error.code).toBe('NO_ROUTE_MATCHED');
  expect(body.error.details.nearMisses[0]).toEqual({
    id: 'create-issue',
    index: 3,
    reason: 'body.title is "Feature", route wants "Bug"',
  });
});

it('a retry path: a queued 503 for the next matching request, then the route again', async () => {
  const github = await fakeGitHub(mock);
  await github.queue([{ match: { path: '/repos/:owner/:repo' }, statusCode: 503, data: { message: 'busy' } }]);
  const octokit = new Octokit({ baseUrl: github.url });
  await expect(octokit.rest.repos.get({ owner: 'acme', repo: 'app' })).rejects.toMatchObject({ status: 503 });
  expect((await octokit.rest.repos.get({ owner: 'acme', repo: 'app' })).status).toBe(200);
});
