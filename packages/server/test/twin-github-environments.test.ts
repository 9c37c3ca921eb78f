// The GitHub twin's deployment environments (issue #73), through @octokit/rest against the built
// daemon in memory, on LevelDB, on a real redis-server and in a namespace, `unseen` at its default:
// an environment made and updated by `PUT` (its protection rules from what was sent, a field not
// sent kept), read (its name in any case), listed (`{ total_count, environments }`, paged) and
// deleted; GitHub's 404 for one never made and 422 for the settings its reference refuses; and
// names of random code points (seeded) made, read back by their name and deleted. Every process
// listens on 127.0.0.1.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Octokit, type RestEndpointMethodTypes } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, runCli } from './helpers/daemon.js';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { wellFormed } from './helpers/random-message.js';
import { TWIN_PLACES, twinAt, useTwinRedis } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

const twinRedis = useTwinRedis();

const SEED = 5171;
const NAMES = 30;

describe.each(TWIN_PLACES)("the GitHub twin's deployment environments (%s)", (place) => {
  it('makes, updates, reads, lists and deletes environments with their protection rules', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'deployed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    expect((await octokit.rest.repos.getAllEnvironments(repo)).data).toEqual({ total_count: 0, environments: [] });
    const never = octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'staging' });
    expect(await rejection(never)).toEqual(GITHUB_NOT_FOUND);

    // Made with no settings: no rules, every branch.
    const staging = await octokit.rest.repos.createOrUpdateEnvironment({ ...repo, environment_name: 'staging' });
    expect(staging.status).toBe(200);
    expect(staging.data).toMatchObject({
      name: 'staging',
      url: 'https://api.github.com/repos/octocat/deployed/environments/staging',
      html_url: 'https://github.com/octocat/deployed/deployments/activity_log?environments_filter=staging',
      protection_rules: [],
      deployment_branch_policy: null,
    });

    // Its rules as sent; a field not sent then kept, `null` clearing one.
    const guarded = await octokit.rest.repos.createOrUpdateEnvironment({
      ...repo,
      environment_name: 'Production',
      wait_timer: 30,
      prevent_self_review: true,
      reviewers: [{ type: 'User', id: 1 }],
      deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
    });
    const rules = guarded.data.protection_rules ?? [];
    expect(rules.map((rule) => rule.type)).toEqual(['wait_timer', 'required_reviewers', 'branch_policy']);
    expect(rules[0]).toMatchObject({ type: 'wait_timer', wait_timer: 30 });
    expect(rules[1]).toMatchObject({ prevent_self_review: true, reviewers: [{ type: 'User', reviewer: { id: 1 } }] });
    const updated = await octokit.rest.repos.createOrUpdateEnvironment({
      ...repo,
      environment_name: 'production',
      wait_timer: 5,
      deployment_branch_policy: null,
    });
    expect(updated.data).toMatchObject({ id: guarded.data.id, name: 'Production', deployment_branch_policy: null });
    const after = updated.data.protection_rules ?? [];
    expect(after.map((rule) => [rule.type, rule.id])).toEqual([
      ['wait_timer', rules[0]?.id],
      ['required_reviewers', rules[1]?.id],
    ]);
    expect(after[0]).toMatchObject({ wait_timer: 5 });

    // Read in any case; listed oldest first, paged.
    const read = await octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'PRODUCTION' });
    expect(read.data).toEqual(updated.data);
    const listed = await octokit.rest.repos.getAllEnvironments(repo);
    expect([listed.data.total_count, listed.data.environments?.map((one) => one.name)]).toEqual([
      2,
      ['staging', 'Production'],
    ]);
    const page = await octokit.rest.repos.getAllEnvironments({ ...repo, per_page: 1, page: 2 });
    expect([page.data.total_count, page.data.environments?.map((one) => one.name)]).toEqual([2, ['Production']]);

    // What GitHub's reference refuses: 422 with its words, nothing changed.
    const refusals: Partial<RestEndpointMethodTypes['repos']['createOrUpdateEnvironment']['parameters']>[] = [
      { wait_timer: 43_201 },
      { deployment_branch_policy: { protected_branches: true, custom_branch_policies: true } },
      { reviewers: [{ type: 'User', id: 42 }] },
      { reviewers: Array.from({ length: 7 }, () => ({ type: 'User' as const, id: 1 })) },
    ];
    for (const settings of refusals) {
      const answer = octokit.rest.repos.createOrUpdateEnvironment({
        ...repo,
        environment_name: 'staging',
        ...settings,
      });
      expect(await rejection(answer), JSON.stringify(settings)).toEqual([
        422,
        { message: expect.any(String), documentation_url: expect.any(String) },
      ]);
    }
    expect((await octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'staging' })).data).toEqual(
      staging.data,
    );

    // Deleted: gone from reads and the list; a second delete is GitHub's 404.
    const removed = await octokit.rest.repos.deleteAnEnvironment({ ...repo, environment_name: 'staging' });
    expect(removed.status).toBe(204);
    expect(await rejection(octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'staging' }))).toEqual(
      GITHUB_NOT_FOUND,
    );
    expect(await rejection(octokit.rest.repos.deleteAnEnvironment({ ...repo, environment_name: 'staging' }))).toEqual(
      GITHUB_NOT_FOUND,
    );
    expect((await octokit.rest.repos.getAllEnvironments(repo)).data.total_count).toBe(1);
    // Another repository's environments are its own.
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'other' });
    const other = await octokit.rest.repos.getAllEnvironments({ owner: 'octocat', repo: 'other' });
    expect(other.data.total_count).toBe(0);
  });

  it('empties environments, topics, releases by tag and assets on a reset; an export carries them back', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'kept' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    await octokit.rest.repos.createOrUpdateEnvironment({ ...repo, environment_name: 'production', wait_timer: 5 });
    await octokit.rest.repos.replaceAllTopics({ ...repo, names: ['twin', 'octokit'] });
    const release = (await octokit.rest.repos.createRelease({ ...repo, tag_name: 'v1.0' })).data;
    await octokit.rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'app.zip',
      data: 'zip bytes' as unknown as string,
      headers: { 'content-type': 'application/zip' },
    });
    const held = async () => ({
      environment: (await octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'production' })).data.name,
      topics: (await octokit.rest.repos.getAllTopics(repo)).data.names,
      release: (await octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0' })).data.id,
      assets: (await octokit.rest.repos.listReleaseAssets({ ...repo, release_id: release.id })).data.map(
        (asset) => asset.name,
      ),
    });
    const before = await held();
    expect(before).toEqual({
      environment: 'production',
      topics: ['twin', 'octokit'],
      release: release.id,
      assets: ['app.zip'],
    });

    const dir = await makeTempDir();
    const env = { MOCKPOINT_URL: twin.api };
    const run = await runCli({ args: ['export', '--names', twin.name, '--out', 'github.json'], env, cwd: dir });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const file = await readFile(join(dir, 'github.json'), 'utf8');
    // The twin's own records and its releases, exported as the name's collections.
    for (const text of ['"production"', '"octokit"', '"v1.0"', '"app.zip"']) expect(file).toContain(text);

    const reset = await requestJson(`${twin.api}/api/endpoints/${twin.name}/reset`, { method: 'POST' });
    expect(reset.status).toBeLessThan(300);
    // Emptied: the repository itself is gone (GitHub's 404 below it), and nothing it held answers.
    expect(await rejection(octokit.rest.repos.get(repo))).toEqual(GITHUB_NOT_FOUND);
    expect(await rejection(octokit.rest.repos.getEnvironment({ ...repo, environment_name: 'production' }))).toEqual(
      GITHUB_NOT_FOUND,
    );
    expect(await rejection(octokit.rest.repos.getReleaseByTag({ ...repo, tag: 'v1.0' }))).toEqual(GITHUB_NOT_FOUND);
    expect(await rejection(octokit.rest.repos.getReleaseAsset({ ...repo, asset_id: 1 }))).toEqual(GITHUB_NOT_FOUND);
    // A read below a repository no longer made is GitHub's 404, as below one never made (docs/twins.md).
    expect(await rejection(octokit.rest.repos.getAllTopics(repo))).toEqual(GITHUB_NOT_FOUND);

    const applied = await runCli({ args: ['apply', 'github.json'], env, cwd: dir });
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect(await held()).toEqual(before);
  });

  it(`makes, reads and deletes ${NAMES} environments of random names (seed ${SEED})`, async () => {
    const twin = await twinAt('github', place, twinRedis);
    // Its /api/health asked all through, not only after (a daemon stuck or gone fails the test).
    const health = await watchWhileFuzzing(twin.daemon);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'fuzzed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const random = prng(SEED);
    // Octokit encodes the path's name (encodeURIComponent), which a lone surrogate cannot be: sent as
    // U+FFFD, as UTF-8 carries it; `.` and `..` a URL resolves away.
    // One name of each spelling (names are not case sensitive).
    const byCase = new Map(['prod/eu', 'a b', '%2F', '#1?x=&y', 'x'.repeat(256)].map((name) => [name, name]));
    while (byCase.size < NAMES) {
      const name = wellFormed(randomText(random, 1 + Math.floor(random() * 40)));
      if (!/^\.{1,2}$/.test(name)) byCase.set(name.toLowerCase(), name);
    }
    const names = [...byCase.values()];
    for (const name of names) {
      const made = octokit.rest.repos.createOrUpdateEnvironment({ ...repo, environment_name: name });
      if (name.length > 255) {
        expect((await rejection(made))[0], 'a name past 255').toBe(422);
        continue;
      }
      const id = (await made).data.id;
      // Read in capitals where they are the same name (`ß` is `SS`, another name lowered).
      const upper = name.toUpperCase().toLowerCase() === name.toLowerCase() ? name.toUpperCase() : name;
      const read = await octokit.rest.repos.getEnvironment({ ...repo, environment_name: upper });
      expect([read.data.id, read.data.name], JSON.stringify(name)).toEqual([id, name]);
    }
    const listed = (await octokit.rest.repos.getAllEnvironments({ ...repo, per_page: 100 })).data;
    expect([listed.total_count, listed.environments?.length]).toEqual([names.length - 1, names.length - 1]);
    for (const name of names) {
      if (name.length <= 255) await octokit.rest.repos.deleteAnEnvironment({ ...repo, environment_name: name });
    }
    expect((await octokit.rest.repos.getAllEnvironments(repo)).data).toEqual({ total_count: 0, environments: [] });
    // Any bytes as the path's name (invalid UTF-8 too): an environment never made, GitHub's 404.
    for (let i = 0; i < NAMES; i++) {
      const bytes = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 256));
      const path = bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      const answer = await fetch(`${twin.root}/repos/octocat/fuzzed/environments/${path}`, {
        headers: { authorization: 'token ghp_test123' },
      });
      expect([answer.status, await answer.json()], path).toEqual(GITHUB_NOT_FOUND);
    }
    await health.check();
  });
});
