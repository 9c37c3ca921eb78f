// The GitHub twin's release assets (issue #73), through @octokit/rest against the built daemon in
// memory, on LevelDB, on a real redis-server and in a namespace: a release's `upload_url` at the
// twin's own root (a `--serve` port's, and `/endpoint/{name}` or `/ns/{namespace}/endpoint/{name}`
// on the daemon's port), an asset uploaded there as Octokit's
// `uploadReleaseAsset` sends it, its bytes read back, listed, in the release's `assets`, renamed and
// deleted; a second of one name `422 already_exists`; a release never made, or deleted, GitHub's
// 404. Every process listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon } from './helpers/daemon.js';
import { madeRepos, QUIET_LOG, rejection } from './helpers/octokit.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

/** Bytes no UTF-8 decoder keeps whole: every byte value, twice. */
const BINARY = Uint8Array.from({ length: 512 }, (_, at) => at % 256);

describe.each(TWIN_PLACES)("the GitHub twin's release assets (%s)", (place) => {
  it("keeps each asset's browser_download_url at its release's tag as the tag changes", async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'moving' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0' })).data;
    const upload = (name: string) =>
      octokit.rest.repos.uploadReleaseAsset({
        ...repo,
        release_id: release.id,
        url: release.upload_url,
        name,
        data: 'bytes',
      });
    const asset = (await upload('app.zip')).data;
    const download = (tag: string, name: string) =>
      `https://github.com/octocat/moving/releases/download/${tag}/${name}`;
    expect(asset.browser_download_url).toBe(download('v1.0.0', 'app.zip'));

    // A new tag (one a URL encodes too): the update's answer, the release, its list, the asset read.
    const moved = await octokit.rest.repos.updateRelease({ ...repo, release_id: release.id, tag_name: 'v1.1 rc' });
    const at = download('v1.1%20rc', 'app.zip');
    expect(moved.data.assets.map((one) => one.browser_download_url)).toEqual([at]);
    expect((await octokit.rest.repos.getRelease({ ...repo, release_id: release.id })).data.assets).toEqual([
      { ...asset, browser_download_url: at },
    ]);
    const listed = await octokit.rest.repos.listReleaseAssets({ ...repo, release_id: release.id });
    expect(listed.data.map((one) => one.browser_download_url)).toEqual([at]);
    expect((await octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: asset.id })).data).toEqual({
      ...asset,
      browser_download_url: at,
    });
    // Renamed after the move, and one uploaded after it: at the new tag.
    const renamed = await octokit.rest.repos.updateReleaseAsset({ ...repo, asset_id: asset.id, name: 'app-1.zip' });
    expect(renamed.data.browser_download_url).toBe(download('v1.1%20rc', 'app-1.zip'));
    expect((await upload('notes.txt')).data.browser_download_url).toBe(download('v1.1%20rc', 'notes.txt'));
    // Moved again: every asset follows, in the release and read alone.
    await octokit.rest.repos.updateRelease({ ...repo, release_id: release.id, tag_name: 'v2' });
    const again = await octokit.rest.repos.getRelease({ ...repo, release_id: release.id });
    expect(again.data.assets.map((one) => one.browser_download_url)).toEqual([
      download('v2', 'app-1.zip'),
      download('v2', 'notes.txt'),
    ]);
    const read = await octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: asset.id });
    expect(read.data.browser_download_url).toBe(download('v2', 'app-1.zip'));
  });

  it('uploads at the release’s upload_url, reads, lists, renames and deletes an asset', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'widgets' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0' })).data;
    expect(release.upload_url).toBe(`${twin.root}/repos/octocat/widgets/releases/${release.id}/assets{?name,label}`);
    expect(release.assets).toEqual([]);

    // As Octokit's docs upload one: at the release's `upload_url`, the bytes as `data`.
    const uploaded = await octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'widgets linux.tar.gz',
      label: 'Linux build',
      data: Buffer.from(BINARY) as unknown as string,
      headers: { 'content-type': 'application/gzip' },
    });
    expect(uploaded.status).toBe(201);
    const asset = uploaded.data;
    expect(asset).toMatchObject({
      name: 'widgets.linux.tar.gz',
      label: 'Linux build',
      state: 'uploaded',
      content_type: 'application/gzip',
      size: BINARY.length,
      digest: `sha256:${createHash('sha256').update(BINARY).digest('hex')}`,
      download_count: 0,
      uploader: { login: 'octocat' },
      url: `https://api.github.com/repos/octocat/widgets/releases/assets/${asset.id}`,
      browser_download_url: 'https://github.com/octocat/widgets/releases/download/v1.0.0/widgets.linux.tar.gz',
    });

    // Read as JSON and as its bytes, listed, and in the release's `assets`.
    const read = await octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: asset.id });
    expect(read.data).toEqual(asset);
    const bytes = await fetch(`${twin.root}/repos/octocat/widgets/releases/assets/${asset.id}`, {
      headers: { accept: 'application/octet-stream', authorization: 'token ghp_test123' },
    });
    expect([bytes.status, bytes.headers.get('content-type')]).toEqual([200, 'application/gzip']);
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(BINARY);
    const listed = await octokit.rest.repos.listReleaseAssets({ ...repo, release_id: release.id });
    expect(listed.data.map((one) => one.name)).toEqual(['widgets.linux.tar.gz']);
    const withAssets = await octokit.rest.repos.getRelease({ ...repo, release_id: release.id });
    expect(withAssets.data.assets).toEqual([asset]);

    // A second of one name on the release: GitHub's `already_exists`; another name is taken.
    const again = octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'widgets.linux.tar.gz',
      data: 'again',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await rejection(again)).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [{ resource: 'ReleaseAsset', code: 'already_exists', field: 'name' }],
      }),
    ]);
    const notes = await octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'NOTES.txt',
      data: 'Read me.',
      headers: { 'content-type': 'text/plain' },
    });
    expect([notes.data.size, notes.data.label, notes.data.content_type]).toEqual([8, '', 'text/plain']);

    // Renamed (onto the other's name: refused), then deleted: gone from the list and the release.
    const clash = octokit.rest.repos.updateReleaseAsset({ ...repo, asset_id: notes.data.id, name: asset.name });
    expect(await rejection(clash)).toEqual([422, expect.objectContaining({ message: 'Validation Failed' })]);
    const renamed = await octokit.rest.repos.updateReleaseAsset({
      ...repo,
      asset_id: asset.id,
      name: 'widgets-linux.tgz',
      label: 'Linux',
    });
    expect(renamed.data).toMatchObject({
      name: 'widgets-linux.tgz',
      label: 'Linux',
      browser_download_url: 'https://github.com/octocat/widgets/releases/download/v1.0.0/widgets-linux.tgz',
    });
    const removed = await octokit.rest.repos.deleteReleaseAsset({ ...repo, asset_id: notes.data.id });
    expect(removed.status).toBe(204);
    expect(await rejection(octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: notes.data.id }))).toEqual([
      404,
      expect.objectContaining({ message: 'Not Found' }),
    ]);
    const after = await octokit.rest.repos.getRelease({ ...repo, release_id: release.id });
    expect(after.data.assets.map((one) => [one.id, one.name])).toEqual([[asset.id, 'widgets-linux.tgz']]);

    // Its release deleted: no asset of it is found, and none is uploaded to it.
    await octokit.rest.repos.deleteRelease({ ...repo, release_id: release.id });
    expect((await rejection(octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: asset.id })))[0]).toBe(404);
    const orphan = octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'late.txt',
      data: 'late',
      headers: { 'content-type': 'text/plain' },
    });
    expect((await rejection(orphan))[0]).toBe(404);
  });

  it('gives the upload_url of the root the request reached, and refuses an asset with no name', async () => {
    const twin = await twinAt('github', place, twinRedis);
    // The daemon's port, below `/endpoint/{name}` (in a namespace, its root already is).
    const root = place === 'namespace' ? twin.root : `${twin.daemon.url}/endpoint/${twin.name}`;
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'gadgets' };
    await madeRepos(octokit, 'octocat/gadgets');
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v2' })).data;
    expect(release.upload_url).toBe(`${root}/repos/octocat/gadgets/releases/${release.id}/assets{?name,label}`);
    // No `name`: GitHub's `missing_field`, nothing kept.
    const unnamed = await fetch(`${root}/repos/octocat/gadgets/releases/${release.id}/assets`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: 'token ghp_test123' },
      body: 'x',
    });
    expect(unnamed.status).toBe(422);
    expect(await unnamed.json()).toMatchObject({
      errors: [{ resource: 'ReleaseAsset', code: 'missing_field', field: 'name' }],
    });
    expect((await octokit.rest.repos.listReleaseAssets({ ...repo, release_id: release.id })).data).toEqual([]);
    // A release never made: GitHub's 404.
    const never = octokit.rest.repos.listReleaseAssets({ ...repo, release_id: 999_999 });
    expect((await rejection(never))[0]).toBe(404);
  });
});

