// The GitHub twin answers every operation of GitHub's REST description (issue #73, "The whole
// description"), against the built daemon on LevelDB: each operation of `@octokit/openapi` as
// pinned (packages/openapi-documents: the whole document, not the twin's copy of it) is one of the
// twin's operations (with `unseen: "examples"`, each answers its example); what the twin never made is GitHub's
// `404 Not Found`, a list of nothing is empty, and what addresses no object answers the
// document's example — and with `unseen: "examples"` every operation answers its example.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Octokit } from '@octokit/rest';
import { expect, it } from 'vitest';
import { requestJson, useDaemons } from './helpers/daemon.js';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };

type Schema = { $ref?: string; required?: unknown; properties?: Record<string, Schema>; readOnly?: boolean };
type Document = { paths: Record<string, Record<string, { requestBody?: unknown }>>; components: unknown };

function githubDocument(): Document {
  const pinned = createRequire(new URL('../../openapi-documents/package.json', import.meta.url));
  const file = pinned.resolve('@octokit/openapi/generated/api.github.com.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Document;
}

/** Every operation (method, path template) of GitHub's REST description as `@octokit/openapi` ships it. */
function githubOperations(): (readonly [string, string])[] {
  const document = githubDocument();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete']
      .filter((method) => item[method] !== undefined)
      .map((method) => [method, path] as const),
  );
}

/**
 * The fields the document's JSON body of an operation requires at its top (`ref`, `name`), as
 * `"method template"`: an empty body sent to one is GitHub's `422`.
 */
function requiredFields(): Map<string, string[]> {
  const document = githubDocument();
  const resolved = (schema: Schema | undefined): Schema | undefined => {
    if (schema?.$ref === undefined) return schema;
    const found = schema.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], document);
    return found as Schema | undefined;
  };
  const needs = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const body = resolved(item[method]?.requestBody as Schema | undefined) as
        | { content?: Record<string, { schema?: Schema }> }
        | undefined;
      const schema = resolved(body?.content?.['application/json']?.schema);
      const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
      const fields = required.filter((field) => resolved(schema?.properties?.[field])?.readOnly !== true);
      if (fields.length > 0) needs.set(`${method} ${path}`, fields);
    }
  }
  return needs;
}

/** The operations GitHub refuses with `422` in its own words when sent with no body, whatever the document requires. */
const OWN_422 = [
  'delete /repos/{owner}/{repo}/git/refs/{ref}',
  // Sent without `q`, which GitHub's searches need (the twin searches what it holds).
  'get /search/issues',
  'get /search/repositories',
  'patch /repos/{owner}/{repo}/git/refs/{ref}',
  'post /orgs/{org}/repos',
  'post /repos/{owner}/{repo}/check-runs',
  'post /repos/{owner}/{repo}/git/refs',
  'post /repos/{owner}/{repo}/hooks',
  'post /repos/{owner}/{repo}/issues',
  'post /repos/{owner}/{repo}/labels',
  'post /repos/{owner}/{repo}/pulls',
  'post /repos/{owner}/{repo}/releases',
  'post /repos/{owner}/{repo}/statuses/{sha}',
  'post /user/repos',
  'put /repos/{owner}/{repo}/contents/{path}',
  // Sent without `names`, which GitHub's replace of a repository's topics needs.
  'put /repos/{owner}/{repo}/topics',
];

/** Whether `answer` is GitHub's refusal of an empty body to an operation whose document requires `fields`. */
function notSupplied(answer: { status: number; body: string }, fields: string[] | undefined): boolean {
  const message = String(JSON.parse(answer.body).message);
  const named = /^Invalid request\.\n\n"([^"]+)" wasn't supplied\.$/.exec(message)?.[1];
  return answer.status === 422 && named !== undefined && (fields ?? []).includes(named);
}

/**
 * The first value the document lists for each path parameter limited to a list, by operation
 * (`delete /user/packages/{package_type}/{package_name}` → `package_type`: `npm`): another names no
 * operation, GitHub's `404` for a path it does not have.
 */
