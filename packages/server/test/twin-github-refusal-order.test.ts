// The order of the GitHub twin's refusals (#84): a request the document's constraints refuse is
// answered as GitHub answers it — an object its path names that the twin does not hold first
// (`404 Not Found`: a lock of an issue never made, whatever its `lock_reason`), then GitHub's own
// words for the value (a merge's `merge_method`, the `sort` and `direction` of a repository's
// issue comments), not the document's enum message. Against the built daemon in memory; every
// process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

const HEADERS = { authorization: 'Bearer ghp_order84', 'content-type': 'application/json' };
const DOCS = 'https://docs.github.com/rest';

async function send(root: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${root}${path}`, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('the GitHub twin refuses in GitHub’s order', () => {
  const twin = sharedTwinDaemon('github', async () => 'memory', 3);

  /** A repository of its own, an issue and a pull request in it. */
  async function made(name: string) {
    const { root } = await twin();
    const repo = `/repos/octocat/${name}`;
    expect((await send(root, 'POST', '/user/repos', { name })).status).toBe(201);
    expect((await send(root, 'POST', `${repo}/issues`, { title: 'Locked out' })).status).toBe(201);
    const pull = await send(root, 'POST', `${repo}/pulls`, { title: 'Merge me', head: 'feature', base: 'main' });
    expect(pull.status).toBe(201);
    return { root, repo, number: (pull.body as { number: number }).number };
  }

  const notFound = { status: 404, body: { message: 'Not Found', documentation_url: DOCS } };

  it('answers a lock of an issue never made 404, whatever its lock_reason', async () => {
    const { root, repo } = await made('lock84');
    expect(await send(root, 'PUT', `${repo}/issues/98484/lock`, { lock_reason: 'bogus' })).toEqual(notFound);
    // Of one held: GitHub's words for the reason, and the issue left unlocked.
    const locked = await send(root, 'PUT', `${repo}/issues/1/lock`, { lock_reason: 'bogus' });
    expect(locked.status).toBe(422);
    expect(locked.body).toMatchObject({ errors: [{ resource: 'Issue', code: 'invalid', field: 'lock_reason' }] });
    expect((await send(root, 'GET', `${repo}/issues/1`)).body).toMatchObject({ locked: false, state: 'open' });
  });

  it('answers a merge_method GitHub does not take in its words, after a pull request never made', async () => {
    const { root, repo, number } = await made('merge84');
    expect(await send(root, 'PUT', `${repo}/pulls/98484/merge`, { merge_method: 'bogus' })).toEqual(notFound);
    expect(await send(root, 'PUT', `${repo}/pulls/${number}/merge`, { merge_method: 'bogus' })).toEqual({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'PullRequest', code: 'invalid', field: 'merge_method', value: 'bogus' }],
        documentation_url: DOCS,
      },
    });
    expect((await send(root, 'GET', `${repo}/pulls/${number}`)).body).toMatchObject({ merged: false, state: 'open' });
  });

  it('answers issue comments listed by a sort or direction GitHub does not take in its words', async () => {
    const { root, repo } = await made('comments84');
    for (const [field, value] of [
      ['sort', 'bogus'],
      ['direction', 'up'],
    ] as const) {
      expect(await send(root, 'GET', `${repo}/issues/comments?${field}=${value}`)).toEqual({
        status: 422,
        body: {
          message: `Validation Failed: ${field} '${value}' is not one GitHub takes.`,
          errors: [{ resource: 'IssueComment', field, code: 'invalid', value }],
          documentation_url: DOCS,
        },
      });
    }
  });
});
