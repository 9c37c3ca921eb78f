// The GitHub twin's organizations (issue #73), through @octokit/rest against the built daemon in
// memory, on LevelDB, on a real redis-server and in a namespace, `unseen` at its default: an
// organization is made on github.com, so the twin holds one from the first repository made in it
// (`repos.createInOrg`); `orgs.get` reads it with its repositories counted (GitHub's 404 for a
// login that is none), `orgs.update` changes the fields GitHub's reference names (a value of the
// wrong type `422 Validation Failed`), `orgs.listForAuthenticatedUser` and `orgs.list` list it as
// `organization-simple`, and it stays when its repositories are deleted. And a seeded fuzz of the
// organization's login and the fields sent, /api/health answering throughout. Every process
// listens on 127.0.0.1.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { requestJson } from './helpers/daemon.js';
import { GITHUB_NOT_FOUND, QUIET_LOG, rejection } from './helpers/octokit.js';
import { wellFormed } from './helpers/random-message.js';
import { TWIN_PLACES, twinAt, twinDaemon, useTwinRedis } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

const twinRedis = useTwinRedis();

const SIMPLE_KEYS = [
  'avatar_url',
  'description',
  'events_url',
  'hooks_url',
  'id',
  'issues_url',
  'login',
  'members_url',
  'node_id',
  'public_members_url',
  'repos_url',
  'url',
];

describe.each(TWIN_PLACES)("the GitHub twin's organizations (%s)", (place) => {
  it('holds an organization from its first repository, reads, changes and lists it', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    expect(await rejection(octokit.rest.orgs.get({ org: 'acme' }))).toEqual(GITHUB_NOT_FOUND);
    expect((await octokit.rest.orgs.listForAuthenticatedUser()).data).toEqual([]);

    await octokit.rest.repos.createInOrg({ org: 'Acme', name: 'site' });
    await octokit.rest.repos.createInOrg({ org: 'acme', name: 'vault', private: true });
    const org = (await octokit.rest.orgs.get({ org: 'acme' })).data;
    expect(org).toMatchObject({
      login: 'Acme',
      type: 'Organization',
      url: 'https://api.github.com/orgs/Acme',
      repos_url: 'https://api.github.com/orgs/Acme/repos',
      html_url: 'https://github.com/Acme',
      public_repos: 1,
      total_private_repos: 1,
      owned_private_repos: 1,
      description: null,
      default_repository_permission: 'read',
    });
    // The organization its repositories name is this one.
    const site = (await octokit.rest.repos.get({ owner: 'acme', repo: 'site' })).data;
    expect(site.owner).toMatchObject({ login: 'Acme', id: org.id, type: 'Organization' });

    const changed = await octokit.rest.orgs.update({
      org: 'acme',
      description: 'We make things',
      blog: 'https://acme.example',
      default_repository_permission: 'write',
      members_can_create_public_repositories: false,
    });
    expect(changed.data).toMatchObject({
      description: 'We make things',
      blog: 'https://acme.example',
      default_repository_permission: 'write',
      members_can_create_public_repositories: false,
    });
    expect((await octokit.rest.orgs.get({ org: 'ACME' })).data).toEqual(changed.data);
    const wrong = octokit.rest.orgs.update({ org: 'acme', default_repository_permission: 'owner' as 'read' });
    expect(await rejection(wrong)).toEqual([
      422,
      expect.objectContaining({
        message: 'Validation Failed',
        errors: [{ resource: 'Organization', code: 'invalid', field: 'default_repository_permission' }],
      }),
    ]);
    expect(await rejection(octokit.rest.orgs.update({ org: 'nobody', description: 'x' }))).toEqual(GITHUB_NOT_FOUND);

    const mine = (await octokit.rest.orgs.listForAuthenticatedUser()).data;
    expect(mine).toHaveLength(1);
    expect(Object.keys(mine[0] ?? {}).sort()).toEqual(SIMPLE_KEYS);
    expect(mine[0]).toMatchObject({ login: 'Acme', id: org.id, description: 'We make things' });
    expect((await octokit.rest.orgs.list()).data.map((one) => one.login)).toEqual(['Acme']);
    expect((await octokit.rest.orgs.list({ since: org.id })).data).toEqual([]);
    // A refused create makes no organization; a login no account can have is GitHub's 404.
    const refused = octokit.rest.repos.createInOrg({ org: 'ghost', name: '' });
    expect((await rejection(refused))[0]).toBe(422);
    expect(await rejection(octokit.rest.orgs.get({ org: 'ghost' }))).toEqual(GITHUB_NOT_FOUND);
    for (const login of ['-acme', 'ac--me', 'a'.repeat(40), 'ac me']) {
      expect(await rejection(octokit.rest.repos.createInOrg({ org: login, name: 'x' })), login).toEqual(
        GITHUB_NOT_FOUND,
      );
    }
    // GET /organizations pages by id: its Link names the next `since`, as GitHub's does.
    await octokit.rest.repos.createInOrg({ org: 'beta', name: 'b' });
    await octokit.rest.repos.createInOrg({ org: 'gamma', name: 'g' });
    const ids = (await octokit.rest.orgs.list()).data.map((one) => one.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toHaveLength(3);
    const first = await octokit.rest.orgs.list({ per_page: 2 });
    expect(first.data.map((one) => one.id)).toEqual(ids.slice(0, 2));
    expect(first.headers.link).toBe(`<${twin.root}/organizations?per_page=2&since=${ids[1]}>; rel="next"`);
    const all = await octokit.paginate(octokit.rest.orgs.list, { per_page: 2 });
    expect(all.map((one) => one.id)).toEqual(ids);
    // Memberships are private until made public: another's view lists none.
    expect((await octokit.rest.orgs.listForUser({ username: 'octocat' })).data).toEqual([]);

    // The organization outlives its repositories, as on GitHub.
    await octokit.rest.repos.delete({ owner: 'acme', repo: 'site' });
    await octokit.rest.repos.delete({ owner: 'acme', repo: 'vault' });
    expect((await octokit.rest.orgs.get({ org: 'acme' })).data).toMatchObject({
      login: 'Acme',
      description: 'We make things',
      public_repos: 0,
      total_private_repos: 0,
    });
    expect((await octokit.rest.orgs.listForAuthenticatedUser()).data.map((one) => one.login)).toEqual([
      'Acme',
      'beta',
      'gamma',
    ]);
  });
});

