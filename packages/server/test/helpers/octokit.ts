/**
 * What the GitHub twin's tests share around `@octokit/rest`: a log that says nothing, the answer of
 * a request Octokit rejects, and GitHub's `404`. (A fuzz case's lone surrogates, which no client can
 * send in a URL or JSON text, are made U+FFFD by `wellFormed` of random-message.ts.)
 */

const quiet = () => undefined;

/** Octokit's `log` option that prints nothing (a refused request would warn). */
export const QUIET_LOG = { debug: quiet, info: quiet, warn: quiet, error: quiet };

/** What a request Octokit rejects was answered: its status and body (`'answered'` when it was not rejected). */
export const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number; response?: { data?: unknown } }) => [error.status, error.response?.data],
  );

/** GitHub's answer to what does not exist, as {@link rejection} gives it. */
export const GITHUB_NOT_FOUND = [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }];

/** What {@link madeRepos} calls: an `Octokit`'s two ways of making a repository. */
interface RepoMaker {
  rest: {
    repos: {
      createForAuthenticatedUser(params: { name: string }): Promise<{ status: number }>;
      createInOrg(params: { org: string; name: string }): Promise<{ status: number }>;
    };
  };
}

/**
 * Makes each `owner/name` as a user would before writing below it (GitHub, and the twin, answer
 * `404` below a repository never made): `octocat`'s as the authenticated user's own, another
 * owner's in that organization.
 */
export async function madeRepos(octokit: RepoMaker, ...names: string[]): Promise<void> {
  for (const full of names) {
    const [owner = '', name = ''] = full.split('/');
    const made =
      owner.toLowerCase() === 'octocat'
        ? await octokit.rest.repos.createForAuthenticatedUser({ name })
        : await octokit.rest.repos.createInOrg({ org: owner, name });
    if (made.status !== 201) throw new Error(`${full} was not made: ${made.status}`);
  }
}