it('gives the upload_url of the root reached on Bun: a --serve port, /endpoint/{name}, a namespace', async () => {
  // The daemon on the real Bun binary (Bun.serve and the Fetch front door), whatever the project's runtime.
  const daemon = await startDaemon({ args: ['--memory', '--serve', 'gh=0'], runtime: 'bun' });
  const note = daemon.notes.find((line) => line.startsWith('gh served at '));
  expect(note, daemon.startLine).toBeDefined();
  expect((await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: 'team' } })).status).toBe(
    201,
  );
  for (const admin of [`${daemon.url}/api`, `${daemon.url}/ns/team/api`]) {
    const made = await requestJson(`${admin}/endpoints/gh/twin`, { method: 'PUT', body: { provider: 'github' } });
    expect(made.status).toBe(200);
  }
  const roots = [
    (note as string).slice('gh served at '.length),
    `${daemon.url}/endpoint/gh`,
    `${daemon.url}/ns/team/endpoint/gh`,
  ];
  for (const [at, root] of roots.entries()) {
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: `bun${at}` };
    await madeRepos(octokit, `octocat/${repo.repo}`);
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1' })).data;
    expect(release.upload_url).toBe(`${root}/repos/octocat/${repo.repo}/releases/${release.id}/assets{?name,label}`);
    // Uploaded where it says, read back through the same root.
    const uploaded = await octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'bun.bin',
      data: Buffer.from(BINARY) as unknown as string,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect([uploaded.status, uploaded.data.size]).toEqual([201, BINARY.length]);
    const listed = await octokit.rest.repos.listReleaseAssets({ ...repo, release_id: release.id });
    expect(listed.data.map((one) => one.name)).toEqual(['bun.bin']);
  }
});