const SEED = 7331;
const CASES = 200;
const LOGINS = ['acme', 'Acme', 'octo-org', 'b', 'A-1', 'x9'];

it(`answers ${CASES} random organization requests (seed ${SEED}) as GitHub does`, async () => {
  const { daemon, root } = await twinDaemon('github', 'memory');
  const auth = { authorization: 'token ghp_fuzz' };
  const health = await watchWhileFuzzing(daemon);
  const random = prng(SEED);
  const made = new Set<string>();
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    // Random code points, or one of a few logins (so that organizations are made, then read and changed).
    const login =
      random() < 0.5
        ? (LOGINS[Math.floor(random() * LOGINS.length)] as string)
        : wellFormed(randomText(random, 1 + Math.floor(random() * 40)));
    // A path segment as a client sends one: every UTF-8 byte percent-encoded.
    const segment = [...Buffer.from(login, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const roll = random();
    let answer: { status: number; body: unknown };
    if (roll < 0.35) {
      answer = await requestJson(`${root}/orgs/${segment}/repos`, {
        method: 'POST',
        headers: auth,
        body: { name: `r${i}` },
      });
      if (answer.status === 201) made.add(login.toLowerCase());
    } else if (roll < 0.7) {
      const field = ['description', 'name', 'blog', 'has_organization_projects', 'default_repository_permission'][
        i % 5
      ];
      const value = random() < 0.5 ? randomText(random, Math.floor(random() * 1200)) : random() < 0.5;
      answer = await requestJson(`${root}/orgs/${segment}`, {
        method: 'PATCH',
        headers: auth,
        body: { [field as string]: value, ...(random() < 0.3 ? { [randomText(random, 8)]: 1 } : {}) },
      });
    } else {
      answer = await requestJson(`${root}/orgs/${segment}`, { headers: auth });
      if (answer.status === 200)
        expect((answer.body as { login: string }).login.toLowerCase()).toBe(login.toLowerCase());
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect([200, 201, 404, 422], `${login} → ${answer.status}`).toContain(answer.status);
    if (answer.status >= 400) expect(JSON.stringify(answer.body).length).toBeLessThan(1000);
  }
  expect(statuses.get(201)).toBeGreaterThan(20);
  expect(statuses.get(200)).toBeGreaterThan(20);
  expect(statuses.get(422)).toBeGreaterThan(5);
  await health.check();
  // Every organization made is listed once.
  const listed = await requestJson(`${root}/user/orgs?per_page=100`, { headers: auth });
  expect(listed.status).toBe(200);
  const logins = (listed.body as { login: string }[]).map((org) => org.login.toLowerCase());
  expect(new Set(logins).size).toBe(logins.length);
  // Those a repository was made in, and no other (a refused create, a login no account can have, makes none).
  expect(logins.length).toBeLessThan(100);
  expect(new Set(logins)).toEqual(made);
});
