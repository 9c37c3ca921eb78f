// The GitHub twin keeps repositories by name, git refs and contents (issue #73, "State where
// clients keep it"), through @octokit/rest against the built daemon, in memory, on LevelDB, on a
// real redis-server and in a namespace (one daemon each, shared by the cases: each uses owners of
// its own), and a namespace's apart from the default's, with `unseen` at its default "missing".
// Every process listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestJson, startDaemon } from './helpers/daemon.js';
import { QUIET_LOG } from './helpers/octokit.js';
import { sharedTwinAt, TWIN_PLACES, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** What a request Octokit rejects answered: its status and body. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number; response: { data: unknown } }) => [error.status, error.response.data],
  );

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
const SHA_A = 'aa218f56b14c9653891f9e74264a383fa43fefbd';

/** Git's blob SHA-1 of `text`, as `git hash-object` makes it. */
function blobSha(text: string): string {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

describe.each(TWIN_PLACES)('GitHub repositories, refs and contents (%s)', (place) => {
  const twins = sharedTwinAt('github', place, twinRedis, 1);
  let octokit: Octokit;
  beforeAll(async () => {
    const { root } = await twins();
    octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  });

  it('makes, reads, lists, renames (with the redirect) and deletes repositories by name', async () => {
    const made = await octokit.rest.repos.createForAuthenticatedUser({
      name: 'widgets',
      private: true,
      description: 'Widgets, kept',
    });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({
      name: 'widgets',
      full_name: 'octocat/widgets',
      private: true,
      visibility: 'private',
      description: 'Widgets, kept',
      default_branch: 'main',
      fork: false,
      owner: { login: 'octocat', id: 1, type: 'User' },
      html_url: 'https://github.com/octocat/widgets',
      url: 'https://api.github.com/repos/octocat/widgets',
      issues_url: 'https://api.github.com/repos/octocat/widgets/issues{/number}',
    });
    expect(typeof made.data.id).toBe('number');
    expect(made.data.created_at).toBe(made.data.pushed_at);
    expect((await octokit.rest.repos.get({ owner: 'octocat', repo: 'widgets' })).data).toEqual(made.data);
    // A second of one full name: GitHub's 422.
    const again = octokit.rest.repos.createForAuthenticatedUser({ name: 'widgets' });
    expect(await failure(again)).toEqual([
      422,
      {
        message: 'Repository creation failed.',
        documentation_url: 'https://docs.github.com/rest',
        errors: [
          { resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' },
        ],
      },
    ]);
    // One never made: 404.
    expect(await failure(octokit.rest.repos.get({ owner: 'octocat', repo: 'gadgets' }))).toEqual([404, NOT_FOUND]);

    const org = `acme-${place}`;
    for (const name of ['zeta', 'alpha', 'mid']) await octokit.rest.repos.createInOrg({ org, name });
    const inOrg = await octokit.rest.repos.listForOrg({ org });
    // An organization's: newest first by default; owned by it.
    expect(inOrg.data.map((repo) => repo.name)).toEqual(['mid', 'alpha', 'zeta']);
    expect(inOrg.data[0]?.owner).toMatchObject({ login: org, type: 'Organization' });
    const byName = await octokit.rest.repos.listForOrg({ org, sort: 'full_name', per_page: 2 });
    expect(byName.data.map((repo) => repo.name)).toEqual(['alpha', 'mid']);
    expect(byName.headers.link).toContain('sort=full_name');
    const paged = await octokit.paginate(octokit.rest.repos.listForOrg, { org, sort: 'full_name', per_page: 1 });
    expect(paged.map((repo) => repo.name)).toEqual(['alpha', 'mid', 'zeta']);
    const mine = await octokit.rest.repos.listForAuthenticatedUser({ per_page: 100 });
    expect(mine.data.map((repo) => repo.full_name)).toEqual(
      expect.arrayContaining(['octocat/widgets', `${org}/alpha`, `${org}/mid`, `${org}/zeta`]),
    );
    const privateOnes = await octokit.rest.repos.listForAuthenticatedUser({ visibility: 'private' });
    expect(privateOnes.data.map((repo) => repo.full_name)).toEqual(['octocat/widgets']);
    expect((await octokit.rest.repos.listForUser({ username: 'octocat' })).data.map((repo) => repo.name)).toEqual([
      'widgets',
    ]);

    // A rename moves it: the old name redirects (Octokit follows), the new one reads it.
    const renamed = await octokit.rest.repos.update({ owner: org, repo: 'mid', name: 'middle', description: 'Moved' });
    expect(renamed.data).toMatchObject({
      name: 'middle',
      full_name: `${org}/middle`,
      description: 'Moved',
      html_url: `https://github.com/${org}/middle`,
    });
    const moved = await fetch(
      `${(octokit.request.endpoint.DEFAULTS as { baseUrl: string }).baseUrl}/repos/${org}/mid`,
      {
        headers: { authorization: 'token ghp_1' },
        redirect: 'manual',
      },
    );
    expect([moved.status, moved.headers.get('location'), await moved.json()]).toEqual([
      301,
      'middle',
      {
        message: 'Moved Permanently',
        url: `https://api.github.com/repos/${org}/middle`,
        documentation_url: 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects',
      },
    ]);
    const followed = await octokit.rest.repos.get({ owner: org, repo: 'mid' });
    expect([followed.status, followed.data.full_name]).toEqual([200, `${org}/middle`]);

    expect((await octokit.rest.repos.delete({ owner: org, repo: 'zeta' })).status).toBe(204);
    expect(await failure(octokit.rest.repos.get({ owner: org, repo: 'zeta' }))).toEqual([404, NOT_FOUND]);
    expect((await octokit.rest.repos.listForOrg({ org })).data.map((repo) => repo.name)).toEqual(['middle', 'alpha']);

    // A new repository of a deleted one's name starts empty, as on GitHub: none of its issues or hooks.
    // Twice, so the name's first use is not taken again either.
    for (const round of [1, 2]) {
      await octokit.rest.issues.create({ owner: org, repo: 'alpha', title: `Before ${round}` });
      await octokit.rest.repos.createWebhook({ owner: org, repo: 'alpha', config: { url: 'http://127.0.0.1:9/hook' } });
      expect((await octokit.rest.repos.delete({ owner: org, repo: 'alpha' })).status).toBe(204);
      const read = octokit.rest.issues.listForRepo({ owner: org, repo: 'alpha' });
      expect(await failure(read)).toEqual([404, NOT_FOUND]);
      await octokit.rest.repos.createInOrg({ org, name: 'alpha' });
      expect((await octokit.rest.issues.listForRepo({ owner: org, repo: 'alpha', state: 'all' })).data).toEqual([]);
      expect((await octokit.rest.repos.listWebhooks({ owner: org, repo: 'alpha' })).data).toEqual([]);
    }
  });

  it("gives what is made after a rename its URLs at the repository's current name", async () => {
    const old = { owner: 'octocat', repo: `urls-${place}` };
    const now = { owner: 'octocat', repo: `urls-${place}-renamed` };
    await octokit.rest.repos.createForAuthenticatedUser({ name: old.repo });
    const before = (await octokit.rest.issues.create({ ...old, title: 'Before' })).data;
    await octokit.rest.repos.update({ ...old, name: now.repo });
    const api = `https://api.github.com/repos/octocat/${now.repo}`;
    const web = `https://github.com/octocat/${now.repo}`;

    const issue = (await octokit.rest.issues.create({ ...now, title: 'After', labels: ['fresh'] })).data;
    const n = issue.number;
    expect([issue.url, issue.html_url, issue.repository_url, issue.comments_url]).toEqual([
      `${api}/issues/${n}`,
      `${web}/issues/${n}`,
      api,
      `${api}/issues/${n}/comments`,
    ]);
    expect((issue.labels[0] as { url: string }).url).toBe(`${api}/labels/fresh`);
    expect((await octokit.rest.issues.getLabel({ ...now, name: 'fresh' })).data.url).toBe(`${api}/labels/fresh`);
    const listed = (await octokit.rest.issues.listForRepo({ ...now })).data.find((one) => one.number === n);
    expect(listed?.html_url).toBe(`${web}/issues/${n}`);
    const comment = (await octokit.rest.issues.createComment({ ...now, issue_number: n, body: 'Hi' })).data;
    expect([comment.url, comment.html_url, comment.issue_url]).toEqual([
      `${api}/issues/comments/${comment.id}`,
      `${web}/issues/${n}#issuecomment-${comment.id}`,
      `${api}/issues/${n}`,
    ]);
    const pull = (await octokit.rest.pulls.create({ ...now, title: 'P', head: 'feature', base: 'main' })).data;
    expect([pull.url, pull.html_url, pull.issue_url, pull.diff_url]).toEqual([
      `${api}/pulls/${pull.number}`,
      `${web}/pull/${pull.number}`,
      `${api}/issues/${pull.number}`,
      `${web}/pull/${pull.number}.diff`,
    ]);
    expect((await octokit.rest.pulls.get({ ...now, pull_number: pull.number })).data.html_url).toBe(
      `${web}/pull/${pull.number}`,
    );
    const milestone = (await octokit.rest.issues.createMilestone({ ...now, title: 'v1' })).data;
    expect([milestone.url, milestone.html_url]).toEqual([
      `${api}/milestones/${milestone.number}`,
      `${web}/milestone/${milestone.number}`,
    ]);
    // Made before the rename: the URLs of the name it was made under.
    const kept = (await octokit.rest.issues.get({ ...now, issue_number: before.number })).data;
    expect(kept.html_url).toBe(`https://github.com/octocat/${old.repo}/issues/${before.number}`);
  });

  it('makes issues only in repositories that exist, and answers 404 below one never made', async () => {
    const org = `made-${place}`;
    await octokit.rest.repos.createInOrg({ org, name: 'app' });
    const issue = await octokit.rest.issues.create({ owner: org, repo: 'app', title: 'Kept' });
    expect(issue.data.number).toBe(1);
    // The owner made one explicitly: another of its repositories is GitHub's 404.
    const elsewhere = octokit.rest.issues.create({ owner: org, repo: 'never-made', title: 'Lost' });
    expect(await failure(elsewhere)).toEqual([404, NOT_FOUND]);
    expect(await failure(octokit.rest.issues.listForRepo({ owner: org, repo: 'never-made' }))).toEqual([
      404,
      NOT_FOUND,
    ]);
    // A renamed repository's issues go with it.
    await octokit.rest.repos.update({ owner: org, repo: 'app', name: 'application' });
    const listed = await octokit.rest.issues.listForRepo({ owner: org, repo: 'application' });
    expect(listed.data.map((one) => one.title)).toEqual(['Kept']);
    expect((await octokit.rest.issues.get({ owner: org, repo: 'app', issue_number: 1 })).data.title).toBe('Kept');
    // A new repository of the old name is a repository of its own: none of the renamed one's issues.
    await octokit.rest.repos.createInOrg({ org, name: 'app' });
    expect((await octokit.rest.issues.listForRepo({ owner: org, repo: 'app' })).data).toEqual([]);
    expect((await octokit.rest.issues.create({ owner: org, repo: 'app', title: 'New' })).data.number).toBe(1);
    expect(
      (await octokit.rest.issues.listForRepo({ owner: org, repo: 'application' })).data.map((one) => one.title),
    ).toEqual(['Kept']);
    // A rename changes the repository's own name and URLs, not its owner, nor what the user wrote.
    const repos = await octokit.rest.repos.createInOrg({ org, name: 'repos', description: `see ${org}/repos` });
    const moved = await octokit.rest.repos.update({ owner: org, repo: 'repos', name: 'tools' });
    expect(moved.data).toMatchObject({
      full_name: `${org}/tools`,
      html_url: `https://github.com/${org}/tools`,
      description: `see ${org}/repos`,
      owner: repos.data.owner,
    });

    // A repository never made: every request below it is GitHub's 404 (the missing repository
    // before a body's fault), and nothing a write sent is kept — not the repository either.
    const owner = `never-${place}`;
    const never = { owner, repo: 'tool' };
    const refusals = [
      () => octokit.rest.repos.get(never),
      () => octokit.rest.issues.listForRepo(never),
      () => octokit.rest.issues.create({ ...never, title: 'First' }),
      () => octokit.request('POST /repos/{owner}/{repo}/issues' as string, never),
      () => octokit.rest.git.createRef({ ...never, ref: 'refs/heads/a..b', sha: SHA_A }),
      () => octokit.rest.issues.createLabel({ ...never, name: 'bug', color: 'd73a4a' }),
      () => octokit.rest.repos.createWebhook({ ...never, config: { url: 'http://127.0.0.1:9/hook' } }),
      // A target GitHub never sends to, refused at a repository held: the missing repository first.
      () => octokit.rest.repos.createWebhook({ ...never, config: { url: 'file:///etc/passwd' } }),
      () => octokit.rest.issues.create({ owner, repo: 'a:b', title: 'Odd' }),
    ];
    for (const refused of refusals) expect(await failure(refused())).toEqual([404, NOT_FOUND]);
    expect(await failure(octokit.rest.repos.get(never))).toEqual([404, NOT_FOUND]);
    // Nor is the organization held, before a repository is made in it: GitHub's 404 for its list.
    expect(await failure(octokit.rest.repos.listForOrg({ org: owner }))).toEqual([404, NOT_FOUND]);
    // Made, it is written to as any other.
    await octokit.rest.repos.createInOrg({ org: owner, name: 'tool' });
    expect((await octokit.rest.issues.create({ ...never, title: 'First' })).data.number).toBe(1);
  });

  it('keeps git refs by name: create, read, match, update, delete', async () => {
    const repo = { owner: 'octocat', repo: `refs-${place}` };
    // Two commits the repository holds (a ref points at one it holds): its first, and a file written after.
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const SHA_A = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    const written = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'b.txt',
      message: 'B',
      content: Buffer.from('b').toString('base64'),
    });
    const SHA_B = String(written.data.commit.sha);
    const made = await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: SHA_A });
    const api = `https://api.github.com/repos/octocat/${repo.repo}/git`;
    const expected = (sha: string) => ({
      ref: 'refs/heads/feature',
      node_id: made.data.node_id,
      url: `${api}/refs/heads/feature`,
      object: { sha, type: 'commit', url: `${api}/commits/${sha}` },
    });
    expect([made.status, made.data]).toEqual([201, expected(SHA_A)]);
    expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/feature' })).data).toEqual(expected(SHA_A));
    const twice = octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha: SHA_B });
    expect(await failure(twice)).toEqual([
      422,
      { message: 'Reference already exists', documentation_url: 'https://docs.github.com/rest' },
    ]);
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/fix', sha: SHA_B });
    await octokit.rest.git.createRef({ ...repo, ref: 'refs/tags/v1', sha: SHA_B });
    const heads = await octokit.rest.git.listMatchingRefs({ ...repo, ref: 'heads/f' });
    expect(heads.data.map((ref) => ref.ref)).toEqual(['refs/heads/feature', 'refs/heads/fix']);
    const moved = await octokit.rest.git.updateRef({ ...repo, ref: 'heads/feature', sha: SHA_B, force: true });
    expect(moved.data).toEqual(expected(SHA_B));
    expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/feature' })).data.object.sha).toBe(SHA_B);
    expect((await octokit.rest.git.deleteRef({ ...repo, ref: 'heads/feature' })).status).toBe(204);
    expect(await failure(octokit.rest.git.getRef({ ...repo, ref: 'heads/feature' }))).toEqual([404, NOT_FOUND]);
  });

  it('keeps files with their git blob SHA: create, read, a directory, update by sha, delete', async () => {
    const repo = { owner: 'octocat', repo: `files-${place}` };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    // The root of a repository with no file yet: GitHub's 404 of an empty repository.
    expect(await failure(octokit.rest.repos.getContent({ ...repo, path: '' }))).toEqual([
      404,
      { message: 'This repository is empty.', documentation_url: 'https://docs.github.com/rest' },
    ]);
    const text = 'Hello, twin.\n';
    const put = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'docs/README.md',
      message: 'Add the readme',
      content: Buffer.from(text).toString('base64'),
    });
    expect(put.status).toBe(201);
    expect(put.data.content).toMatchObject({ path: 'docs/README.md', name: 'README.md', sha: blobSha(text) });
    expect(put.data.commit).toMatchObject({ message: 'Add the readme' });
    const read = await octokit.rest.repos.getContent({ ...repo, path: 'docs/README.md' });
    const file = read.data as { type: string; encoding: string; content: string; sha: string; size: number };
    expect([file.type, file.encoding, file.sha, file.size]).toEqual(['file', 'base64', blobSha(text), text.length]);
    expect(Buffer.from(file.content, 'base64').toString()).toBe(text);
    await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'docs/guide/start.md',
      message: 'Add a guide',
      content: Buffer.from('Start.').toString('base64'),
    });
    const dir = await octokit.rest.repos.getContent({ ...repo, path: 'docs' });
    expect((dir.data as { name: string; type: string }[]).map((one) => [one.name, one.type])).toEqual([
      ['README.md', 'file'],
      ['guide', 'dir'],
    ]);
    await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'LICENSE',
      message: 'Add a license',
      content: Buffer.from('MIT').toString('base64'),
    });
    // The root directory: `path: ''` (Octokit sends `…/contents`), and `…/contents/` as curl may send it.
    const entries = (data: unknown) =>
      (data as { name: string; path: string; type: string }[]).map((one) => [one.name, one.path, one.type]);
    const root = await octokit.rest.repos.getContent({ ...repo, path: '' });
    expect(entries(root.data)).toEqual([
      ['LICENSE', 'LICENSE', 'file'],
      ['docs', 'docs', 'dir'],
    ]);
    expect(entries((await octokit.request('GET /repos/{owner}/{repo}/contents/', repo)).data)).toEqual(
      entries(root.data),
    );
    // An update needs the file's sha: none is 422, another 409.
    const change = {
      ...repo,
      path: 'docs/README.md',
      message: 'Change',
      content: Buffer.from('New').toString('base64'),
    };
    expect(await failure(octokit.rest.repos.createOrUpdateFileContents(change))).toEqual([
      422,
      { message: 'Invalid request.\n\n"sha" wasn\'t supplied.', documentation_url: 'https://docs.github.com/rest' },
    ]);
    const wrong = octokit.rest.repos.createOrUpdateFileContents({ ...change, sha: SHA_A });
    expect(await failure(wrong)).toEqual([
      409,
      { message: `docs/README.md does not match ${SHA_A}`, documentation_url: 'https://docs.github.com/rest' },
    ]);
    const updated = await octokit.rest.repos.createOrUpdateFileContents({ ...change, sha: blobSha(text) });
    expect([updated.status, updated.data.content?.sha]).toEqual([200, blobSha('New')]);
    const gone = await octokit.rest.repos.deleteFile({
      ...repo,
      path: 'docs/README.md',
      message: 'Rm',
      sha: blobSha('New'),
    });
    expect(gone.status).toBe(200);
    expect(await failure(octokit.rest.repos.getContent({ ...repo, path: 'docs/README.md' }))).toEqual([404, NOT_FOUND]);
  });
});

