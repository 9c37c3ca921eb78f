// A write naming, by its path, an object of a GitHub repository that the twin does not hold (#84):
// on a fresh twin (`unseen: "missing"`) it is refused as GitHub refuses it — `404 {"message":"Not
// Found","documentation_url":…}` — and nothing is kept. The cases are generated from GitHub's
// document (read through the twins package's loader): every `POST`, `PUT`, `PATCH` and `DELETE`
// under `/repos/{owner}/{repo}/…` whose path holds another parameter (`issue_number`, `hook_id`,
// a label's `name`, `branch`, `ref`, …), sent on a repository made with `POST /user/repos` with a
// value it never made and a minimal valid body of the operation's required fields. A write that
// makes what its path names (`PUT …/secrets/{secret_name}`, `…/create-or-update-…`) is left out;
// where GitHub's answer is another, the case's own expectation says which and why. Against the
// built daemon on memory and LevelDB; every process listens on 127.0.0.1. The operations it covers
// are the parity ledger's evidence (docs/parity/github-missing-references.json, checked here;
// MOCKPOINT_WRITE_EVIDENCE=1 rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '@mockpoint/twins';
import { describe, expect, it } from 'vitest';
import { resolved, validValue } from './helpers/constraint-cases.js';
import { sampleOf } from './helpers/schema-sample.js';
import { sharedTwinDaemon } from './helpers/twin.js';

type Schema = Record<string, unknown>;

const { document } = await load('github');
const DOC = document as unknown as Schema & { paths: Record<string, Record<string, Schema>> };

/** The parity ledger's evidence this test writes (with MOCKPOINT_WRITE_EVIDENCE=1) and checks. */
const EVIDENCE = new URL('../../../docs/parity/github-missing-references.json', import.meta.url);
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
const REPO = 'missing84';
/** A commit SHA no repository of the twin holds. */
const NO_SHA = 'f'.repeat(40);

/** GitHub's refusal `status` in its own `message`, with the documentation link its 404 carries. */
const said = (status: number, message: string) => ({
  status,
  body: { message, documentation_url: NOT_FOUND.documentation_url },
});

/** GitHub's answer where it is not the plain 404, by operation, with why. */
const ANSWERS: Record<string, { status: number; body?: Record<string, unknown> }> = {
  // A git ref never made: GitHub's own words, `422` (as `git.updateRef` and `git.deleteRef` answer).
  'PATCH /repos/{owner}/{repo}/git/refs/{ref}': said(422, 'Reference does not exist'),
  'DELETE /repos/{owner}/{repo}/git/refs/{ref}': said(422, 'Reference does not exist'),
  // A status of a commit the repository does not hold: `422 No commit found for SHA`.
  'POST /repos/{owner}/{repo}/statuses/{sha}': said(422, `No commit found for SHA: ${NO_SHA}`),
  // A branch never made, in GitHub's words.
  'PUT /repos/{owner}/{repo}/branches/{branch}/protection': said(404, 'Branch not found'),
  'DELETE /repos/{owner}/{repo}/branches/{branch}/protection': said(404, 'Branch not found'),
  // Removing one who is no collaborator: `204` all the same (GitHub documents no 404 for it).
  'DELETE /repos/{owner}/{repo}/collaborators/{username}': { status: 204 },
};

/** A value of a path parameter that names nothing the twin holds. */
function missingValue(name: string, schema: Schema): string {
  if (schema.type === 'integer' || schema.type === 'number') return '98484';
  if (name === 'sha' || name === 'commit_sha') return NO_SHA;
  if (name === 'ref') return 'heads/nope-84';
  if (name === 'path') return 'nope-84.md';
  return 'nope-84';
}

/** A parameter with its `$ref` followed. */
function parameter(raw: Schema): Schema {
  if (typeof raw.$ref !== 'string') return raw;
  const components = DOC.components as { parameters: Record<string, Schema> };
  return components.parameters[raw.$ref.split('/').at(-1) as string] ?? {};
}

/**
 * Whether a write makes the object its path ends in (`PUT …/secrets/{secret_name}`, `PUT
 * …/collaborators/{username}`): a `PUT` at the repository's one parameter of its own whose
 * `operationId`, GitHub's, says it creates or adds (`actions/create-or-update-repo-secret`,
 * `repos/add-collaborator`). An environment's secret is below the environment, which must exist.
 */
function makesWhatItNames(method: string, template: string, operation: Schema, names: readonly string[]): boolean {
  if (method !== 'put' || !template.endsWith('}') || names.length !== 3) return false;
  return /\/(create-or-update|add)-/.test(String(operation.operationId));
}

/**
 * A minimal valid body: its required fields (and those of its first `anyOf` / `oneOf` option), each
 * a value its constraints take, else the document's example of it.
 */
