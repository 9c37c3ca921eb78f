// The GitHub twin's Git database API keeps real git objects (issue #84), through @octokit/rest
// against the built daemon in memory and on LevelDB: Octokit's usual flow (getRef → getCommit →
// createBlob → createTree with base_tree → createCommit with parents → updateRef) moves the branch
// to a commit getContent, listCommits and compareCommits all see; a non-fast-forward move is
// refused unless forced; trees, blobs and annotated tags are read back from state; a SHA the
// repository does not hold is refused in GitHub's words. Every process listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { QUIET_LOG, rejection } from './helpers/octokit.js';
import { hookReceiver, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const NO_SHA = 'f'.repeat(40);
const DOCS = 'https://docs.github.com/rest';
/** Bytes no text encoding keeps as they are: every byte value once. */
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, at) => at));

/** Git's blob SHA-1 of `bytes`, as `git hash-object` makes it. */
const blobSha = (bytes: Buffer) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');

describe.each(['memory', 'level'] as const)("the GitHub twin's Git database API (%s)", (place) => {
  it('takes Octokit’s usual flow and shows its commit everywhere', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_gitdb', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'gitdb' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });

    const ref = await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' });
    const parent = await octokit.rest.git.getCommit({ ...repo, commit_sha: ref.data.object.sha });
    expect(parent.data).toMatchObject({ sha: ref.data.object.sha, message: 'Initial commit', parents: [] });
    const blob = await octokit.rest.git.createBlob({ ...repo, content: BINARY.toString('base64'), encoding: 'base64' });
    expect(blob.status).toBe(201);
    expect(blob.data.sha).toBe(blobSha(BINARY));
    const text = await octokit.rest.git.createBlob({ ...repo, content: 'héllo\n' });
    expect(text.data.sha).toBe(blobSha(Buffer.from('héllo\n')));
    const tree = await octokit.rest.git.createTree({
      ...repo,
      base_tree: parent.data.tree.sha,
      tree: [
        { path: 'data/all.bin', mode: '100644', type: 'blob', sha: blob.data.sha },
        { path: 'docs/hello.txt', mode: '100644', type: 'blob', content: 'héllo\n' },
      ],
    });
    expect(tree.status).toBe(201);
    expect(tree.data.tree.map((entry) => [entry.path, entry.type])).toEqual([
      ['README.md', 'blob'],
      ['data', 'tree'],
      ['docs', 'tree'],
    ]);
    const author = { name: 'Mona', email: 'mona@example.com', date: '2026-01-02T03:04:05Z' };
    const made = await octokit.rest.git.createCommit({
      ...repo,
      message: 'Add the data',
      tree: tree.data.sha,
      parents: [parent.data.sha],
      author,
    });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ message: 'Add the data', author, tree: { sha: tree.data.sha } });
    expect(made.data.parents.map((one) => one.sha)).toEqual([parent.data.sha]);
    const moved = await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: made.data.sha });
    expect(moved.data.object.sha).toBe(made.data.sha);

    // The new file's bytes exactly, the commit first in the history, the file in the comparison.
    const file = await octokit.rest.repos.getContent({ ...repo, path: 'data/all.bin' });
    expect(Buffer.from((file.data as { content: string }).content, 'base64')).toEqual(BINARY);
    const hello = await octokit.rest.repos.getContent({ ...repo, path: 'docs/hello.txt' });
    expect(Buffer.from((hello.data as { content: string }).content, 'base64').toString()).toBe('héllo\n');
    const commits = await octokit.rest.repos.listCommits(repo);
    expect(commits.data.map((one) => one.sha)).toEqual([made.data.sha, parent.data.sha]);
    expect(commits.data[0]?.commit.author).toMatchObject(author);
    const compared = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: `${parent.data.sha}...main`,
    });
    expect(compared.data).toMatchObject({ status: 'ahead', ahead_by: 1 });
    expect(compared.data.files?.map((file) => [file.filename, file.status])).toEqual([
      ['data/all.bin', 'added'],
      ['docs/hello.txt', 'added'],
    ]);
    const read = await octokit.rest.git.getCommit({ ...repo, commit_sha: made.data.sha });
    expect(read.data).toMatchObject({ sha: made.data.sha, author, tree: { sha: tree.data.sha } });

    // A tree read back, whole or by its directories; a blob with its bytes.
    const whole = await octokit.rest.git.getTree({ ...repo, tree_sha: tree.data.sha, recursive: '1' });
    expect(whole.data.truncated).toBe(false);
    expect(whole.data.tree.map((entry) => [entry.path, entry.type, entry.size])).toEqual([
      ['README.md', 'blob', 8],
      ['data', 'tree', undefined],
      ['data/all.bin', 'blob', 256],
      ['docs', 'tree', undefined],
      ['docs/hello.txt', 'blob', 7],
    ]);
    const docs = whole.data.tree.find((entry) => entry.path === 'docs');
    const below = await octokit.rest.git.getTree({ ...repo, tree_sha: String(docs?.sha) });
    expect(below.data.tree.map((entry) => [entry.path, entry.sha])).toEqual([['hello.txt', text.data.sha]]);
    // A directory's tree placed again at another path, a file replaced by a directory.
    const copied = await octokit.rest.git.createTree({
      ...repo,
      base_tree: tree.data.sha,
      tree: [
        { path: 'copy', mode: '040000', type: 'tree', sha: String(docs?.sha) },
        { path: 'README.md/inner.txt', mode: '100644', type: 'blob', sha: text.data.sha },
      ],
    });
    const listed = await octokit.rest.git.getTree({ ...repo, tree_sha: copied.data.sha, recursive: 'true' });
    expect(listed.data.tree.filter((entry) => entry.type === 'blob').map((entry) => entry.path)).toEqual([
      'README.md/inner.txt',
      'copy/hello.txt',
      'data/all.bin',
      'docs/hello.txt',
    ]);
    const byBranch = await octokit.rest.git.getTree({ ...repo, tree_sha: 'main' });
    expect(byBranch.data.sha).toBe(tree.data.sha);
    const got = await octokit.rest.git.getBlob({ ...repo, file_sha: blob.data.sha });
    expect(got.data).toMatchObject({ sha: blob.data.sha, size: 256, encoding: 'base64' });
    expect(Buffer.from(got.data.content, 'base64')).toEqual(BINARY);
    expect((await octokit.rest.git.getBlob({ ...repo, file_sha: blob.data.sha })).data.node_id).toBe(got.data.node_id);

    // A move backwards is no fast-forward: refused, then taken with `force`; a file removed with `sha: null`.
    const back = octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: parent.data.sha });
    expect(await rejection(back)).toEqual([
      422,
      { message: 'Update is not a fast forward', documentation_url: expect.stringContaining(DOCS) },
    ]);
    expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha).toBe(made.data.sha);
    const less = await octokit.rest.git.createTree({
      ...repo,
      base_tree: tree.data.sha,
      tree: [{ path: 'data/all.bin', mode: '100644', type: 'blob', sha: null }],
    });
    const side = await octokit.rest.git.createCommit({
      ...repo,
      message: 'Aside',
      tree: less.data.sha,
      parents: [parent.data.sha],
    });
    const diverged = octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: side.data.sha, force: false });
    expect((await rejection(diverged))[0]).toBe(422);
    await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: side.data.sha, force: true });
    expect((await rejection(octokit.rest.repos.getContent({ ...repo, path: 'data/all.bin' })))[0]).toBe(404);
    expect((await octokit.rest.repos.listCommits(repo)).data.map((one) => one.sha)).toEqual([
      side.data.sha,
      parent.data.sha,
    ]);

    // An annotated tag of the commit, read back, and a tag ref at it.
    const tagger = { name: 'Mona', email: 'mona@example.com', date: '2026-02-03T04:05:06Z' };
    const tag = await octokit.rest.git.createTag({
      ...repo,
      tag: 'v1.0.0',
      message: 'The first',
      object: made.data.sha,
      type: 'commit',
      tagger,
    });
    expect(tag.status).toBe(201);
    const tagRead = await octokit.rest.git.getTag({ ...repo, tag_sha: tag.data.sha });
    expect(tagRead.data).toMatchObject({
      tag: 'v1.0.0',
      message: 'The first',
      tagger,
      object: { sha: made.data.sha, type: 'commit' },
    });
    const tagRef = await octokit.rest.git.createRef({ ...repo, ref: 'refs/tags/v1.0.0', sha: tag.data.sha });
    expect(tagRef.data.object).toMatchObject({ sha: tag.data.sha, type: 'tag' });
  });

  it('takes no object in a repository with no commit yet, GitHub’s 409, until its first file', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_gitdb', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'gitdb-empty' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const empty = [409, { message: 'Git Repository is empty.', documentation_url: DOCS }];
    expect(await rejection(octokit.rest.git.createBlob({ ...repo, content: 'x' }))).toEqual(empty);
    const entry = { path: 'a.txt', mode: '100644' as const, type: 'blob' as const, content: 'x' };
    expect(await rejection(octokit.rest.git.createTree({ ...repo, tree: [entry] }))).toEqual(empty);
    expect(await rejection(octokit.rest.git.createCommit({ ...repo, message: 'm', tree: NO_SHA }))).toEqual(empty);
    expect(await rejection(octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/x', sha: NO_SHA }))).toEqual(empty);
    // The contents API makes the first commit (GitHub's way out); then the Git database takes objects.
    await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'README.md',
      message: 'first',
      content: 'eA==',
    });
    const blob = await octokit.rest.git.createBlob({ ...repo, content: 'x' });
    expect([blob.status, blob.data.sha]).toEqual([201, blobSha(Buffer.from('x'))]);
  });

  it('refuses a SHA the repository does not hold, in GitHub’s words, keeping nothing', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_gitdb', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'gitdb-no' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const head = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    const tree = (await octokit.rest.git.getCommit({ ...repo, commit_sha: head })).data.tree.sha;
    const said = async (promise: Promise<unknown>) => {
      const [status, body] = await rejection(promise);
      return [status, (body as { message: string }).message];
    };
    expect(await said(octokit.rest.git.createRef({ ...repo, ref: 'refs/heads/x', sha: NO_SHA }))).toEqual([
      422,
      'Object does not exist',
    ]);
    expect(await said(octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: NO_SHA, force: true }))).toEqual([
      422,
      'Object does not exist',
    ]);
    expect(await said(octokit.rest.git.createCommit({ ...repo, message: 'm', tree: NO_SHA }))).toEqual([
      422,
      'Tree SHA does not exist',
    ]);
    expect(await said(octokit.rest.git.createCommit({ ...repo, message: 'm', tree, parents: [NO_SHA] }))).toEqual([
      422,
      'Parent SHA does not exist or is not a commit object',
    ]);
    expect(
      await said(octokit.rest.git.createTag({ ...repo, tag: 't', message: 'm', object: NO_SHA, type: 'commit' })),
    ).toEqual([422, 'Object does not exist']);
    const entry = { path: 'a.txt', mode: '100644' as const, type: 'blob' as const, sha: NO_SHA };
    expect(await said(octokit.rest.git.createTree({ ...repo, base_tree: NO_SHA, tree: [] }))).toEqual([
      422,
      'base_tree is not a valid tree oid',
    ]);
    expect(await said(octokit.rest.git.createTree({ ...repo, tree: [entry] }))).toEqual([
      422,
      `tree.sha ${NO_SHA} is not a valid blob`,
    ]);
    // A tree of more entries than the twin takes at once: refused with its code.
    const many = Array.from({ length: 10_001 }, (_, at) => ({ ...entry, path: `f${at}`, sha: null }));
    const [status, body] = await rejection(octokit.rest.git.createTree({ ...repo, tree: many }));
    expect([status, (body as { message: string }).message]).toEqual([
      422,
      'A tree is made of at most 10000 entries at once; send it in parts (base_tree).',
    ]);
    for (const [kind, key] of [
      ['blobs', 'file_sha'],
      ['trees', 'tree_sha'],
      ['commits', 'commit_sha'],
      ['tags', 'tag_sha'],
    ] as const) {
      const read = octokit.request(`GET /repos/{owner}/{repo}/git/${kind}/{${key}}`, { ...repo, [key]: NO_SHA });
      expect([kind, (await rejection(read))[0]]).toEqual([kind, 404]);
    }
    // Nothing kept: the branch where it was, the history as it was.
    expect((await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha).toBe(head);
    expect((await octokit.rest.repos.listCommits(repo)).data).toHaveLength(1);
  });
  it('lists in a push the commits a ref’s move brings, oldest first, with their files', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_gitdb', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'pushed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const receiver = await hookReceiver();
    try {
      await octokit.rest.repos.createWebhook({ ...repo, config: { url: receiver.url, secret: 's' }, events: ['push'] });
      await receiver.until(1);
      const start = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
      const base = (await octokit.rest.git.getCommit({ ...repo, commit_sha: start })).data.tree.sha;
      // Two commits on top of the branch, made through the Git database API, then one move to the second.
      const first = await octokit.rest.git.createTree({
        ...repo,
        base_tree: base,
        tree: [{ path: 'a.txt', mode: '100644', type: 'blob', content: 'a\n' }],
      });
      const one = await octokit.rest.git.createCommit({
        ...repo,
        message: 'Add a',
        tree: first.data.sha,
        parents: [start],
      });
      const second = await octokit.rest.git.createTree({
        ...repo,
        base_tree: first.data.sha,
        tree: [
          { path: 'a.txt', mode: '100644', type: 'blob', content: 'a, again\n' },
          { path: 'README.md', mode: '100644', type: 'blob', sha: null },
        ],
      });
      const two = await octokit.rest.git.createCommit({
        ...repo,
        message: 'Change a, drop the README',
        tree: second.data.sha,
        parents: [one.data.sha],
      });
      await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: two.data.sha });
      // Back to the start (forced): nothing brought, as GitHub lists none.
      await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: start, force: true });
      await receiver.until(3);
      const pushes = receiver.received.slice(1).map((one) => JSON.parse(one.body) as Record<string, unknown>);
      expect(pushes.map((push) => [push.before, push.after, push.forced])).toEqual([
        [start, two.data.sha, false],
        [two.data.sha, start, true],
      ]);
      expect(pushes[0]?.commits).toEqual([
        expect.objectContaining({ id: one.data.sha, message: 'Add a', added: ['a.txt'], modified: [], removed: [] }),
        expect.objectContaining({
          id: two.data.sha,
          message: 'Change a, drop the README',
          added: [],
          modified: ['a.txt'],
          removed: ['README.md'],
          distinct: true,
          url: `https://github.com/octocat/pushed/commit/${two.data.sha}`,
        }),
      ]);
      expect(pushes[0]?.head_commit).toMatchObject({ id: two.data.sha, tree_id: second.data.sha });
      expect(pushes[1]?.commits).toEqual([]);
      expect(pushes[1]?.head_commit).toMatchObject({ id: start });
    } finally {
      await receiver.close();
    }
  });
  it('keeps a file of any name, `__proto__` as any other', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_gitdb', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'names' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo, auto_init: true });
    const head = (await octokit.rest.git.getRef({ ...repo, ref: 'heads/main' })).data.object.sha;
    const base = (await octokit.rest.git.getCommit({ ...repo, commit_sha: head })).data.tree.sha;
    const tree = await octokit.rest.git.createTree({
      ...repo,
      base_tree: base,
      tree: [
        { path: '__proto__', mode: '100644', type: 'blob', content: 'x\n' },
        { path: 'd/constructor', mode: '100644', type: 'blob', content: 'y\n' },
      ],
    });
    const paths = ['README.md', '__proto__', 'd', 'd/constructor'];
    const read = await octokit.rest.git.getTree({ ...repo, tree_sha: tree.data.sha, recursive: 'true' });
    expect(read.data.tree.map((entry) => entry.path)).toEqual(paths);
    const made = await octokit.rest.git.createCommit({
      ...repo,
      message: 'Odd names',
      tree: tree.data.sha,
      parents: [head],
    });
    await octokit.rest.git.updateRef({ ...repo, ref: 'heads/main', sha: made.data.sha });
    const file = await octokit.rest.repos.getContent({ ...repo, path: '__proto__' });
    expect(Buffer.from((file.data as { content: string }).content, 'base64').toString()).toBe('x\n');
  });
});
