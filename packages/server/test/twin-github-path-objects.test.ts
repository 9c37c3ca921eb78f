// What a GitHub path names outside a repository (#84): on a fresh twin (`unseen: "missing"`)
// holding one organization (made by a repository created in it), each write of GitHub's document
// whose path names an object — a team, a gist, a notification thread, a package, an enterprise, a
// user, a repository outside `/repos/…`, an organization outside `/orgs/…`, an object below the
// organization held — sent naming one never made, with an empty body, is GitHub's `404 Not Found`
// (the object resolved before any value sent is read), and nothing is kept. Left out, each with
// why: a write that makes what its path names (`PUT …/secrets/{secret_name}`, answered `201`), and
// the few the EXCEPT table below lists. Generated from the document (read through the twins
// package's loader), against the built daemon on memory and LevelDB; every process listens on
// 127.0.0.1. The writes it covers are the parity ledger's evidence
// (docs/parity/github-path-objects.json, checked here; MOCKPOINT_WRITE_EVIDENCE=1 rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '@mockpoint/twins';
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

const { document } = await load('github');
const PATHS = (document as unknown as { paths: Record<string, Record<string, { responses?: object }>> }).paths;

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
const HEADERS = { authorization: 'Bearer ghp_pathobjects84', 'content-type': 'application/json' };
const WRITES = ['post', 'put', 'patch', 'delete'] as const;
const HELD_ORG = 'held84';

/** Writes whose path names nothing that must exist first, and why. */
const EXCEPT: Record<string, string> = {
  // A cluster is a name the records are set for: nothing makes one first (GitHub's "Set cluster deployment records").
  'POST /orgs/{org}/artifacts/metadata/deployment-record/cluster/{cluster}': 'sets the records of the cluster it names',
  'POST /orgs/{org}/artifacts/metadata/deployment-record/cluster/{cluster}/jobs':
    'sets the records of the cluster it names',
};

/** The path parameters of `template`, in order. */
const paramsOf = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);

/** The values of the path parameters the document limits to a list (`package_type`), the first of each. */
const LISTED: Record<string, string> = {
  package_type: 'npm',
  actor_type: 'User',
  security_product: 'dependency_graph',
  enablement: 'enable_all',
};

/** A value of `name` the twin never made: no login can be `no_such_user` (GitHub's logins take no `_`). */
function never(name: string): string {
  if (LISTED[name] !== undefined) return LISTED[name];
  if (name === 'username' || name === 'target_user') return 'no_such_user';
  if (/(number|_id)$/.test(name)) return '999999';
  return `never-${name}`;
}

/** Each write outside a repository whose path names an object besides the organization held, with its path. */
function cases() {
  return Object.entries(PATHS).flatMap(([template, item]) => {
    if (template.startsWith('/repos/{owner}/{repo}')) return [];
    const params = paramsOf(template);
    // Below the organization held, another object named; elsewhere, any.
    const named = params.filter(
      (param) => LISTED[param] === undefined && (param !== 'org' || !template.startsWith('/orgs/{org}/')),
    );
    if (named.length === 0) return [];
    // The organization held where another object is named, so that one is what is missing.
    const org = named.length > 1 || template.startsWith('/orgs/{org}/') ? HELD_ORG : never('org');
    return WRITES.filter((method) => item[method] !== undefined)
      .filter((method) => !(method === 'put' && '201' in (item[method]?.responses ?? {})))
      .map((method) => ({
        operation: `${method.toUpperCase()} ${template}`,
        path: template.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'org' ? org : never(name))),
      }))
      .filter((one) => EXCEPT[one.operation] === undefined);
  });
}

