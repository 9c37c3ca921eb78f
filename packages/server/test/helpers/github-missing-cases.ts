/**
 * The cases of GitHub's missing objects (#84), read from GitHub's document through the twins
 * package's loader: every `POST`, `PUT`, `PATCH` and `DELETE` under `/repos/{owner}/{repo}/…` whose
 * path holds another parameter (`issue_number`, `hook_id`, a label's `name`, `branch`, `ref`, …),
 * its path given a value no repository made with `POST /user/repos` holds and its body the
 * operation's required fields, each valid. A write that makes what its path names (`PUT
 * …/secrets/{secret_name}`, `…/create-or-update-…`) is set apart (`made`). GitHub's answer to each
 * is its 404 unless `ANSWERS` says another. Used by twin-github-missing.test.ts (a valid body),
 * twin-github-missing-first.test.ts (an invalid one) and twin-github-makes-named.test.ts (`made`).
 *
 * @module
 */
import { load } from '@mockpoint/twins';
import { resolved, validValue } from './constraint-cases.js';
import { sampleOf } from './schema-sample.js';

type Schema = Record<string, unknown>;

const { document } = await load('github');
/** GitHub's document, as the twin reads it. */
export const DOC = document as unknown as Schema & { paths: Record<string, Record<string, Schema>> };

export const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
/** The repository every case is sent below (made with `POST /user/repos` first). */
export const REPO = 'missing84';
/** A commit SHA no repository of the twin holds. */
const NO_SHA = 'f'.repeat(40);

/** GitHub's refusal `status` in its own `message`, with the documentation link its 404 carries. */
const said = (status: number, message: string) => ({
  status,
  body: { message, documentation_url: NOT_FOUND.documentation_url },
});

/** GitHub's answer where it is not the plain 404, by operation, with why. */
export const ANSWERS: Record<string, { status: number; body?: Record<string, unknown> }> = {
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
  // A secret's name as GitHub's rule takes it (letters, digits, `_`).
  if (name === 'secret_name') return 'NOPE_84';
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

/** The body's schema of `operation` in JSON, `$ref`s resolved at its top (`undefined`: it takes none). */
export function bodySchema(operation: Schema): Schema | undefined {
  const content = (operation.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
  const media = content?.['application/json'];
  return media === undefined ? undefined : resolved(DOC, media.schema);
}

/**
 * A minimal valid body: its required fields (and those of its first `anyOf` / `oneOf` option), each
 * a value its constraints take, else the document's example of it.
 */
export async function bodyOf(operation: Schema): Promise<unknown> {
  const schema = bodySchema(operation);
  if (schema === undefined) return undefined;
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

/** One write below an object never made, or one that makes what its path names. */
export interface Case {
  /** `METHOD template`. */
  operation: string;
  path: string;
  body: unknown;
  /** The document's operation. */
  spec: Schema;
}

/** Every write below a repository whose path names another object, sent with a value it never made. */
async function cases(): Promise<{ sent: Case[]; made: Case[] }> {
  const sent: Case[] = [];
  const made: Case[] = [];
  for (const [template, item] of Object.entries(DOC.paths)) {
    if (!template.startsWith('/repos/{owner}/{repo}/')) continue;
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
    if (names.every((name) => name === 'owner' || name === 'repo')) continue;
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (operation === undefined) continue;
      const declared = [item.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : []));
      const params = (declared as Schema[]).map(parameter);
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        if (name === 'owner') return 'octocat';
        if (name === 'repo') return REPO;
        const param = params.find((one) => one.in === 'path' && one.name === name) ?? {};
        return encodeURIComponent(missingValue(name, (param.schema ?? {}) as Schema));
      });
      const one = {
        operation: `${method.toUpperCase()} ${template}`,
        path,
        body: await bodyOf(operation),
        spec: operation,
      };
      (makesWhatItNames(method, template, operation, names) ? made : sent).push(one);
    }
  }
  return { sent, made };
}

export const CASES = await cases();