function listedValues(): Map<string, Map<string, string>> {
  const document = githubDocument();
  const resolved = (node: unknown): Record<string, unknown> | undefined => {
    let current = node as Record<string, unknown> | undefined;
    while (typeof current?.$ref === 'string')
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], document) as Record<string, unknown>;
    return current;
  };
  const listed = new Map<string, Map<string, string>>();
  for (const [path, item] of Object.entries(document.paths))
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method] as { parameters?: unknown[] } | undefined;
      if (operation === undefined) continue;
      const shared = (item as { parameters?: unknown[] }).parameters ?? [];
      for (const raw of [...shared, ...(operation.parameters ?? [])]) {
        const param = resolved(raw);
        const values = resolved(param?.schema)?.enum;
        if (param?.in !== 'path' || !Array.isArray(values)) continue;
        const key = `${method} ${path}`;
        const own = listed.get(key) ?? new Map<string, string>();
        listed.set(key, own.set(String(param.name), String(values[0])));
      }
    }
  return listed;
}

const LISTED = listedValues();

/**
 * Each operation sent once with simple values for its path (`7` for a number or id, the first of
 * a list the document gives), 8 at a time.
 */
async function sendEach(
  root: string,
  operations: readonly (readonly [string, string])[],
): Promise<{ operation: string; status: number; body: string }[]> {
  const answers: { operation: string; status: number; body: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < operations.length) {
      const [method, template] = operations[next++] as readonly [string, string];
      const listed = LISTED.get(`${method} ${template}`);
      const path = template.replace(
        /\{([^}]+)\}/g,
        (_, param: string) => listed?.get(param) ?? (/(number|_id)$/.test(param) ? '7' : `${param}1`),
      );
      const response = await fetch(`${root}${path}`, {
        method: method.toUpperCase(),
        headers: { authorization: 'token ghp_1', 'content-type': 'application/json' },
        body: method === 'get' || method === 'delete' ? undefined : '{}',
      });
      answers.push({ operation: `${method} ${template}`, status: response.status, body: await response.text() });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return answers;
}

it('answers GitHub operations beyond issues, pulls and hooks as GitHub does (octokit)', async () => {
  const { root } = await twinDaemon('github', 'level');
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  const repo = { owner: 'octo', repo: 'app' };
  await madeRepos(octokit, 'octo/app');
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'answered',
      (error: { status: number; response: { data: unknown } }) => [error.status, error.response.data],
    );
  // An object the twin never made: GitHub's 404.
  const unknown: Record<string, () => Promise<unknown>> = {
    // (`octo` is known once a repository is made in it.)
    'orgs.get': () => octokit.rest.orgs.get({ org: 'octo-none' }),
    'repos.getContent': () => octokit.rest.repos.getContent({ ...repo, path: 'docs/README.md' }),
    'git.getRef': () => octokit.rest.git.getRef({ ...repo, ref: 'heads/main' }),
    'repos.getCombinedStatusForRef': () => octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: 'main' }),
    'users.getByUsername': () => octokit.rest.users.getByUsername({ username: 'hubot' }),
  };
  for (const [operation, send] of Object.entries(unknown)) {
    expect([operation, await failure(send())]).toEqual([operation, [404, NOT_FOUND]]);
  }
  // A branch the twin holds no ref of: GitHub's own words for it.
  expect(await failure(octokit.rest.repos.getBranchProtection({ ...repo, branch: 'main' }))).toEqual([
    404,
    { ...NOT_FOUND, message: 'Branch not found' },
  ]);
  // A list of nothing the twin wrote: empty, or search's envelope with nothing in it.
  expect((await octokit.rest.repos.listReleases(repo)).data).toEqual([]);
  // The one who made the repository is its one collaborator, an admin.
  expect((await octokit.rest.repos.listCollaborators(repo)).data.map((one) => [one.login, one.role_name])).toEqual([
    ['octocat', 'admin'],
  ]);
  expect((await octokit.rest.search.issuesAndPullRequests({ q: 'is:issue bug' })).data).toEqual({
    total_count: 0,
    incomplete_results: false,
    items: [],
    search_type: 'hybrid',
  });
  // What addresses no object: the document's example (markdown's in HTML).
  const rendered = await octokit.rest.markdown.render({ text: '# Hello' });
  expect([rendered.status, rendered.headers['content-type'], rendered.data]).toEqual([
    200,
    'text/html; charset=utf-8',
    '<p>Hello <strong>world</strong></p>',
  ]);
  const api = await octokit.rest.meta.root();
  expect(api.data).toMatchObject({ current_user_url: 'https://api.github.com/user' });
  const limits = await octokit.rest.rateLimit.get();
  expect(limits.data).toMatchObject({ resources: { core: { limit: 5000 } }, rate: { limit: 5000 } });
  // The authenticated user: every token's `octocat`, the `user` of each issue it makes.
  const me = await octokit.rest.users.getAuthenticated();
  expect(me.data).toMatchObject({ login: 'octocat', id: 1, type: 'User' });
  expect(me.data).toHaveProperty('private_gists');
  const issue = await octokit.rest.issues.create({ ...repo, title: 'Mine' });
  expect(issue.data.user).toMatchObject({ login: me.data.login, id: me.data.id });
  expect((await octokit.rest.users.getByUsername({ username: 'octocat' })).data).toMatchObject({ login: 'octocat' });
  // Below an object the twin holds, no 404: a hook's `config`.
  const hook = await octokit.rest.repos.createWebhook({ ...repo, config: { url: 'http://127.0.0.1:9/h' } });
  const config = await octokit.rest.repos.getWebhookConfigForRepo({ ...repo, hook_id: hook.data.id });
  expect(config.status).toBe(200);
  const gone = octokit.rest.repos.getWebhookConfigForRepo({ ...repo, hook_id: hook.data.id + 1 });
  expect(await failure(gone)).toEqual([404, NOT_FOUND]);
});

