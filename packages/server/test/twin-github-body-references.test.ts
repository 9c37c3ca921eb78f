// A write whose BODY names an object of a GitHub repository that the twin does not hold (#84): on a
// fresh twin (`unseen: "missing"`) it is refused as GitHub refuses it — mostly `422 Validation
// Failed` with an `errors` entry naming the field — and nothing is kept. The cases are generated from
// GitHub's document (read through the twins package's loader): every `POST`, `PUT`, `PATCH` and
// `DELETE` under `/repos/{owner}/{repo}/…` whose request body has, at its top (through `allOf` /
// `oneOf` / `anyOf`), a property of the twins package's table github/body-references.json (`milestone`,
// `assignees`, `head`, `base`, `commit_id`, `parents`, `tree`, …: what each names), of text or a
// number or an array of them. Each is sent on a repository made with `POST /user/repos`, whose issue,
// pull request, release and branches the test makes first (a path naming anything else is left out:
// twin-github-missing.test.ts refuses those), with a minimal valid body whose other references name
// held objects and the tested one a value naming nothing. Where GitHub says yes (labels it lacks are
// made; assignees it cannot assign are left out of an add), the case's expectation says so and why.
// Against the built daemon on memory and LevelDB; every process listens on 127.0.0.1. The operations
// it covers are the parity ledger's evidence (docs/parity/github-body-references.json, checked here;
// MOCKPOINT_WRITE_EVIDENCE=1 rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '@mockpoint/twins';
import { describe, expect, it } from 'vitest';
import { resolved, validValue } from './helpers/constraint-cases.js';
import { sampleOf } from './helpers/schema-sample.js';
import { sharedTwinDaemon, twinSender } from './helpers/twin.js';

type Schema = Record<string, unknown>;

const { document } = await load('github');
const DOC = document as unknown as Schema & { paths: Record<string, Record<string, Schema>> };
const TABLE = (
  JSON.parse(readFileSync(new URL('../../twins/github/body-references.json', import.meta.url), 'utf8')) as {
    properties: Record<string, { names: string; operations?: string[] }>;
  }
).properties;

/** The parity ledger's evidence this test writes (with MOCKPOINT_WRITE_EVIDENCE=1) and checks. */
const EVIDENCE = new URL('../../../docs/parity/github-body-references.json', import.meta.url);
const REPO = 'body84';
/** A commit (tree, object) SHA no repository of the twin holds. */
const NO_SHA = 'f'.repeat(40);
/** The path parameters the test makes an object for (`{issue_number}` its issue, …). */
const HELD_PATHS = new Set(['owner', 'repo', 'issue_number', 'pull_number', 'release_id', 'ref']);

/** A value of a required property that names no other object, where the document's sample is not one GitHub takes. */
const FILLED: Record<string, Record<string, unknown>> = {
  // The ref made, a new name (the sample `fuzz` is no full ref name).
  'POST /repos/{owner}/{repo}/git/refs': { ref: 'refs/heads/new-84' },
};

/** A value of `kind` naming nothing the repository holds. */
function missingOf(kind: string): string | number {
  if (kind === 'milestone' || kind === 'issue' || kind === 'review-comment') return 98484;
  if (kind === 'commit' || kind === 'tree' || kind === 'object') return NO_SHA;
  return 'nope-84';
}

/** The repository's objects the test made, by what a property names. */
type Held = Record<string, string | number>;

interface Case {
  operation: string;
  operationId: string;
  property: string;
  /** Every property of the body the table names (the others of them are sent naming held objects). */
  named: string[];
  body: Record<string, unknown>;
}

/** The top properties of a body schema, through `allOf` / `oneOf` / `anyOf`. */
function topProperties(schema: Schema, depth = 0): Record<string, Schema> {
  let found: Record<string, Schema> = { ...((schema.properties ?? {}) as Record<string, Schema>) };
  if (depth > 4) return found;
  for (const list of [schema.allOf, schema.oneOf, schema.anyOf]) {
    // The first option that has a property names it (`labels` as names before `labels` as objects).
    for (const one of (list ?? []) as unknown[]) found = { ...topProperties(resolved(DOC, one), depth + 1), ...found };
  }
  return found;
}

