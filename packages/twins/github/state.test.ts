// What the GitHub twin keeps of its own takes only what it can hand back (issue #71): a
// repository named `.` or `..` (no URL names it) is refused, a git ref a name git refuses, a file
// at a path no git tree holds or where a file and a directory would share a name; a ref or a file
// with `/` in its name is reached with the `/` raw, as GitHub's document marks it (`x-multi-segment`).

import { createApp, memoryBackend } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import { load, providers } from '../src/index.js';

const multi = { in: 'path', required: true, schema: { type: 'string' }, 'x-multi-segment': true };
const plain = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const REPO = [plain('owner'), plain('repo')];
const json = { content: { 'application/json': { schema: { type: 'object' } } } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'GitHub', version: '1' },
  paths: {
    '/user/repos': { post: { requestBody: json, responses: {} }, get: { responses: {} } },
    '/repos/{owner}/{repo}': { parameters: REPO, get: { responses: {} }, patch: { requestBody: json, responses: {} } },
    '/repos/{owner}/{repo}/git/refs': { parameters: REPO, post: { requestBody: json, responses: {} } },
    '/repos/{owner}/{repo}/git/ref/{ref}': { parameters: [...REPO, { name: 'ref', ...multi }], get: { responses: {} } },
    '/repos/{owner}/{repo}/contents/{path}': {
      parameters: [...REPO, { name: 'path', ...multi }],
      get: { responses: {} },
      put: { requestBody: json, responses: {} },
    },
  },
};
const PROFILE = { name: 'github', body: 'json', update: 'PATCH', flows: 'github', error: '{"message":"{message}"}' };
const SHA = 'a'.repeat(40);

async function twin() {
  const app = createApp({ backend: memoryBackend(), twins: { providers: async () => providers, load } });
  const put = await app.request('/api/endpoints/gh/twin', {
    method: 'PUT',
    body: JSON.stringify({ document: DOCUMENT, profile: PROFILE }),
  });
  expect(put.status).toBe(200);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await app.request(`/endpoint/gh${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  // The repository the tests write below (below one never made, GitHub's 404).
  expect((await call('POST', '/user/repos', { name: 'app' })).status).toBe(201);
  return call;
}

describe("the GitHub twin's own state", () => {
  it('refuses a repository named `.` or `..`, made or renamed', async () => {
    const call = await twin();
    for (const name of ['.', '..', ' .. ']) {
      const made = await call('POST', '/user/repos', { name });
      expect(made.status).toBe(422);
      expect(made.body.errors).toEqual([
        { resource: 'Repository', code: 'custom', field: 'name', message: 'name cannot be "." or ".."' },
      ]);
    }
    expect((await call('POST', '/user/repos', { name: '...' })).status).toBe(201);
    expect((await call('PATCH', '/repos/octocat/...', { name: '..' })).status).toBe(422);
    expect((await call('GET', '/repos/octocat/...')).body.name).toBe('...');
  });

  it('refuses a ref name git refuses, and reads one with `/` by its raw path', async () => {
    const call = await twin();
    for (const ref of [
      'refs/heads/a..b',
      'refs/heads/a b',
      'refs/heads/a\0',
      'refs/heads/.a',
      'refs/heads/a.lock',
      'refs/heads/a//b',
      'refs/heads/a.',
      'refs/heads/\uD800',
      'refs/heads/a@{1}',
      'refs/heads/a:b',
    ]) {
      expect((await call('POST', '/repos/octocat/app/git/refs', { ref, sha: SHA })).status, ref).toBe(422);
    }
    // A commit the repository holds (a file written): a ref points at one.
    const written = await call('PUT', '/repos/octocat/app/contents/a.txt', { message: 'm', content: 'aGk=' });
    const sha = String((written.body.commit as { sha: string }).sha);
    expect((await call('POST', '/repos/octocat/app/git/refs', { ref: 'refs/heads/feature/a', sha })).status).toBe(201);
    expect((await call('GET', '/repos/octocat/app/git/ref/heads/feature/a')).body.ref).toBe('refs/heads/feature/a');
    expect((await call('GET', '/repos/octocat/app/git/ref/heads%2Ffeature%2Fa')).body.ref).toBe('refs/heads/feature/a');
  });

  it('refuses a file at a malformed path or where a file and a directory would share a name', async () => {
    const call = await twin();
    const file = { message: 'm', content: 'aGk=' };
    for (const path of ['x%2F..', 'a%2F.%2Fb', 'a%2F..%2Fb', '.git/config', 'a%00b', 'a%2F%2Fb']) {
      const put = await call('PUT', `/repos/octocat/app/contents/${path}`, file);
      expect(put.status, path).toBe(422);
      expect(put.body.message).toBe('path contains a malformed path component');
    }
    expect((await call('PUT', '/repos/octocat/app/contents/docs/a.md', file)).status).toBe(201);
    expect((await call('GET', '/repos/octocat/app/contents/docs/a.md')).body.content).toBe('aGk=\n');
    expect((await call('PUT', '/repos/octocat/app/contents/docs/a.md/b', file)).body.message).toBe(
      'docs/a.md/b cannot be made: docs/a.md is a file',
    );
    expect((await call('PUT', '/repos/octocat/app/contents/docs', file)).body.message).toBe(
      'docs cannot be made: it is a directory',
    );
  });

  it('refuses a write to a branch git would refuse or that does not exist, and makes no ref of it', async () => {
    const call = await twin();
    for (const branch of ['a..b', 'x y', 'main.lock', '-\u0001', 'refs/heads/.hidden']) {
      const put = await call('PUT', '/repos/octocat/app/contents/a.txt', { message: 'm', content: 'aGk=', branch });
      expect([put.status, put.body.message], branch).toEqual([422, expect.stringContaining('is not valid')]);
    }
    expect((await call('GET', '/repos/octocat/app/contents/a.txt')).status).toBe(404);
    expect((await call('GET', '/repos/octocat/app/git/ref/heads/a..b')).status).toBe(404);
    // A branch that does not exist is GitHub's 404 (it was made); the default one is made by the first write.
    const file = { message: 'm', content: 'aGk=' };
    const nowhere = await call('PUT', '/repos/octocat/app/contents/a.txt', { ...file, branch: 'dev' });
    expect([nowhere.status, nowhere.body.message]).toEqual([404, 'Branch dev not found']);
    expect((await call('GET', '/repos/octocat/app/git/ref/heads/dev')).status).toBe(404);
    const made = await call('PUT', '/repos/octocat/app/contents/a.txt', file);
    expect(made.status).toBe(201);
    expect((await call('GET', '/repos/octocat/app/git/ref/heads/main')).status).toBe(200);
    const sha = String((made.body.commit as { sha: string }).sha);
    expect((await call('POST', '/repos/octocat/app/git/refs', { ref: 'refs/heads/dev', sha })).status).toBe(201);
    expect((await call('PUT', '/repos/octocat/app/contents/b.txt', { ...file, branch: 'dev' })).status).toBe(201);
  });
});