it('answers every operation of GitHub REST description, as @octokit/openapi pins it', async () => {
  const operations = githubOperations();
  expect(operations.length).toBeGreaterThan(1000);
  const { daemon, name, root } = await twinDaemon('github', 'level');
  const twin = await requestJson(`${daemon.url}/api/endpoints/${name}/twin`);
  // The document's operations and the twin's own five: the root directory at `…/contents` and `…/contents/`,
  // and the refs GitHub answers beside its description: `GET …/git/refs`, `…/git/refs/`, `…/git/refs/{ref}`.
  expect(twin.body).toMatchObject({ operations: operations.length + 5 });
  // The repository every path below `/repos/{owner}/{repo}` names (`owner1/repo1`), made first:
  // below one never made, every operation is GitHub's 404.
  const made = await fetch(`${root}/orgs/owner1/repos`, {
    method: 'POST',
    headers: { authorization: 'token ghp_1', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'repo1' }),
  });
  expect(made.status).toBe(201);
  // The organization every path below `/orgs/{org}` names (`org1`), held once a repository is made
  // in it: below one the twin does not hold, every operation is GitHub's 404.
  const org = await fetch(`${root}/orgs/org1/repos`, {
    method: 'POST',
    headers: { authorization: 'token ghp_1', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'held' }),
  });
  expect(org.status).toBe(201);
  // Its own DELETE last, so the rest are answered below it.
  const removal = (operation: readonly [string, string]) => operation.join(' ') === 'delete /repos/{owner}/{repo}';
  const answers = [
    ...(await sendEach(
      root,
      operations.filter((one) => !removal(one)),
    )),
    ...(await sendEach(root, operations.filter(removal))),
  ];
  // A path none of the twin's operations has is GitHub's `404 Not Found` too: that each of these
  // is one of its operations, the run with `unseen: "examples"` below shows (each answers its example).
  expect(LISTED.size).toBeGreaterThan(0);
  // Each is answered, or refused in GitHub's form: 404 Not Found for what the twin never made
  // (a comment below an issue never made included), 422 for a create of what it keeps without the
  // fields GitHub needs (`Validation Failed` with
  // its `errors`; a git ref's and a file's `Invalid request. "…" wasn't supplied.` and a change of
  // a ref never made, `Reference does not exist`, a check run's, a status's of no commit,
  // without; a workflow dispatch of no workflow file is its 404 first).
  const refused = answers.filter((answer) => answer.status >= 300);
  const unsupplied = [
    'post /repos/{owner}/{repo}/check-runs',
    'post /repos/{owner}/{repo}/statuses/{sha}',
    'delete /repos/{owner}/{repo}/git/refs/{ref}',
    'patch /repos/{owner}/{repo}/git/refs/{ref}',
    'post /repos/{owner}/{repo}/git/refs',
    'put /repos/{owner}/{repo}/contents/{path}',
  ];
  // An empty body where the document requires fields: GitHub's request schema refuses it, naming one
  // (`Invalid request.\n\n"name" wasn't supplied.`), unless GitHub's own answer for the resource comes first.
  const needs = requiredFields();
  // Below an issue, pull request, comment, branch, runner, gist, team, … the twin holds none of, GitHub's 404
  // comes before the body's refusal (twin-github-refusal-order.test.ts, twin-github-missing-first.test.ts).
  const missingFirst = refused
    .filter((answer) => answer.status === 404 && needs.has(answer.operation))
    .map((answer) => answer.operation);
  expect(missingFirst).toContain('post /repos/{owner}/{repo}/issues/{issue_number}/comments');
  for (const answer of refused.filter((one) => missingFirst.includes(one.operation))) {
    // A branch's protection in GitHub's words for the branch never made.
    const said = answer.operation.endsWith('/branches/{branch}/protection') ? 'Branch not found' : NOT_FOUND.message;
    expect([answer.operation, JSON.parse(answer.body)]).toEqual([answer.operation, { ...NOT_FOUND, message: said }]);
    expect(answer.operation).toMatch(/^\w+ \/.*\{/);
  }
  for (const operation of missingFirst) needs.delete(operation);
  const own = new Set([...OWN_422, ...unsupplied]);
  for (const answer of refused.filter((one) => needs.has(one.operation) && !own.has(one.operation))) {
    expect([answer.operation, notSupplied(answer, needs.get(answer.operation))]).toEqual([answer.operation, true]);
  }
  for (const answer of refused) {
    const errors =
      answer.status === 422 &&
      !unsupplied.includes(answer.operation) &&
      !notSupplied(answer, needs.get(answer.operation));
    // 409 is GitHub's answer to a read of the commits or refs of a repository with none.
    if (answer.status === 409) expect(JSON.parse(answer.body).message).toBe('Git Repository is empty.');
    expect([answer.operation, answer.status, Object.keys(JSON.parse(answer.body)).sort()]).toEqual([
      answer.operation,
      answer.status === 422 || answer.status === 409 ? answer.status : 404,
      errors ? ['documentation_url', 'errors', 'message'] : ['documentation_url', 'message'],
    ]);
  }
  expect(
    refused
      .filter((answer) => answer.status === 422)
      .map((answer) => answer.operation)
      .sort(),
  ).toEqual([...new Set([...OWN_422, ...needs.keys()])].sort());
}, 120_000);