describe.each(['memory', 'level'] as const)('the GitHub twin, a path naming an object never made (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 3);

  it("answers each write naming one GitHub's 404, keeping nothing", { timeout: 120_000 }, async () => {
    const all = cases();
    const writes = all.map((one) => one.operation);
    expect(writes.length).toBeGreaterThan(150);
    expect(writes).toEqual(expect.arrayContaining(['PATCH /teams/{team_id}', 'POST /gists/{gist_id}/comments']));
    const { daemon, name, root } = await twin();
    const made = await fetch(`${root}/orgs/${HELD_ORG}/repos`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ name: 'kept' }),
    });
    expect(made.status).toBe(201);
    const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
    const before = await collections();
    const wrong: string[] = [];
    for (const one of all) {
      const method = one.operation.split(' ')[0] as string;
      const answer = await fetch(`${root}${one.path}`, {
        method,
        headers: HEADERS,
        body: method === 'DELETE' ? undefined : '{}',
      });
      const text = await answer.text();
      if (answer.status !== 404 || text !== JSON.stringify(NOT_FOUND))
        wrong.push(`${one.operation}: ${answer.status} ${text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(await collections()).toBe(before);
    const file = new URL('../../../docs/parity/github-path-objects.json', import.meta.url);
    const evidence = `${JSON.stringify(
      {
        provider: 'github',
        source: `twin-github-path-objects.test.ts: each write naming by its path an object never made answered GitHub's 404, nothing kept (${writes.length} passing)`,
        operations: [...writes].sort(),
      },
      null,
      2,
    )}\n`;
    if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(file, evidence);
    expect(readFileSync(file, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
  });

  it('finds each object it holds: a team by slug and by id, a gist, a repository, an attestation by id, its App', async () => {
    const { root } = await twin();
    const send = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${root}${path}`, {
        method,
        headers: HEADERS,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
    };
    expect((await send('POST', `/orgs/${HELD_ORG}/repos`, { name: 'kept' })).status).toBe(201);
    const team = await send('POST', `/orgs/${HELD_ORG}/teams`, { name: 'Core Team!' });
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({
      name: 'Core Team!',
      slug: 'core-team',
      html_url: `https://github.com/orgs/${HELD_ORG}/teams/core-team`,
    });
    const id = String(team.body?.id);
    // A second team whose name has the same slug: GitHub's 422, nothing made.
    expect(await send('POST', `/orgs/${HELD_ORG}/teams`, { name: 'core  TEAM' })).toEqual({
      status: 422,
      body: {
        message: 'Validation Failed',
        documentation_url: 'https://docs.github.com/rest',
        errors: [{ resource: 'Team', code: 'custom', field: 'name', message: 'Name must be unique for this org' }],
      },
    });
    expect((await send('GET', `/orgs/${HELD_ORG}/teams`)).body).toHaveLength(1);
    expect((await send('GET', `/orgs/${HELD_ORG}/teams/core-team`)).body).toMatchObject({ id: team.body?.id });
    expect((await send('GET', `/teams/${id}`)).body).toMatchObject({ slug: 'core-team' });
    expect((await send('GET', '/teams/999999')).status).toBe(404);
    expect((await send('GET', `/orgs/${HELD_ORG}/teams/core-team/members`)).status).toBe(200);
    expect((await send('GET', `/orgs/${HELD_ORG}/teams/other-team/members`)).status).toBe(404);
    expect((await send('PUT', `/orgs/${HELD_ORG}/teams/core-team/memberships/octocat`, {})).status).toBe(200);
    expect((await send('PUT', `/teams/${id}/repos/${HELD_ORG}/kept`, {})).status).toBe(204);
    expect((await send('PUT', `/teams/${id}/repos/${HELD_ORG}/gone`, {})).status).toBe(404);
    expect((await send('PUT', `/user/starred/${HELD_ORG}/kept`)).status).toBe(204);
    expect((await send('PUT', `/user/starred/${HELD_ORG}/gone`)).status).toBe(404);
    const gist = await send('POST', '/gists', { files: { 'a.txt': { content: 'x' } } });
    expect((await send('POST', `/gists/${String(gist.body?.id)}/comments`, { body: 'hi' })).status).toBe(201);
    // An attestation kept by a repository of the organization: found there by its id.
    const made = await send('POST', `/repos/${HELD_ORG}/kept/attestations`, {
      bundle: { mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' },
    });
    expect(made.status).toBe(201);
    expect((await send('DELETE', `/users/${HELD_ORG}/attestations/${String(made.body?.id)}`)).status).not.toBe(404);
    expect((await send('DELETE', `/orgs/octocat/attestations/${String(made.body?.id)}`)).status).toBe(404);
    expect((await send('DELETE', `/orgs/${HELD_ORG}/attestations/${String(made.body?.id)}`)).status).not.toBe(404);
    // The twin's App, by its client id.
    const app = await send('GET', '/app');
    const token = await send('POST', `/applications/${String(app.body?.client_id)}/token`, { access_token: 'gho_x' });
    expect(token.status).not.toBe(404);
    // The organization deleted: it and its repositories gone, GitHub's 202.
    expect(await send('DELETE', `/orgs/${HELD_ORG}`)).toEqual({ status: 202, body: {} });
    expect((await send('GET', `/orgs/${HELD_ORG}`)).status).toBe(404);
    expect((await send('GET', `/repos/${HELD_ORG}/kept`)).status).toBe(404);
    expect((await send('DELETE', `/orgs/${HELD_ORG}`)).status).toBe(404);
  });

  it("answers a path value outside the document's list GitHub's 404 for an unknown path, as one it has no operation at", async () => {
    const { daemon, name, root } = await twin();
    await fetch(`${root}/orgs/${HELD_ORG}/repos`, { method: 'POST', headers: HEADERS, body: '{"name":"listed"}' });
    const before = await (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
    for (const [method, path] of [
      ['POST', `/orgs/${HELD_ORG}/code_security/enable_all`],
      ['POST', `/orgs/${HELD_ORG}/dependency_graph/enable_some`],
      ['GET', '/user/packages/pypi/left-pad'],
      ['GET', '/no/such/path/at/all'],
    ] as const) {
      const answer = await fetch(`${root}${path}`, {
        method,
        headers: HEADERS,
        body: method === 'GET' ? undefined : '{}',
      });
      expect([path, answer.status, await answer.json()]).toEqual([path, 404, NOT_FOUND]);
    }
    expect(await (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text()).toBe(before);
    // A value it lists is that operation's: the organization held, the product enabled.
    const listed = await fetch(`${root}/orgs/${HELD_ORG}/dependency_graph/enable_all`, {
      method: 'POST',
      headers: HEADERS,
      body: '{}',
    });
    expect(listed.status).toBe(204);
  });
});
