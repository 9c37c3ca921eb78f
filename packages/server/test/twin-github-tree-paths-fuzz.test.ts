// Seeded fuzz of the paths a GitHub twin's tree keeps (docs/twins-github.md, "The Git database
// API"): random code points as the `path` of `POST …/git/trees` entries (one to three components,
// now and then `.`, `..`, `.git`, an empty one, `__proto__` or `constructor`), each with random text
// as its `content`, to the built daemon on LevelDB on 127.0.0.1. Every request is `201` or GitHub's
// `422 tree.path contains a malformed path component` (the rule git checks: no component empty,
// `.`, `..` or `.git`, no NUL), never a 500; a tree made reads back (`getTree` recursive) with each
// path sent exactly, its blob git's SHA-1 of the content's UTF-8; what an error says stays bounded;
// /api/health answers throughout.
import { createHash } from 'node:crypto';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 8486;
const CASES = 150;
const ODD = ['.', '..', '.git', '.GIT', '', '__proto__', 'constructor', 'prototype'];

/** Git's blob SHA-1 of `text`'s UTF-8 (a lone surrogate as U+FFFD's bytes, as the daemon reads JSON text). */
const blobSha = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
};

/** Whether git (and GitHub) takes `path` in a tree. */
const takes = (path: string) =>
  path.length <= 4096 &&
  path
    .split('/')
    .every(
      (part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git' && !part.includes('\0'),
    );

it(`keeps ${CASES} random tree paths (seed ${SEED}) exactly, or refuses them as GitHub does`, async () => {
  const { daemon, root } = await twinDaemon('github', 'level');
  const auth = { authorization: 'token ghp_treefuzz' };
  const repo = `${root}/repos/octocat/trees`;
  const made = await requestJson(`${root}/user/repos`, {
    method: 'POST',
    headers: auth,
    body: { name: 'trees', auto_init: true },
  });
  expect(made.status).toBe(201);
  const head = await requestJson(`${repo}/git/ref/heads/main`, { headers: auth });
  const commit = await requestJson(`${repo}/git/commits/${(head.body as { object: { sha: string } }).object.sha}`, {
    headers: auth,
  });
  const base = (commit.body as { tree: { sha: string } }).tree.sha;
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const component = () =>
    random() < 0.15
      ? (ODD[Math.floor(random() * ODD.length)] as string)
      : randomText(random, 1 + Math.floor(random() * 16));
  let kept = 0;
  for (let i = 0; i < CASES; i++) {
    const entries = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
      path: Array.from({ length: 1 + Math.floor(random() * 3) }, component).join('/'),
      mode: '100644',
      type: 'blob',
      content: randomText(random, Math.floor(random() * 40)),
    }));
    // As the daemon reads the JSON text: each lone surrogate kept as sent (JSON escapes it).
    const answer = await requestJson(`${repo}/git/trees`, {
      method: 'POST',
      headers: auth,
      body: { base_tree: base, tree: entries },
    });
    const label = JSON.stringify(entries.map((entry) => entry.path));
    const valid = entries.every((entry) => takes(entry.path));
    expect(answer.status, `${label} → ${answer.status}`).toBe(valid ? 201 : 422);
    if (!valid) {
      expect(answer.body).toMatchObject({ message: 'tree.path contains a malformed path component' });
      expect(JSON.stringify(answer.body).length).toBeLessThan(1000);
      continue;
    }
    // Paths that are one another's directories (`a` and `a/b`): the later entry wins, as in git; only the status is checked.
    const paths = entries.map((entry) => entry.path);
    const clash = paths.some((one, at) =>
      paths.some((other, to) => to !== at && (other === one || other.startsWith(`${one}/`))),
    );
    if (clash) continue;
    const sha = (answer.body as { sha: string }).sha;
    const read = await requestJson(`${repo}/git/trees/${sha}?recursive=1`, { headers: auth });
    expect(read.status).toBe(200);
    const listed = new Map(
      (read.body as { tree: { path: string; type: string; sha: string }[] }).tree.map((entry) => [entry.path, entry]),
    );
    for (const entry of entries) {
      expect(listed.get(entry.path), `${JSON.stringify(entry.path)} in ${label}`).toMatchObject({
        type: 'blob',
        sha: blobSha(entry.content),
      });
    }
    expect(listed.get('README.md')).toMatchObject({ type: 'blob' });
    kept++;
  }
  expect(kept).toBeGreaterThan(CASES / 4);
  await health.check();
});