async function bodyOf(operation: Schema): Promise<unknown> {
  const content = (operation.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
  const media = content?.['application/json'];
  if (media === undefined) return undefined;
  const schema = resolved(DOC, media.schema);
  const whole = validValue(DOC, schema);
  if (whole !== undefined || schema.properties === undefined) return whole ?? {};
  const option = resolved(DOC, ((schema.anyOf ?? schema.oneOf ?? []) as unknown[])[0]);
  const properties = schema.properties as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const name of [...((schema.required ?? []) as string[]), ...((option.required ?? []) as string[])]) {
    body[name] = validValue(DOC, properties[name]) ?? (await sampleOf(DOC, properties[name], async () => undefined));
  }
  return body;
}

interface Case {
  operation: string;
  path: string;
  body: unknown;
}

/** Every write below a repository whose path names another object, sent with a value it never made. */
async function cases(): Promise<{ sent: Case[]; left: string[] }> {
  const sent: Case[] = [];
  const left: string[] = [];
  for (const [template, item] of Object.entries(DOC.paths)) {
    if (!template.startsWith('/repos/{owner}/{repo}/')) continue;
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
    if (names.every((name) => name === 'owner' || name === 'repo')) continue;
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (operation === undefined) continue;
      const key = `${method.toUpperCase()} ${template}`;
      if (makesWhatItNames(method, template, operation, names)) {
        left.push(key);
        continue;
      }
      const declared = [item.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : []));
      const params = (declared as Schema[]).map(parameter);
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        if (name === 'owner') return 'octocat';
        if (name === 'repo') return REPO;
        const param = params.find((one) => one.in === 'path' && one.name === name) ?? {};
        return encodeURIComponent(missingValue(name, (param.schema ?? {}) as Schema));
      });
      sent.push({ operation: key, path, body: await bodyOf(operation) });
    }
  }
  return { sent, left };
}

const CASES = await cases();
const HEADERS = { authorization: 'Bearer ghp_missing84', 'content-type': 'application/json' };

describe.each(['memory', 'level'] as const)(
  'the GitHub twin refuses a write below what it does not hold (%s)',
  (store) => {
    const twin = sharedTwinDaemon('github', async () => store, 1);

    it('finds the cases in the document, the issue’s among them', () => {
      const named = CASES.sent.map((one) => one.operation);
      for (const one of [
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock',
        'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
        'PATCH /repos/{owner}/{repo}/labels/{name}',
        'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge',
        'PATCH /repos/{owner}/{repo}/hooks/{hook_id}',
        'PATCH /repos/{owner}/{repo}/releases/{release_id}',
        'PUT /repos/{owner}/{repo}/branches/{branch}/protection',
        'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
      ]) {
        expect(named).toContain(one);
      }
      expect(CASES.left.sort()).toEqual([
        'PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/agents/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/codespaces/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/collaborators/{username}',
        'PUT /repos/{owner}/{repo}/contents/{path}',
        'PUT /repos/{owner}/{repo}/dependabot/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/environments/{environment_name}',
      ]);
    });

    it('refuses each as GitHub does, keeping nothing', { timeout: 120_000 }, async () => {
      const { daemon, name, root } = await twin();
      const made = await fetch(`${root}/user/repos`, {
        method: 'POST',
        headers: HEADERS,
        body: '{"name":"missing84"}',
      });
      expect(made.status).toBe(201);
      const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
      const before = await collections();
      const wrong: string[] = [];
      for (const one of CASES.sent) {
        const answer = await fetch(`${root}${one.path}`, {
          method: one.operation.split(' ')[0],
          headers: HEADERS,
          body: one.body === undefined ? undefined : JSON.stringify(one.body),
        });
        const text = await answer.text();
        const expected = ANSWERS[one.operation] ?? { status: 404, body: NOT_FOUND };
        const body = text === '' ? undefined : (JSON.parse(text) as unknown);
        if (answer.status !== expected.status || JSON.stringify(body) !== JSON.stringify(expected.body)) {
          wrong.push(`${one.operation} ${JSON.stringify(one.body)}: ${answer.status} ${text.slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
      // Nothing kept: the twin's collections as they were (the repository only).
      expect(await collections()).toBe(before);
      // The parity ledger's evidence (scripts/parity-ledger.mjs): these operations, as this test sent them.
      const evidence = `${JSON.stringify(
        {
          provider: 'github',
          source: `twin-github-missing.test.ts: each write below an object never made refused as GitHub refuses it, nothing kept (${CASES.sent.length} passing)`,
          operations: CASES.sent.map((one) => one.operation).sort(),
        },
        null,
        2,
      )}\n`;
      if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(EVIDENCE, evidence);
      expect(readFileSync(EVIDENCE, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
      console.log(
        `GitHub missing references (${store}): ${CASES.sent.length} writes refused, ${CASES.left.length} that make what they name left out`,
      );
    });
  },
);