/** Whether a property's value is text or a number, or an array of them: a name, not an object. */
function isName(schema: Schema): boolean {
  const types = (one: Schema) =>
    [one.type, ...((one.oneOf ?? one.anyOf ?? []) as Schema[]).map((other) => resolved(DOC, other).type)].flat();
  const own = types(schema);
  if (own.some((type) => type === 'string' || type === 'integer' || type === 'number')) return true;
  return own.includes('array') && isName(resolved(DOC, schema.items));
}

/**
 * A minimal valid body: its required fields (and those of its first `anyOf` / `oneOf` option), each
 * a value its constraints take, else the document's example of it.
 */
async function minimalBody(schema: Schema): Promise<Record<string, unknown>> {
  const option = resolved(DOC, ((schema.anyOf ?? schema.oneOf ?? []) as unknown[])[0]);
  const properties = topProperties(schema);
  const body: Record<string, unknown> = {};
  for (const name of [...((schema.required ?? []) as string[]), ...((option.required ?? []) as string[])]) {
    body[name] = validValue(DOC, properties[name]) ?? (await sampleOf(DOC, properties[name], async () => undefined));
  }
  return body;
}

/** Every write below a repository whose body names another object, and those whose path names what the test does not make. */
async function cases(): Promise<{ sent: Case[]; left: string[] }> {
  const sent: Case[] = [];
  const left: string[] = [];
  for (const [template, item] of Object.entries(DOC.paths)) {
    if (!template.startsWith('/repos/{owner}/{repo}/')) continue;
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      const content = (operation?.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
      const media = content?.['application/json'];
      if (operation === undefined || media === undefined) continue;
      const key = `${method.toUpperCase()} ${template}`;
      const operationId = String(operation.operationId);
      const schema = resolved(DOC, media.schema);
      const properties = topProperties(schema);
      const named = Object.keys(properties).filter((name) => {
        const row = Object.hasOwn(TABLE, name) ? TABLE[name] : undefined;
        if (row === undefined || (row.operations !== undefined && !row.operations.includes(operationId))) return false;
        return isName(resolved(DOC, properties[name]));
      });
      if (named.length === 0) continue;
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
      if (!names.every((name) => HELD_PATHS.has(name))) {
        left.push(key);
        continue;
      }
      const body = await minimalBody(schema);
      for (const property of named) sent.push({ operation: key, operationId, property, named, body });
    }
  }
  return { sent, left };
}

const CASES = await cases();
const HEADERS = { authorization: 'Bearer ghp_body84', 'content-type': 'application/json' };

/** A case's body: its other references held, the tested one naming nothing (an array of it where the schema's is). */
function bodyOf(one: Case, held: Held): Record<string, unknown> {
  const body: Record<string, unknown> = { ...one.body, ...FILLED[one.operation] };
  for (const name of one.named.filter((other) => other in body)) {
    body[name] = held[name] ?? held[(TABLE[name] as { names: string }).names];
  }
  const kind = TABLE[one.property]?.names ?? '';
  const missing = missingOf(kind);
  const sample = body[one.property] ?? validValue(DOC, {});
  body[one.property] = Array.isArray(sample) || /s$/.test(one.property) ? [missing] : missing;
  return body;
}

