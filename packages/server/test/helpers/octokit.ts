/**
 * What the GitHub twin's tests share around `@octokit/rest`: a log that says nothing, the answer of
 * a request Octokit rejects, GitHub's `404`, and the pattern of a lone surrogate (which a fuzz case
 * replaces before sending, as no client can send one in a URL or JSON text).
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

/** A surrogate not of a pair. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
