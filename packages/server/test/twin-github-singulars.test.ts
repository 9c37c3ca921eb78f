// The GitHub twin's singular reads below a repository (issue #73, "a twin is judged against the
// real provider"), through @octokit/rest against the built daemon on every place (memory, LevelDB,
// Redis, a namespace), with `unseen` at its default: a repository just made has no README, no
// license, no Pages, no vulnerability alerts, no App installation and no CODEOWNERS (GitHub's 404,
// not the document's example), no topics, languages or stargazers; an unknown commit, comparison
// or branch is GitHub's 404. Then files written through the contents API give the README (of
// `.github`, the root, `docs`, in GitHub's order, or of a directory asked), the license with the
// license its text holds, the languages by bytes, CODEOWNERS' errors; topics replaced are read
// back (`422` for names GitHub refuses), an installation of the twin's App is the repository's.
// Topics and README directories of random code points (seeded) answer as GitHub would, never 500.
// Every process listens on 127.0.0.1.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { wellFormed } from './helpers/random-message.js';
import { sharedTwinAt, TWIN_PLACES, useTwinRedis } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

const twinRedis = useTwinRedis();

const SEED = 7373;
const FUZZED = 40;
const MIT =
  'MIT License\n\nCopyright (c) 2026 Octocat\n\nPermission is hereby granted, free of charge, to any person\n';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const decoded = (content: string) => Buffer.from(content, 'base64').toString();