const P = '/repos/{owner}/{repo}';
/** GitHub's answer to a case that is not the plain `422 Validation Failed` naming the property, with why. */
const ANSWERS: Record<string, { status: number; body: Record<string, unknown> }> = {
  // A merge's branches: GitHub's 404 in its own words ("Merge a branch": 404 if base or head does not exist).
  [`POST ${P}/merges base`]: { status: 404, body: { message: 'Base does not exist' } },
  [`POST ${P}/merges head`]: { status: 404, body: { message: 'Head does not exist' } },
  // "Request reviewers for a pull request": only collaborators, in GitHub's words.
  [`POST ${P}/pulls/{pull_number}/requested_reviewers reviewers`]: {
    status: 422,
    body: {
      message: `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the octocat/${REPO} repository.`,
    },
  },
  // The Git database API's words for a SHA the repository does not hold (git-database.ts, git-trees.ts, refs.ts).
  [`POST ${P}/git/refs sha`]: { status: 422, body: { message: 'Object does not exist' } },
  [`PATCH ${P}/git/refs/{ref} sha`]: { status: 422, body: { message: 'Object does not exist' } },
  [`POST ${P}/git/commits tree`]: { status: 422, body: { message: 'Tree SHA does not exist' } },
  [`POST ${P}/git/commits parents`]: {
    status: 422,
    body: { message: 'Parent SHA does not exist or is not a commit object' },
  },
  [`POST ${P}/git/tags object`]: { status: 422, body: { message: 'Object does not exist' } },
  [`POST ${P}/git/trees base_tree`]: { status: 422, body: { message: 'base_tree is not a valid tree oid' } },
  // A merge expecting another head: `409 Head branch was modified` ("Merge a pull request").
  [`PUT ${P}/pulls/{pull_number}/merge sha`]: {
    status: 409,
    body: { message: 'Head branch was modified. Review and try the merge again.' },
  },
  // The same answer from the asynchronous merge (not confirmed: commit-references.ts).
  [`PUT ${P}/pulls/{pull_number}/merge-async sha`]: {
    status: 409,
    body: { message: 'Head branch was modified. Review and try the merge again.' },
  },
  // A check of a commit the repository does not hold: GitHub's words for a status of one (commit-references.ts).
  [`POST ${P}/check-runs head_sha`]: { status: 422, body: { message: `No commit found for SHA: ${NO_SHA}` } },
  [`POST ${P}/check-suites head_sha`]: { status: 422, body: { message: `No commit found for SHA: ${NO_SHA}` } },
  // A review of a commit not in the pull request: GitHub's words, its `errors` a list of text.
  [`POST ${P}/pulls/{pull_number}/reviews commit_id`]: {
    status: 422,
    body: { message: 'Unprocessable Entity', errors: ['The commitOID is not part of the pull request'] },
  },
  // A review comment on a commit not in the pull request: GitHub names the thread's end commit.
  [`POST ${P}/pulls/{pull_number}/comments commit_id`]: {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [
        {
          resource: 'PullRequestReviewComment',
          code: 'custom',
          field: 'pull_request_review_thread.end_commit_oid',
          message: 'pull_request_review_thread.end_commit_oid is not part of the pull request',
        },
      ],
    },
  },
};

/** Where GitHub says yes to a value naming nothing, with why, and what must hold afterwards. */
const YES: Record<string, { status: number; after: 'label made' | 'none assigned' }> = {
  // GitHub makes the labels an issue is given that the repository lacks (its `ededed` colour).
  [`POST ${P}/issues labels`]: { status: 201, after: 'label made' },
  [`PATCH ${P}/issues/{issue_number} labels`]: { status: 200, after: 'label made' },
  [`POST ${P}/issues/{issue_number}/labels labels`]: { status: 200, after: 'label made' },
  [`PUT ${P}/issues/{issue_number}/labels labels`]: { status: 200, after: 'label made' },
  // "Add assignees": those who cannot be assigned are left out, silently; removing one not assigned changes nothing.
  [`POST ${P}/issues/{issue_number}/assignees assignees`]: { status: 201, after: 'none assigned' },
  [`DELETE ${P}/issues/{issue_number}/assignees assignees`]: { status: 200, after: 'none assigned' },
  [`DELETE ${P}/pulls/{pull_number}/requested_reviewers reviewers`]: { status: 200, after: 'none assigned' },
};

const keyOf = (one: Case) => `${one.operation} ${one.property}`;