it('keeps repositories per namespace, the redirect relative to the namespace', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  expect((await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: 'team' } })).status).toBe(
    201,
  );
  for (const prefix of ['/ns/team', '']) {
    const twin = await requestJson(`${daemon.url}${prefix}/api/endpoints/gh/twin`, {
      method: 'PUT',
      body: { provider: 'github' },
    });
    expect(twin.status).toBe(200);
  }
  const team = new Octokit({ auth: 'ghp_1', baseUrl: `${daemon.url}/ns/team/endpoint/gh`, log: QUIET_LOG });
  const root = new Octokit({ auth: 'ghp_1', baseUrl: `${daemon.url}/endpoint/gh`, log: QUIET_LOG });
  await team.rest.repos.createForAuthenticatedUser({ name: 'kept', private: true });
  expect((await team.rest.repos.get({ owner: 'octocat', repo: 'kept' })).data.private).toBe(true);
  expect(await failure(root.rest.repos.get({ owner: 'octocat', repo: 'kept' }))).toEqual([404, NOT_FOUND]);
  await team.rest.repos.update({ owner: 'octocat', repo: 'kept', name: 'renamed' });
  const followed = await team.rest.repos.get({ owner: 'octocat', repo: 'kept' });
  expect(followed.data.full_name).toBe('octocat/renamed');
});