it('answers every operation from its example with unseen: examples', async () => {
  const operations = githubOperations();
  const { root } = await twinDaemon('github', 'level', { unseen: 'examples' });
  // Deletes first: once a collection holds objects, deleting one it never held is GitHub's 404.
  const deletes = operations.filter(([method]) => method === 'delete');
  const answers = [
    ...(await sendEach(root, deletes)),
    ...(await sendEach(
      root,
      operations.filter(([method]) => method !== 'delete'),
    )),
  ];
  expect(answers).toHaveLength(operations.length);
  // An empty create is GitHub's 422 (a field it needs is missing: a repository's `name`, a release's
  // `tag_name` too), in its own words; so is every operation whose document requires a body field
  // (`Invalid request.\n\n"…" wasn't supplied.`); every other operation answers.
  const needs = requiredFields();
  const own = [
    'post /orgs/{org}/repos',
    'post /repos/{owner}/{repo}/hooks',
    'post /repos/{owner}/{repo}/issues',
    'post /repos/{owner}/{repo}/issues/{issue_number}/comments',
    'post /repos/{owner}/{repo}/labels',
    'post /repos/{owner}/{repo}/pulls',
    'post /repos/{owner}/{repo}/releases',
    'post /user/repos',
  ];
  const refused = answers.filter((answer) => answer.status >= 300);
  expect(refused.map((answer) => `${answer.operation} → ${answer.status}`).sort()).toEqual(
    [...new Set([...own, ...needs.keys()])].map((operation) => `${operation} → 422`).sort(),
  );
  for (const answer of refused.filter((one) => !own.includes(one.operation))) {
    expect([answer.operation, notSupplied(answer, needs.get(answer.operation))]).toEqual([answer.operation, true]);
  }
  const emojis = answers.find((answer) => answer.operation === 'get /emojis');
  expect(JSON.parse(emojis?.body ?? '{}')).toHaveProperty('+1');
}, 120_000);
