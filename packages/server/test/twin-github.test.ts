// The GitHub twin (docs/twins.md) through @octokit/rest, the official SDK, against the built
// daemon serving the twin at the root of a port of its own (`--serve`), on LevelDB and on a real
// redis-server: issues numbered per repository, comments, labels, pull requests, `Link`
// pagination through `octokit.paginate`, GitHub's errors. Every process listens on 127.0.0.1.
import { startTestRedis, type TestRedis } from '@mockpoint/testkit/redis-server';
import { Octokit } from '@octokit/rest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';

let redis: TestRedis;

beforeAll(async () => {
  assertBuilt();
  redis = await startTestRedis();
});
afterEach(() => killAll());
afterAll(async () => {
  await redis?.dispose();
  await removeTempDirs();
});

/** Each test's twin has a name of its own: the Redis tests share one redis-server. */
let twins = 0;

/** A daemon with a GitHub twin served at the root of its own port, and an Octokit for it. */
async function githubTwin(store: 'level' | 'redis'): Promise<{ octokit: Octokit; root: string }> {
  const name = `github${++twins}`;
  const daemon =
    store === 'level'
      ? await startDaemon({ args: ['--data-dir', await makeTempDir(), '--serve', `${name}=0`] })
      : await startDaemon({ args: ['--serve', `${name}=0`], env: { MOCKPOINT_REDIS_URL: redis.socket } });
  const note = daemon.notes.find((line) => line.startsWith(`${name} served at `));
  expect(note, daemon.startLine).toBeDefined();
  const root = (note as string).slice(`${name} served at `.length);
  const made = await requestJson(`${daemon.url}/api/endpoints/${name}/twin`, {
    method: 'PUT',
    body: { provider: 'github' },
  });
  expect(made.status).toBe(200);
  const quiet = () => undefined;
  const log = { debug: quiet, info: quiet, warn: quiet, error: quiet };
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log });
  return { octokit, root };
}

describe.each(['level', 'redis'] as const)('the GitHub twin through @octokit/rest (%s)', (store) => {
  it('numbers issues per repository, keeps them exact, updates and closes them', async () => {
    const { octokit } = await githubTwin(store);
    const repo = { owner: 'octo', repo: 'app' };
    const first = await octokit.rest.issues.create({ ...repo, title: 'Crash on start', body: 'It crashes.' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ number: 1, title: 'Crash on start', body: 'It crashes.', state: 'open' });
    const second = await octokit.rest.issues.create({ ...repo, title: 'Typo' });
    const elsewhere = await octokit.rest.issues.create({ owner: 'octo', repo: 'other', title: 'Elsewhere' });
    expect([second.data.number, elsewhere.data.number]).toEqual([2, 1]);
    expect(second.data.id).not.toBe(elsewhere.data.id);

    const read = await octokit.rest.issues.get({ ...repo, issue_number: 1 });
    expect(read.data).toEqual(first.data);
    expect((await octokit.rest.issues.get({ owner: 'octo', repo: 'other', issue_number: 1 })).data.title).toBe(
      'Elsewhere',
    );
    const closed = await octokit.rest.issues.update({ ...repo, issue_number: 1, state: 'closed' });
    expect(closed.data).toMatchObject({ number: 1, state: 'closed', title: 'Crash on start' });
    const listed = await octokit.rest.issues.listForRepo({ ...repo });
    expect(listed.data.map((issue) => issue.number)).toEqual([1, 2]);
  });

  it('pages with per_page and a Link header that octokit.paginate follows', async () => {
    const { octokit } = await githubTwin(store);
    const repo = { owner: 'octo', repo: 'many' };
    for (let n = 1; n <= 7; n++) await octokit.rest.issues.create({ ...repo, title: `Issue ${n}` });
    const page = await octokit.rest.issues.listForRepo({ ...repo, per_page: 3, page: 2 });
    expect(page.data.map((issue) => issue.number)).toEqual([4, 5, 6]);
    expect(page.headers.link).toMatch(/rel="next"/);
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, per_page: 2 });
    expect(all.map((issue) => issue.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps labels by name, refuses a second of one name with 422, and answers 404 for one deleted', async () => {
    const { octokit } = await githubTwin(store);
    const repo = { owner: 'octo', repo: 'app' };
    const bug = await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
    expect(bug.data).toMatchObject({ name: 'bug', color: 'd73a4a' });
    expect((await octokit.rest.issues.getLabel({ ...repo, name: 'bug' })).data).toEqual(bug.data);
    const again = await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: '000000' }).catch((e) => e);
    expect(again.status).toBe(422);
    expect(again.response.data).toMatchObject({
      message: expect.stringContaining('Validation Failed'),
      documentation_url: expect.any(String),
      errors: [{ code: 'already_exists', field: 'name' }],
    });
    await octokit.rest.issues.createLabel({ ...repo, name: 'docs', color: '0075ca' });
    const labels = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, repo);
    expect(labels.map((label) => label.name)).toEqual(['bug', 'docs']);
    await octokit.rest.issues.deleteLabel({ ...repo, name: 'bug' });
    const gone = await octokit.rest.issues.getLabel({ ...repo, name: 'bug' }).catch((e) => e);
    expect([gone.status, Object.keys(gone.response.data).sort()]).toEqual([404, ['documentation_url', 'message']]);
  });

  it('opens and closes pull requests, numbered per repository', async () => {
    const { octokit } = await githubTwin(store);
    const repo = { owner: 'octo', repo: 'app' };
    const pull = await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
    expect(pull.data).toMatchObject({ number: 1, title: 'Fix crash', state: 'open' });
    const closed = await octokit.rest.pulls.update({ ...repo, pull_number: 1, state: 'closed' });
    expect(closed.data).toMatchObject({ number: 1, state: 'closed' });
    expect((await octokit.rest.pulls.list(repo)).data.map((p) => p.title)).toEqual(['Fix crash']);
  });
});
