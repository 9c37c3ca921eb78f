// The GitHub twin (docs/twins.md) through @octokit/rest, the official SDK, against the built
// daemon serving the twin at the root of a port of its own (`--serve`), on LevelDB and on a real
// redis-server: issues numbered per repository, comments, labels, pull requests, `Link`
// pagination through `octokit.paginate`, GitHub's errors. Every process listens on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon } from './helpers/daemon.js';
import { exampleKeys, hookReceiver, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** A daemon with a GitHub twin served at the root of its own port, and an Octokit for it. */
async function githubTwin(store: 'level' | 'redis', unseen?: 'examples'): Promise<{ octokit: Octokit; root: string }> {
  const { root } = await twinDaemon('github', await twinRedis.store(store), unseen ? { unseen } : {});
  const quiet = () => undefined;
  const log = { debug: quiet, info: quiet, warn: quiet, error: quiet };
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log });
  return { octokit, root };
}

it("answers every operation of its document from the examples (unseen: examples), and asks for a token in GitHub's error shape", async () => {
  const { root } = await githubTwin('level', 'examples');
  const { load } = await import('@mockpoint/twins');
  const { document } = await load('github');
  const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete']
      .filter((method) => item[method] !== undefined)
      .map((method) => [method, path] as const),
  );
  expect(operations.length).toBeGreaterThan(50);
  // Deletes first: once a collection holds objects, deleting one it never held is GitHub's 404.
  operations.sort(([a], [b]) => Number(b === 'delete') - Number(a === 'delete'));
  const failed: string[] = [];
  for (const [method, template] of operations) {
    const path = template.replace(/\{([^}]+)\}/g, (_, param: string) => (param.endsWith('number') ? '7' : `${param}1`));
    const response = await fetch(`${root}${path}`, {
      method: method.toUpperCase(),
      headers: { authorization: 'token ghp_1', 'content-type': 'application/json' },
      body: method === 'get' || method === 'delete' ? undefined : '{}',
    });
    if (response.status >= 300) failed.push(`${method} ${template} → ${response.status}`);
  }
  // An empty create is GitHub's 422 (a field it needs is missing); every other operation answers.
  expect(failed).toEqual([
    'post /repos/{owner}/{repo}/hooks → 422',
    'post /repos/{owner}/{repo}/issues → 422',
    'post /repos/{owner}/{repo}/issues/{issue_number}/comments → 422',
    'post /repos/{owner}/{repo}/labels → 422',
    'post /repos/{owner}/{repo}/pulls → 422',
  ]);

  for (const authorization of [undefined, 'Basic Z2hwXzE6', 'token']) {
    const refused = await fetch(`${root}/repos/octo/app/issues`, {
      headers: authorization === undefined ? {} : { authorization },
    });
    expect([refused.status, Object.keys(await refused.json()).sort()]).toEqual([401, ['documentation_url', 'message']]);
  }
  const unknown = await fetch(`${root}/repos/octo/app/nothing-here`, { headers: { authorization: 'Bearer ghp_1' } });
  expect([unknown.status, Object.keys(await unknown.json()).sort()]).toEqual([404, ['documentation_url', 'message']]);
});