describe.each(TWIN_PLACES)("the GitHub twin's singular reads below a repository (%s)", (place) => {
  const twinOf = sharedTwinAt('github', place, twinRedis, 3);

  it('answers them from what the repository holds, GitHub 404 for what it does not', async () => {
    const twin = await twinOf();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'widgets' };
    const made = (await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo })).data;
    const sha = 'a'.repeat(40);
    const missing: Record<string, () => Promise<unknown>> = {
      'repos.getReadme': () => octokit.rest.repos.getReadme(repo),
      'repos.getReadmeInDirectory': () => octokit.rest.repos.getReadmeInDirectory({ ...repo, dir: 'docs' }),
      'licenses.getForRepo': () => octokit.rest.licenses.getForRepo(repo),
      'repos.getPages': () => octokit.rest.repos.getPages(repo),
      'repos.getLatestPagesBuild': () => octokit.rest.repos.getLatestPagesBuild(repo),
      'repos.checkVulnerabilityAlerts': () => octokit.rest.repos.checkVulnerabilityAlerts(repo),
      'repos.checkAutomatedSecurityFixes': () => octokit.rest.repos.checkAutomatedSecurityFixes(repo),
      'apps.getRepoInstallation': () => octokit.rest.apps.getRepoInstallation(repo),
      'repos.codeownersErrors': () => octokit.rest.repos.codeownersErrors(repo),
      'git.getCommit': () => octokit.rest.git.getCommit({ ...repo, commit_sha: sha }),
      'repos.compareCommitsWithBasehead': () =>
        octokit.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...feature' }),
    };
    for (const [operation, send] of Object.entries(missing)) {
      expect([operation, await rejection(send())]).toEqual([operation, GITHUB_NOT_FOUND]);
    }
    // A commit of a repository with none: GitHub's 409, as its description gives it.
    expect(await rejection(octokit.rest.repos.getCommit({ ...repo, ref: sha }))).toEqual([
      409,
      { message: 'Git Repository is empty.', documentation_url: 'https://docs.github.com/rest' },
    ]);
    expect(await rejection(octokit.rest.repos.getBranch({ ...repo, branch: 'feature' }))).toEqual([
      404,
      { message: 'Branch not found', documentation_url: 'https://docs.github.com/rest' },
    ]);
    expect((await octokit.rest.repos.getAllTopics(repo)).data).toEqual({ names: [] });
    expect((await octokit.rest.repos.listLanguages(repo)).data).toEqual({});
    expect((await octokit.rest.activity.listStargazersForRepo(repo)).data).toEqual([]);
    expect((await octokit.rest.activity.getRepoSubscription(repo)).data).toMatchObject({
      subscribed: true,
      ignored: false,
      created_at: made.created_at,
    });
    expect((await octokit.rest.actions.getGithubActionsPermissionsRepository(repo)).data).toMatchObject({
      enabled: true,
      allowed_actions: 'all',
    });

    // Files written through the contents API.
    const write = async (path: string, text: string) =>
      octokit.rest.repos.createOrUpdateFileContents({ ...repo, path, message: `add ${path}`, content: base64(text) });
    await write('README.md', '# widgets\n');
    await write('docs/README.md', '# the docs\n');
    await write('LICENSE', MIT);
    await write('src/index.ts', 'export const one = 1;\n'.repeat(10));
    await write('src/tool.js', 'module.exports = 1;\n');
    await write('notes.md', 'prose is not counted\n'.repeat(50));
    const root = (await octokit.rest.repos.getReadme(repo)).data;
    expect([root.path, decoded(root.content)]).toEqual(['README.md', '# widgets\n']);
    const read = (await octokit.rest.repos.getContent({ ...repo, path: 'README.md' })).data;
    expect(root).toEqual(read);
    const docs = (await octokit.rest.repos.getReadmeInDirectory({ ...repo, dir: 'docs' })).data;
    expect([docs.path, decoded(docs.content)]).toEqual(['docs/README.md', '# the docs\n']);
    expect(await rejection(octokit.rest.repos.getReadmeInDirectory({ ...repo, dir: 'src' }))).toEqual(GITHUB_NOT_FOUND);
    // `.github` comes before the root, as GitHub shows it.
    await write('.github/readme.rst', 'shown first\n');
    expect((await octokit.rest.repos.getReadme(repo)).data.path).toBe('.github/readme.rst');

    const license = (await octokit.rest.licenses.getForRepo(repo)).data;
    expect([license.path, decoded(license.content)]).toEqual(['LICENSE', MIT]);
    expect(license.license).toMatchObject({ key: 'mit', spdx_id: 'MIT', url: 'https://api.github.com/licenses/mit' });
    expect((await octokit.rest.repos.listLanguages(repo)).data).toEqual({ TypeScript: 220, JavaScript: 20 });
    await write('.github/CODEOWNERS', '* @octocat\n');
    expect((await octokit.rest.repos.codeownersErrors(repo)).data).toEqual({ errors: [] });

    // Topics replaced, read back and on the repository; names GitHub refuses change nothing.
    const names = ['octokit', 'mock-server', 'octokit', '42'];
    expect((await octokit.rest.repos.replaceAllTopics({ ...repo, names })).data).toEqual({
      names: ['octokit', 'mock-server', '42'],
    });
    expect((await octokit.rest.repos.getAllTopics(repo)).data.names).toEqual(['octokit', 'mock-server', '42']);
    expect((await octokit.rest.repos.get(repo)).data.topics).toEqual(['octokit', 'mock-server', '42']);
    for (const refused of [['Upper'], ['-lead'], ['x'.repeat(51)], Array.from({ length: 21 }, (_, i) => `t${i}`)]) {
      const [status] = (await rejection(octokit.rest.repos.replaceAllTopics({ ...repo, names: refused }))) as unknown[];
      expect([refused, status]).toEqual([refused, 422]);
    }
    expect((await octokit.rest.repos.getAllTopics(repo)).data.names).toEqual(['octokit', 'mock-server', '42']);

    // The twin's App installed on the repository (as github.com's click is taken): its installation.
    await octokit.rest.apps.addRepoToInstallationForAuthenticatedUser({ installation_id: 5, repository_id: made.id });
    const installation = (await octokit.rest.apps.getRepoInstallation(repo)).data;
    expect([installation.id, installation.app_id]).toEqual([5, 1]);

    // Another repository holds none of it; one never made is GitHub's 404.
    const other = { owner: 'octocat', repo: 'bare' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: other.repo });
    expect(await rejection(octokit.rest.repos.getReadme(other))).toEqual(GITHUB_NOT_FOUND);
    expect(await rejection(octokit.rest.apps.getRepoInstallation(other))).toEqual(GITHUB_NOT_FOUND);
    expect((await octokit.rest.repos.getAllTopics(other)).data).toEqual({ names: [] });
    const never = { owner: 'octocat', repo: 'never' };
    expect(await rejection(octokit.rest.repos.getAllTopics(never))).toEqual(GITHUB_NOT_FOUND);
    expect(await rejection(octokit.rest.repos.getReadme(never))).toEqual(GITHUB_NOT_FOUND);
  });

  it("answers the repository's license as licenses.getForRepo tells it, in repos.get and its lists", async () => {
    const twin = await twinOf();
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'licensed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const shown = async () => {
      const read = (await octokit.rest.repos.get(repo)).data.license;
      const listed = (await octokit.rest.repos.listForAuthenticatedUser()).data.find((one) => one.name === repo.repo);
      expect(listed?.license).toEqual(read);
      return read;
    };
    expect(await shown()).toBeNull();
    const mit = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n';
    const file = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'LICENSE',
      message: 'license',
      content: base64(mit),
    });
    const told = (await octokit.rest.licenses.getForRepo(repo)).data.license;
    expect(told).toMatchObject({ key: 'mit', spdx_id: 'MIT' });
    expect(await shown()).toEqual(told);
    // Changed to a text the twin cannot tell: GitHub's `other`; deleted: none.
    const other = await octokit.rest.repos.createOrUpdateFileContents({
      ...repo,
      path: 'LICENSE',
      message: 'ours',
      content: base64('All rights reserved.\n'),
      sha: file.data.content?.sha,
    });
    expect(await shown()).toEqual((await octokit.rest.licenses.getForRepo(repo)).data.license);
    expect(await shown()).toMatchObject({ key: 'other', spdx_id: 'NOASSERTION' });
    await octokit.rest.repos.deleteFile({
      ...repo,
      path: 'LICENSE',
      message: 'rm',
      sha: String(other.data.content?.sha),
    });
    expect(await shown()).toBeNull();
  });

  it(`takes topics and README directories of random code points (seed ${SEED})`, async () => {
    const twin = await twinOf();
    // Its /api/health asked all through, not only after (a daemon stuck or gone fails the test).
    const health = await watchWhileFuzzing(twin.daemon);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const repo = { owner: 'octocat', repo: 'fuzzed' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
    const random = prng(SEED);
    let kept: string[] = [];
    for (let i = 0; i < FUZZED; i++) {
      const names = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        random() < 0.5 ? randomText(random, 1 + Math.floor(random() * 20)) : `t${Math.floor(random() * 100)}`,
      );
      const valid = names.every((name) => /^[a-z0-9][a-z0-9-]{0,49}$/.test(name));
      const answer = await rejection(octokit.rest.repos.replaceAllTopics({ ...repo, names }).then(({ data }) => data));
      if (valid) kept = [...new Set(names)];
      else expect([names, (answer as unknown[])[0]]).toEqual([names, 422]);
      expect((await octokit.rest.repos.getAllTopics(repo)).data.names, JSON.stringify(names)).toEqual(kept);
    }
    // A README written in a directory of random code points is read back there; none elsewhere.
    for (let i = 0; i < FUZZED; i++) {
      const dir = wellFormed(randomText(random, 1 + Math.floor(random() * 12))).replace(/[/\0]/g, '_');
      if (/^\.{1,2}$/.test(dir) || dir.toLowerCase() === '.git') continue;
      const path = `${dir}/README`;
      const content = base64(`readme ${i}\n`);
      const answer = await rejection(
        octokit.rest.repos.createOrUpdateFileContents({ ...repo, path, message: 'add', content }),
      );
      if (answer !== 'answered') {
        // A path a git tree cannot hold is refused (422), nothing kept.
        expect([dir, (answer as unknown[])[0]]).toEqual([dir, 422]);
        expect(await rejection(octokit.rest.repos.getReadmeInDirectory({ ...repo, dir }))).toEqual(GITHUB_NOT_FOUND);
        continue;
      }
      const read = (await octokit.rest.repos.getReadmeInDirectory({ ...repo, dir })).data;
      expect([read.path, decoded(read.content)], JSON.stringify(dir)).toEqual([path, `readme ${i}\n`]);
      const beside = `${dir}-none-${i}`;
      expect(await rejection(octokit.rest.repos.getReadmeInDirectory({ ...repo, dir: beside })), beside).toEqual(
        GITHUB_NOT_FOUND,
      );
    }
    await health.check();
  });
});
