// A secret's name as GitHub's rule takes it (#84; "Naming your secrets" in GitHub's Actions docs):
// letters, digits and underscores, not starting with a digit, not with `GITHUB_`. Generated from
// GitHub's document: every `PUT …/secrets/{secret_name}` (a repository's Actions, Agents,
// Codespaces and Dependabot secrets, an environment's, an
// organization's, the user's Codespaces secrets), each sent its minimal
// valid body under names GitHub refuses — `422` in GitHub's words, nothing made (a read after it
// `404`) — and under names it takes (made, read back in upper case). Against the built daemon on
// memory and LevelDB; every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { bodyOf, DOC } from './helpers/github-missing-cases.js';
import { sharedTwinDaemon, twinSender } from './helpers/twin.js';

const HEADERS = { authorization: 'Bearer ghp_names84', 'content-type': 'application/json' };
const REPO = 'secret-names';
const ENVIRONMENT = 'staging';
const ORG = 'octo-org';

const CHARACTERS =
  'Secret names can only contain alphanumeric characters ([a-z], [A-Z], [0-9]) or underscores (_). Spaces are not allowed. Must start with a letter ([a-z], [A-Z]) or underscores (_).';
const PREFIX = 'Secret names must not start with GITHUB_.';

/** Names GitHub refuses, with its words for each. */
const REFUSED: [string, string][] = [
  ['1DEPLOY', CHARACTERS],
  ['deploy-key', CHARACTERS],
  ['DEPLOY KEY', CHARACTERS],
  ['DEPLOY.KEY', CHARACTERS],
  ['clé', CHARACTERS],
  ['GITHUB_TOKEN', PREFIX],
  ['github_app_key', PREFIX],
];
/** Names it takes. */
const TAKEN = ['DEPLOY_KEY', '_private', 'npm_token2', 'GITHUBTOKEN', 'MY_GITHUB_TOKEN'];

/** Every `PUT` of a secret's own path in the document. */
const TEMPLATES = Object.entries(DOC.paths)
  .filter(([template, item]) => template.endsWith('/secrets/{secret_name}') && item.put !== undefined)
  .map(([template]) => template)
  .sort();

const pathOf = (template: string, name: string) =>
  template
    .replace('{owner}', 'octocat')
    .replace('{repo}', REPO)
    .replace('{org}', ORG)
    .replace('{environment_name}', ENVIRONMENT)
    .replace('{secret_name}', encodeURIComponent(name));

describe.each(['memory', 'level'] as const)('the GitHub twin takes a secret’s name as GitHub does (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 1);

  it('finds the secrets’ writes in the document', () => {
    expect(TEMPLATES).toEqual([
      '/orgs/{org}/actions/secrets/{secret_name}',
      '/orgs/{org}/agents/secrets/{secret_name}',
      '/orgs/{org}/codespaces/secrets/{secret_name}',
      '/orgs/{org}/dependabot/secrets/{secret_name}',
      '/repos/{owner}/{repo}/actions/secrets/{secret_name}',
      '/repos/{owner}/{repo}/agents/secrets/{secret_name}',
      '/repos/{owner}/{repo}/codespaces/secrets/{secret_name}',
      '/repos/{owner}/{repo}/dependabot/secrets/{secret_name}',
      '/repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}',
      '/user/codespaces/secrets/{secret_name}',
    ]);
  });

  it('refuses the names GitHub refuses, making nothing, and makes those it takes', { timeout: 60_000 }, async () => {
    const { root } = await twin();
    const send = twinSender(root, HEADERS);
    expect((await send('POST', '/user/repos', { name: REPO })).status).toBe(201);
    expect((await send('PUT', `/repos/octocat/${REPO}/environments/${ENVIRONMENT}`, {})).status).toBe(200);
    // An organization is the twin's once a repository is made in it (none is made through the API):
    // before, a secret of it is GitHub's 404, and nothing is made.
    const early = await send('PUT', `/orgs/${ORG}/actions/secrets/EARLY`, { visibility: 'all' });
    expect([early.status, early.body.message]).toEqual([404, 'Not Found']);
    expect((await send('POST', `/orgs/${ORG}/repos`, { name: REPO })).status).toBe(201);
    expect((await send('GET', `/orgs/${ORG}/actions/secrets/EARLY`)).status).toBe(404);
    const wrong: string[] = [];
    for (const template of TEMPLATES) {
      const body = await bodyOf(DOC.paths[template]?.put as Record<string, unknown>);
      for (const [name, message] of REFUSED) {
        const put = await send('PUT', pathOf(template, name), body);
        if (put.status !== 422 || put.body.message !== message)
          wrong.push(`${template} ${JSON.stringify(name)}: ${put.status} ${JSON.stringify(put.body)}`);
        const read = await send('GET', pathOf(template, name));
        if (read.status !== 404) wrong.push(`${template} ${JSON.stringify(name)} read: ${read.status}`);
      }
      for (const name of TAKEN) {
        const put = await send('PUT', pathOf(template, name), body);
        if (put.status !== 201) wrong.push(`${template} ${name}: ${put.status} ${JSON.stringify(put.body)}`);
        const read = await send('GET', pathOf(template, name));
        if (read.status !== 200 || read.body.name !== name.toUpperCase())
          wrong.push(`${template} ${name} read: ${read.status} ${JSON.stringify(read.body)}`);
      }
    }
    expect(wrong).toEqual([]);
    // An organization's secret shows its visibility; an environment never made holds none.
    expect((await send('GET', `/orgs/${ORG}/actions/secrets/DEPLOY_KEY`)).body).toMatchObject({
      name: 'DEPLOY_KEY',
      visibility: 'all',
      selected_repositories_url: `https://api.github.com/orgs/${ORG}/actions/secrets/DEPLOY_KEY/repositories`,
    });
    const listed = await send('GET', `/repos/octocat/${REPO}/environments/${ENVIRONMENT}/secrets`);
    expect(listed.body.total_count).toBe(TAKEN.length);
    const nowhere = await send('PUT', `/repos/octocat/${REPO}/environments/nowhere/secrets/DEPLOY_KEY`, {
      encrypted_value: 'c2VjcmV0',
      key_id: '1',
    });
    expect(nowhere.status).toBe(404);
    // An organization's secrets never show as a repository's: `org/x`'s (its owner the login `org`)
    // beside the organization `x`.
    expect((await send('POST', '/orgs/x/repos', { name: 'held' })).status).toBe(201);
    expect((await send('POST', '/orgs/org/repos', { name: 'x' })).status).toBe(201);
    expect((await send('PUT', '/orgs/x/actions/secrets/ORG_ONE', { visibility: 'all' })).status).toBe(201);
    expect((await send('GET', '/repos/org/x/actions/secrets')).body).toMatchObject({ total_count: 0, secrets: [] });
    expect((await send('GET', '/repos/org/x/actions/secrets/ORG_ONE')).status).toBe(404);
  });
});