it('--twin github=0 makes the twin at start and serves it at a port of its own', async () => {
  const daemon = await startDaemon({ args: ['--memory', '--twin', 'github=0'] });
  const note = daemon.notes.find((line) => line.startsWith('github served at '));
  expect(note, daemon.startLine).toBeDefined();
  const octokit = new Octokit({ auth: 'ghp_1', baseUrl: (note as string).slice('github served at '.length) });
  const issue = await octokit.rest.issues.create({ owner: 'octo', repo: 'app', title: 'At start' });
  expect(issue.data).toMatchObject({ number: 1, title: 'At start' });
  expect((await requestJson(`${daemon.url}/api/endpoints/github/twin`)).body).toMatchObject({ provider: 'github' });
  // An issue it never made is GitHub's 404; a repository's issues are only those made (SPEC §2.20).
  const missing = await octokit.rest.issues.get({ owner: 'octo', repo: 'app', issue_number: 9999 }).catch((e) => e);
  // Octokit's RequestError (by its name: @octokit/request-error is no direct dependency here).
  expect(missing.name).toBe('HttpError');
  expect([missing.status, missing.response.data]).toEqual([
    404,
    { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
  ]);
  const listed = await octokit.rest.issues.listForRepo({ owner: 'octo', repo: 'other' });
  expect(listed.data).toEqual([]);
});

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

    // No title: GitHub's 422, and nothing made.
    const untitled = await octokit.request('POST /repos/{owner}/{repo}/issues', repo as never).catch((e) => e);
    expect([untitled.status, untitled.response.data]).toEqual([
      422,
      {
        message: 'Validation Failed',
        documentation_url: 'https://docs.github.com/rest',
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
      },
    ]);
    expect((await octokit.rest.issues.listForRepo({ ...repo })).data.length).toBe(2);
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
    // A label the twin never saw is GitHub's 404.
    const never = await octokit.rest.issues.getLabel({ ...repo, name: 'wontfix' }).catch((e) => e);
    expect([never.status, never.response.data.message]).toEqual([404, 'Not Found']);
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

  it('keeps comments per issue, and labels added to an issue on it', async () => {
    const { octokit } = await githubTwin(store);
    const repo = { owner: 'octo', repo: 'app' };
    await octokit.rest.issues.create({ ...repo, title: 'One' });
    await octokit.rest.issues.create({ ...repo, title: 'Two' });
    const comment = await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Me too' });
    expect(comment.status).toBe(201);
    expect(comment.data).toMatchObject({ body: 'Me too' });
    await octokit.rest.issues.createComment({ ...repo, issue_number: 2, body: 'Other issue' });
    const listed = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: 1 });
    expect(listed.map((c) => c.body)).toEqual(['Me too']);
    const edited = await octokit.rest.issues.updateComment({ ...repo, comment_id: comment.data.id, body: 'Edited' });
    expect(edited.data.body).toBe('Edited');
    expect((await octokit.rest.issues.getComment({ ...repo, comment_id: comment.data.id })).data.body).toBe('Edited');

    const added = await octokit.rest.issues.addLabels({ ...repo, issue_number: 2, labels: ['bug', 'urgent'] });
    expect(added.data.map((label) => label.name)).toEqual(['bug', 'urgent']);
    const issue = await octokit.rest.issues.get({ ...repo, issue_number: 2 });
    expect(issue.data.labels.map((label) => (typeof label === 'string' ? label : label.name))).toEqual([
      'bug',
      'urgent',
    ]);
  });

  it("sends each change to the repository's hooks as GitHub's event, verified by @octokit/webhooks", async () => {
    const { octokit } = await githubTwin(store);
    const hooks = await hookReceiver();
    const other = await hookReceiver();
    try {
      const repo = { owner: 'octo', repo: 'app' };
      const secret = 'It is a secret to everybody';
      const config = { url: hooks.url, secret, content_type: 'json' as const };
      const hook = await octokit.rest.repos.createWebhook({ ...repo, config, events: ['*'] });
      expect(hook.status).toBe(201);
      // A hook of another repository hears nothing of this one.
      await octokit.rest.repos.createWebhook({
        owner: 'octo',
        repo: 'elsewhere',
        config: { url: other.url, secret },
        events: ['*'],
      });
      await octokit.rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' });
      await octokit.rest.issues.create({ ...repo, title: 'Crash' });
      await octokit.rest.issues.update({ ...repo, issue_number: 1, title: 'Crash on start' });
      await octokit.rest.issues.addLabels({ ...repo, issue_number: 1, labels: ['bug'] });
      await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'Fixed in #2' });
      await octokit.rest.pulls.create({ ...repo, title: 'Fix crash', head: 'fix', base: 'main' });
      await octokit.rest.pulls.update({ ...repo, pull_number: 1, state: 'closed' });
      await octokit.rest.issues.update({ ...repo, issue_number: 1, state: 'closed' });
      const wanted = [
        'label.created',
        'issues.opened',
        'issues.edited',
        'issues.labeled',
        'issue_comment.created',
        'pull_request.opened',
        'pull_request.closed',
        'issues.closed',
      ];
      await hooks.until(wanted.length);
      const webhooks = new Webhooks({ secret });
      const seen: string[] = [];
      for (const { body, headers } of hooks.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        expect(headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        const payload = JSON.parse(body) as Record<string, unknown>;
        const event = String(headers['x-github-event']);
        const action = String(payload.action);
        seen.push(`${event}.${action}`);
        expect(Object.keys(payload).sort()).toEqual(expect.arrayContaining(exampleKeys(event, action)));
        expect(payload.repository).toMatchObject({ full_name: 'octo/app' });
      }
      expect(seen.sort()).toEqual([...wanted].sort());
      expect(other.received).toEqual([]);
    } finally {
      await hooks.close();
      await other.close();
    }
  });
});