describe.each(['memory', 'level'] as const)(
  'the GitHub twin refuses a body naming what it does not hold (%s)',
  (store) => {
    const twin = sharedTwinDaemon('github', async () => store, 1);

    it('finds the cases in the document, the issue’s among them', () => {
      const keys = CASES.sent.map(keyOf);
      for (const one of [
        `POST ${P}/issues milestone`,
        `POST ${P}/issues assignees`,
        `PATCH ${P}/issues/{issue_number} milestone`,
        `POST ${P}/pulls head`,
        `POST ${P}/pulls base`,
        `POST ${P}/git/refs sha`,
        `POST ${P}/git/commits parents`,
        `POST ${P}/releases target_commitish`,
      ]) {
        expect(keys).toContain(one);
      }
      // Each expectation names a case the document has.
      for (const key of [...Object.keys(ANSWERS), ...Object.keys(YES)]) expect(keys).toContain(key);
      // Paths naming what the test does not make (a runner, an alert): twin-github-missing.test.ts refuses them.
      expect(CASES.left.sort()).toEqual([
        `PATCH ${P}/code-scanning/alerts/{alert_number}`,
        `PATCH ${P}/dependabot/alerts/{alert_number}`,
        `PATCH ${P}/secret-scanning/alerts/{alert_number}`,
      ]);
    });

    it('refuses each as GitHub does, keeping nothing', { timeout: 180_000 }, async () => {
      const { daemon, name, root } = await twin();
      const send = twinSender(root, HEADERS);
      const repo = `/repos/octocat/${REPO}`;
      expect((await send('POST', '/user/repos', { name: REPO, auto_init: true })).status).toBe(201);
      // What the other references of a body name: the default branch and its commit and tree, a
      // branch, an issue, a pull request and a release.
      const sha = String(((await send('GET', `${repo}/git/ref/heads/main`)).body.object as Schema).sha);
      const commit = (await send('GET', `${repo}/commits/${sha}`)).body.commit as Schema;
      expect((await send('POST', `${repo}/git/refs`, { ref: 'refs/heads/feature-84', sha })).status).toBe(201);
      const issue = await send('POST', `${repo}/issues`, { title: 'held' });
      const pull = await send('POST', `${repo}/pulls`, { title: 'held', head: 'feature-84', base: 'main' });
      // A draft release: its tag is not made, so its target is read (GitHub ignores it once the tag exists).
      const release = await send('POST', `${repo}/releases`, { tag_name: 'v84', draft: true });
      expect([issue.status, pull.status, release.status]).toEqual([201, 201, 201]);
      const held: Held = {
        branch: 'main',
        head: 'feature-84',
        commit: sha,
        commitish: 'main',
        tree: String((commit.tree as Schema).sha),
        object: sha,
        assignable: 'octocat',
        collaborator: 'octocat',
        issue: Number(issue.body.number),
      };
      const paths: Record<string, string> = {
        owner: 'octocat',
        repo: REPO,
        issue_number: String(issue.body.number),
        pull_number: String(pull.body.number),
        release_id: String(release.body.id),
        ref: 'heads/feature-84',
      };
      const sendCase = (one: Case) => {
        const [method, template] = one.operation.split(' ') as [string, string];
        const path = template.replace(/\{([^}]+)\}/g, (_, part: string) => paths[part] ?? part);
        return send(method, path, bodyOf(one, held));
      };
      const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
      const before = await collections();
      const wrong: string[] = [];
      const refused = CASES.sent.filter((one) => !(keyOf(one) in YES));
      for (const one of refused) {
        const answer = await sendCase(one);
        const expected = ANSWERS[keyOf(one)] ?? {
          status: 422,
          body: { message: 'Validation Failed', errors: [{ field: one.property, code: 'invalid' }] },
        };
        try {
          expect(answer).toMatchObject(expected);
        } catch {
          wrong.push(
            `${keyOf(one)} ${JSON.stringify(bodyOf(one, held))}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
          );
        }
      }
      expect(wrong).toEqual([]);
      // Nothing kept: the twin's collections as they were.
      expect(await collections()).toBe(before);
      // GitHub's yes: made, or left out, as it does.
      for (const one of CASES.sent.filter((other) => keyOf(other) in YES)) {
        const { status, after } = YES[keyOf(one)] as (typeof YES)[string];
        expect([keyOf(one), (await sendCase(one)).status]).toEqual([keyOf(one), status]);
        if (after === 'label made') expect((await send('GET', `${repo}/labels/nope-84`)).status).toBe(200);
        const assignees = (await send('GET', `${repo}/issues/${paths.issue_number}`)).body.assignees;
        expect([keyOf(one), assignees]).toEqual([keyOf(one), []]);
      }
      const covered = [...new Set(refused.map((one) => one.operation))];
      const evidence = `${JSON.stringify(
        {
          provider: 'github',
          source: `twin-github-body-references.test.ts: each write whose body names an object never made refused as GitHub refuses it (or taken where GitHub takes it), nothing kept (${refused.length + Object.keys(YES).length} cases passing)`,
          operations: [
            ...new Set([...covered, ...CASES.sent.filter((one) => keyOf(one) in YES).map((one) => one.operation)]),
          ].sort(),
        },
        null,
        2,
      )}\n`;
      if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(EVIDENCE, evidence);
      expect(readFileSync(EVIDENCE, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
      console.log(
        `GitHub body references (${store}): ${CASES.sent.length} cases: ${refused.length} refused as GitHub does, ${Object.keys(YES).length} taken as GitHub takes them`,
      );
    });
  },
);
