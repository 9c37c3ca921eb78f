// The GitHub twin's releases by tag (issue #73), through @octokit/rest against the built daemon in
// memory, on LevelDB, on a real redis-server and in a namespace, `unseen` at its default: a
// published release read by its tag (`repos.getReleaseByTag`), a tag never released or only drafted
// GitHub's 404; a second published release of one tag refused as GitHub refuses it (`422`,
// `already_exists` on `tag_name`), made or by an update (a new tag, or a draft published), its
// tag free again once the release is deleted; tags of random code points (seeded) read back by
// their tag; the latest release (`repos.getLatestRelease`) as GitHub's docs define it: of the
// published releases that are no prerelease, the one made last (`created_at`, the daemon's clock
// frozen and advanced), GitHub's 404 when there is none. Every process listens on 127.0.0.1.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { requestJson } from './helpers/daemon.js';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { wellFormed } from './helpers/random-message.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

const twinRedis = useTwinRedis();

const TAG_TAKEN = [
  422,
  expect.objectContaining({
    message: 'Validation Failed',
    errors: [{ resource: 'Release', code: 'already_exists', field: 'tag_name' }],
    documentation_url: expect.any(String),
  }),
];
const SEED = 7307;
const TAGS = 40;

describe.each(TWIN_PLACES)("the GitHub twin's releases by tag (%s)", (place) => {
  it('reads a published release by its tag, and refuses a second of one tag', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'tagged' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0.0' }))).toEqual(GITHUB_NOT_FOUND);

    const first = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0', name: 'One' })).data;
    const byTag = await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0.0' });
    expect(byTag.status).toBe(200);
    expect(byTag.data).toEqual((await octokit.rest.repos.getRelease({ ...repo, release_id: first.id })).data);

    // A second published release of the tag: GitHub's `already_exists`, nothing kept.
    expect(await rejection(octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0' }))).toEqual(TAG_TAKEN);
    expect((await octokit.rest.repos.listReleases(repo)).data.map((one) => one.id)).toEqual([first.id]);

    // A draft may share the tag (GitHub's drafts do), is never read by it, and is not published onto it.
    const draft = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0', draft: true })).data;
    expect(draft.draft).toBe(true);
    expect((await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0.0' })).data.id).toBe(first.id);
    const publish = octokit.rest.repos.updateRelease({ ...repo, release_id: draft.id, draft: false });
    expect(await rejection(publish)).toEqual(TAG_TAKEN);
    const onlyDrafted = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v0.9', draft: true })).data;
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v0.9' }))).toEqual(GITHUB_NOT_FOUND);

    // An update onto a tag taken is refused; onto a free one, the release is read by its new tag only.
    const second = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v2.0.0' })).data;
    const onto = octokit.rest.repos.updateRelease({ ...repo, release_id: second.id, tag_name: 'v1.0.0' });
    expect(await rejection(onto)).toEqual(TAG_TAKEN);
    expect((await octokit.rest.repos.getRelease({ ...repo, release_id: second.id })).data.tag_name).toBe('v2.0.0');
    const moved = await octokit.rest.repos.updateRelease({ ...repo, release_id: second.id, tag_name: 'v2.0.1' });
    expect(moved.data).toMatchObject({
      tag_name: 'v2.0.1',
      html_url: 'https://github.com/octocat/tagged/releases/tag/v2.0.1',
      tarball_url: 'https://api.github.com/repos/octocat/tagged/tarball/v2.0.1',
    });
    expect((await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v2.0.1' })).data.id).toBe(second.id);
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v2.0.0' }))).toEqual(GITHUB_NOT_FOUND);
    // An update keeping its own tag is no clash.
    const renamed = await octokit.rest.repos.updateRelease({ ...repo, release_id: first.id, tag_name: 'v1.0.0' });
    expect(renamed.status).toBe(200);

    // Its release deleted, the tag is free: the draft is published onto it and read by it.
    await octokit.rest.repos.deleteRelease({ ...repo, release_id: first.id });
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0.0' }))).toEqual(GITHUB_NOT_FOUND);
    const published = await octokit.rest.repos.updateRelease({ ...repo, release_id: draft.id, draft: false });
    expect(published.data.published_at).not.toBeNull();
    expect((await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0.0' })).data.id).toBe(draft.id);
    // Another repository's tags are its own.
    const other = { owner: 'octocat', repo: 'other' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: other.repo });
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...other, tag: 'v1.0.0' }))).toEqual(GITHUB_NOT_FOUND);
    expect((await octokit.rest.repos.createRelease({ ...other, tag_name: 'v1.0.0' })).status).toBe(201);
    expect(onlyDrafted.draft).toBe(true);
  });

  it('answers the latest release: published, no prerelease, made last', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const clock = async (body: Record<string, unknown>) =>
      expect((await requestJson(`${twin.api}/api/clock`, { method: 'PUT', body })).status).toBe(200);
    await clock({ freeze: true, set: '2030-01-01T00:00:00Z' });
    const repo = { owner: 'octocat', repo: 'latest' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const latest = () =>
      octokit.rest.repos.getLatestRelease(repo).then(
        ({ data }) => data.tag_name,
        (error: { status: number; response?: { data?: unknown } }) => [error.status, error.response?.data],
      );
    const made = async (tag_name: string, more: { draft?: boolean; prerelease?: boolean } = {}) => {
      const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name, ...more })).data;
      await clock({ advance: '1s' });
      return release;
    };
    // None, then only a draft and a prerelease: GitHub's 404.
    expect(await latest()).toEqual(GITHUB_NOT_FOUND);
    await made('v0.1', { draft: true });
    await made('v0.2', { prerelease: true });
    expect(await latest()).toEqual(GITHUB_NOT_FOUND);

    const one = await made('v1.0');
    const answered = await octokit.rest.repos.getLatestRelease(repo);
    expect(answered.status).toBe(200);
    expect(answered.data).toEqual((await octokit.rest.repos.getRelease({ ...repo, release_id: one.id })).data);
    const drafted = await made('v3.0', { draft: true });
    const two = await made('v2.0');
    expect(await latest()).toBe('v2.0');
    // By when it was made, not when published: the draft made before v2.0, published after it.
    await octokit.rest.repos.updateRelease({ ...repo, release_id: drafted.id, draft: false });
    expect(await latest()).toBe('v2.0');
    // v2.0 a prerelease now: the draft published is the latest; deleted, v1.0 again.
    await octokit.rest.repos.updateRelease({ ...repo, release_id: two.id, prerelease: true });
    expect(await latest()).toBe('v3.0');
    await octokit.rest.repos.deleteRelease({ ...repo, release_id: drafted.id });
    expect(await latest()).toBe('v1.0');
    // Two made in one instant (the clock frozen): the one made second.
    await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v4.0' });
    await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v4.1' });
    expect(await latest()).toBe('v4.1');

    // Another repository has none of these; a repository never made is GitHub's 404.
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'bare' });
    expect(await rejection(octokit.rest.repos.getLatestRelease({ owner: 'octocat', repo: 'bare' }))).toEqual(
      GITHUB_NOT_FOUND,
    );
    expect(await rejection(octokit.rest.repos.getLatestRelease({ owner: 'octocat', repo: 'never' }))).toEqual(
      GITHUB_NOT_FOUND,
    );
  });

  it('moves the latest as make_latest says: "false" leaves it, "true" takes it, "legacy" goes by dates', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const clock = async (body: Record<string, unknown>) =>
      expect((await requestJson(`${twin.api}/api/clock`, { method: 'PUT', body })).status).toBe(200);
    await clock({ freeze: true, set: '2030-01-01T00:00:00Z' });
    const repo = { owner: 'octocat', repo: 'marked' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const latest = async () => (await octokit.rest.repos.getLatestRelease(repo)).data.tag_name;
    const made = async (tag_name: string, make_latest?: 'true' | 'false' | 'legacy', prerelease = false) => {
      const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name, make_latest, prerelease })).data;
      await clock({ advance: '1s' });
      return release;
    };
    await made('v1.0');
    // A newer release made with make_latest "false" is not the latest (GitHub's `releases/latest`).
    const two = await made('v2.0', 'false');
    expect(await latest()).toBe('v1.0');
    // "true" (the default) makes an older tag's release, made after, the latest.
    await made('v0.9-backport', 'true');
    expect(await latest()).toBe('v0.9-backport');
    await made('v3.0-rc', undefined, true);
    expect(await latest()).toBe('v0.9-backport');
    // An update with "true" makes v2.0 the latest, and a new tag_name does not move that.
    await octokit.rest.repos.updateRelease({ ...repo, release_id: two.id, make_latest: 'true' });
    expect(await latest()).toBe('v2.0');
    await octokit.rest.repos.updateRelease({ ...repo, release_id: two.id, tag_name: 'v2.0.1' });
    expect(await latest()).toBe('v2.0.1');
    // A refused create (its tag published already) moves nothing.
    expect((await rejection(octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0' })))[0]).toBe(422);
    expect(await latest()).toBe('v2.0.1');
    // "legacy": by the dates again, the last made that is no prerelease.
    await made('v0.1-old', 'legacy');
    expect(await latest()).toBe('v0.1-old');
    // The one made latest deleted: by the dates.
    await made('v4.0');
    await octokit.rest.repos.deleteRelease({
      ...repo,
      release_id: (await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v4.0' })).data.id,
    });
    expect(await latest()).toBe('v0.1-old');
  });

  it(`reads ${TAGS} releases of random tags (seed ${SEED}) back by their tag`, async () => {
    const twin = await twinAt('github', place, twinRedis);
    // Its /api/health asked all through, not only after (a daemon stuck or gone fails the test).
    const health = await watchWhileFuzzing(twin.daemon);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'fuzzed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const random = prng(SEED);
    const tags = new Set(['release/2024.1', 'vé-1', 'a b', '%2F', '#1?x=&y']);
    // Octokit encodes the path's tag (encodeURIComponent), which a lone surrogate cannot be: sent as
    // U+FFFD, as UTF-8 carries it (other bytes travel below); `.` and `..` a URL resolves away.
    while (tags.size < TAGS) {
      const tag = wellFormed(randomText(random, 1 + Math.floor(random() * 30)));
      if (!/^\.{1,2}$/.test(tag)) tags.add(tag);
    }
    for (const tag of tags) {
      const made = await octokit.rest.repos.createRelease({ ...repo, tag_name: tag });
      const read = await octokit.rest.repos.getReleaseByTag({ ...repo, tag });
      expect([read.data.id, read.data.tag_name], JSON.stringify(tag)).toEqual([made.data.id, tag]);
      expect(
        await rejection(octokit.rest.repos.createRelease({ ...repo, tag_name: tag })),
        JSON.stringify(tag),
      ).toEqual(TAG_TAKEN);
    }
    // Any bytes as the path's tag (invalid UTF-8 too): a tag never released, GitHub's 404.
    for (let i = 0; i < TAGS; i++) {
      const bytes = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 256));
      const path = bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      const answer = await fetch(`${twin.root}/repos/octocat/fuzzed/releases/tags/${path}`, {
        headers: { authorization: 'token ghp_test123' },
      });
      expect([answer.status, await answer.json()], path).toEqual(GITHUB_NOT_FOUND);
    }
    await health.check();
  });
});
