// The GitHub twin's uniqueness rules under concurrent requests (issue #73), through @octokit/rest
// against the built daemon in memory, on LevelDB, on a real redis-server and in a namespace, and
// across two replicas on one redis-server: twelve clients at once making one repository name, one
// release tag, one label, one branch or one asset name get one `201` and eleven of GitHub's `422`,
// and one thing is kept; twelve issues made at once take twelve numbers of the repository's one
// sequence. Each rule is a read then a write in the twin's flows: they hold because a twin's
// changes run one at a time per name (across replicas, in turns on Redis). Every process listens
// on 127.0.0.1.
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { startDaemon } from './helpers/daemon.js';
import { QUIET_LOG } from './helpers/octokit.js';
import { TWIN_PLACES, type TwinDaemon, twinAt, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();
const AT_ONCE = 12;

/** `make` run {@link AT_ONCE} times at once (`i` its index): the statuses, fulfilled first as 201s. */
async function atOnce(make: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const settled = await Promise.allSettled(Array.from({ length: AT_ONCE }, (_, i) => make(i)));
  return settled
    .map((one) => (one.status === 'fulfilled' ? one.value.status : (one.reason as { status: number }).status))
    .sort();
}

const ONE_MADE = [201, ...Array.from({ length: AT_ONCE - 1 }, () => 422)];

/** Clients of the twin: `clients[i % clients.length]` makes the i-th of a race (two replicas take turns). */
async function races(clients: readonly Octokit[]): Promise<void> {
  const [first] = clients as [Octokit];
  const client = (i: number) => clients[i % clients.length] as Octokit;
  const owner = (await first.rest.users.getAuthenticated()).data.login;

  expect(await atOnce((i) => client(i).rest.repos.createForAuthenticatedUser({ name: 'raced' }))).toEqual(ONE_MADE);
  const repos = (await first.rest.repos.listForAuthenticatedUser()).data.filter((one) => one.name === 'raced');
  expect(repos).toHaveLength(1);
  const repo = { owner, repo: 'raced' };

  expect(await atOnce((i) => client(i).rest.repos.createRelease({ ...repo, tag_name: 'v1.0.0' }))).toEqual(ONE_MADE);
  const releases = (await first.rest.repos.listReleases(repo)).data;
  expect(releases.map((one) => one.tag_name)).toEqual(['v1.0.0']);

  expect(await atOnce((i) => client(i).rest.issues.createLabel({ ...repo, name: 'bug', color: 'd73a4a' }))).toEqual(
    ONE_MADE,
  );
  expect((await first.rest.issues.listLabelsForRepo(repo)).data.filter((one) => one.name === 'bug')).toHaveLength(1);

  const file = await first.rest.repos.createOrUpdateFileContents({
    ...repo,
    path: 'README.md',
    message: 'Add the README',
    content: Buffer.from('# raced\n').toString('base64'),
  });
  const sha = file.data.commit.sha as string;
  expect(await atOnce((i) => client(i).rest.git.createRef({ ...repo, ref: 'refs/heads/feature', sha }))).toEqual(
    ONE_MADE,
  );
  const refs = (await first.rest.git.listMatchingRefs({ ...repo, ref: 'heads/feature' })).data;
  expect(refs.map((one) => one.ref)).toEqual(['refs/heads/feature']);

  const [release] = releases as [(typeof releases)[number]];
  const upload = (i: number) =>
    client(i).rest.repos.uploadReleaseAsset({
      ...repo,
      release_id: release.id,
      url: release.upload_url,
      name: 'tool.tar.gz',
      data: `bytes of upload ${i}`,
    });
  expect(await atOnce(upload)).toEqual(ONE_MADE);
  expect((await first.rest.repos.listReleaseAssets({ ...repo, release_id: release.id })).data).toHaveLength(1);

  const issues = await atOnce((i) => client(i).rest.issues.create({ ...repo, title: `race ${i}` }));
  expect(issues).toEqual(Array.from({ length: AT_ONCE }, () => 201));
  const numbers = (await first.rest.issues.listForRepo({ ...repo, state: 'all', per_page: 100 })).data
    .map((one) => one.number)
    .sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: AT_ONCE }, (_, i) => i + 1));
}

const octokitAt = (twin: Pick<TwinDaemon, 'root'>) =>
  new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });

describe.each(TWIN_PLACES)('the GitHub twin under concurrent requests (%s)', (place) => {
  it('keeps one of each name made at once, and one number sequence', async () => {
    const twin = await twinAt('github', place, twinRedis);
    await races([octokitAt(twin)]);
  });
});

describe('the GitHub twin on two replicas of one redis-server', () => {
  it('keeps one of each name made at once through both, and one number sequence', async () => {
    const redis = await twinRedis.store('redis');
    const one = await twinDaemon('github', redis);
    const other = await startDaemon({
      args: ['--serve', `${one.name}=0`],
      env: { MOCKPOINT_REDIS_URL: (redis as { redis: string }).redis },
    });
    const note = other.notes.find((line) => line.startsWith(`${one.name} served at `));
    expect(note, other.startLine).toBeDefined();
    const root = (note as string).slice(`${one.name} served at `.length);
    await races([octokitAt(one), octokitAt({ root })]);
  });
});
