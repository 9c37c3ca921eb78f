/**
 * A fake of the part of GitHub's REST API the tests use, built only with
 * mockpoint routes: a repository lookup (templated from the path), a paginated
 * issue list (`Link` headers, as GitHub sends them), and an issue create that
 * only accepts a body with a title it knows.
 */
import type { MockApi, MockServerClient, RouteInput } from '@mockpoint/vitest';

/** The issues the fake repository has, two per page. */
export const ISSUES = [
  { number: 1, title: 'Crash on start' },
  { number: 2, title: 'Typo in README' },
  { number: 3, title: 'Slow search' },
];

/** Sets up the fake GitHub under the name `github` and returns its handle. */
export function fakeGitHub(mock: Pick<MockServerClient, 'api' | 'endpointUrl'>): Promise<MockApi> {
  const issues = (query: string) => mock.endpointUrl('github', `/repos/acme/app/issues?${query}`);
  const routes: RouteInput[] = [
    {
      id: 'repo',
      match: { method: 'GET', path: '/repos/:owner/:repo' },
      answer: {
        template: true,
        headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999' },
        data: { id: 1296269, name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}', private: false },
      },
    },
    {
      id: 'issues-page-2',
      match: { method: 'GET', path: '/repos/acme/app/issues', query: { per_page: '2', page: '2' } },
      answer: {
        headers: {
          link: `<${issues('per_page=2&page=1')}>; rel="prev", <${issues('per_page=2&page=1')}>; rel="first"`,
        },
        data: ISSUES.slice(2),
      },
    },
    {
      id: 'issues-page-1',
      match: { method: 'GET', path: '/repos/acme/app/issues', query: { per_page: '2' } },
      answer: {
        headers: { link: `<${issues('per_page=2&page=2')}>; rel="next", <${issues('per_page=2&page=2')}>; rel="last"` },
        data: ISSUES.slice(0, 2),
      },
    },
    {
      id: 'create-issue',
      match: { method: 'POST', path: '/repos/:owner/:repo/issues', body: { title: 'Bug' } },
      answer: {
        statusCode: 201,
        template: true,
        headers: { location: 'https://api.github.com/repos/{{params.owner}}/{{params.repo}}/issues/4' },
        data: { number: 4, title: '{{body.title}}', body: '{{body.body}}', labels: '{{body.labels}}' },
      },
    },
  ];
  return mock.api('github', routes);
}
