/**
 * A repository's branches and their protection as GitHub answers them (issue #73; its REST
 * reference, "Branches" and "Protected branches"), per repository (twin-own.ts): the branches are
 * the twin's own refs (refs.ts: a file written makes the default branch, `git.createRef` others).
 *
 * - `GET …/branches` lists them (`name`, `commit`, `protected`; `protected=true|false` filters),
 *   `GET …/branches/{branch}` reads one (`404 Branch not found` for another), with its commit,
 *   `_links`, `protection` and `protection_url`.
 * - `PUT …/branches/{branch}/protection` protects one: the four members GitHub requires
 *   (`required_status_checks`, `enforce_admins`, `required_pull_request_reviews`, `restrictions`,
 *   each may be `null`; a missing one `422 Invalid request. "…" wasn't supplied.`, as is a
 *   `required_status_checks` without `strict` or without `contexts`/`checks`; `restrictions` only on
 *   an organization's repository), the others optional; answered as `GET …/protection` answers it. `DELETE` unprotects it (`204`); both read
 *   `404 Branch not protected` for one that is not.
 *
 * The twin keeps the rule; it does not enforce it (a write to a protected branch is taken).
 *
 * @module
 */
import type { FlowError, FlowState } from '@mockpoint/core/internal';
import { record } from '../src/records.js';
import { GITHUB_USER } from './issues.js';
import type { PushedCommit, RepoOperation, RepoPlace } from './pushes.js';
import { branchesOf, notSupplied } from './refs.js';
import { apiOf } from './statuses.js';

const BRANCHES = '/repos/{owner}/{repo}/branches';
const BRANCH = `${BRANCHES}/{branch}`;
const PROTECTION = `${BRANCH}/protection`;
const KIND = 'protections';
const REQUIRED = ['required_status_checks', 'enforce_admins', 'required_pull_request_reviews', 'restrictions'];
/** The switches GitHub answers as `{ enabled }`, off unless sent `true`. */
const SWITCHES = [
  'required_linear_history',
  'allow_force_pushes',
  'allow_deletions',
  'block_creations',
  'required_conversation_resolution',
  'lock_branch',
  'allow_fork_syncing',
];

const notFound = (message: string): { error: FlowError } => ({
  error: { status: 404, type: 'invalid_request_error', message },
});

type Obj = Record<string, unknown>;

/** A protection as `PUT` and `GET …/protection` answer it, from what was sent. */
function protectionOf(sent: Obj, url: string): Obj {
  const protection: Obj = { url };
  const checks = record(sent.required_status_checks);
  if (checks !== undefined) {
    const listed = Array.isArray(checks.checks)
      ? checks.checks.map((check) => ({
          context: String(record(check)?.context ?? ''),
          app_id: record(check)?.app_id ?? null,
        }))
      : [];
    const contexts = Array.isArray(checks.contexts) ? checks.contexts.map(String) : listed.map((one) => one.context);
    protection.required_status_checks = {
      url: `${url}/required_status_checks`,
      strict: checks.strict === true,
      contexts,
      contexts_url: `${url}/required_status_checks/contexts`,
      checks: listed.length > 0 ? listed : contexts.map((context) => ({ context, app_id: null })),
    };
  }
  protection.enforce_admins = { url: `${url}/enforce_admins`, enabled: sent.enforce_admins === true };
  const reviews = record(sent.required_pull_request_reviews);
  if (reviews !== undefined) {
    protection.required_pull_request_reviews = {
      url: `${url}/required_pull_request_reviews`,
      dismiss_stale_reviews: reviews.dismiss_stale_reviews === true,
      require_code_owner_reviews: reviews.require_code_owner_reviews === true,
      required_approving_review_count:
        typeof reviews.required_approving_review_count === 'number' ? reviews.required_approving_review_count : 1,
      require_last_push_approval: reviews.require_last_push_approval === true,
    };
  }
  const restrictions = record(sent.restrictions);
  if (restrictions !== undefined) {
    protection.restrictions = {
      url: `${url}/restrictions`,
      users_url: `${url}/restrictions/users`,
      teams_url: `${url}/restrictions/teams`,
      apps_url: `${url}/restrictions/apps`,
      users: [],
      teams: [],
      apps: [],
    };
  }
  protection.required_signatures = { url: `${url}/required_signatures`, enabled: false };
  for (const name of SWITCHES) protection[name] = { enabled: sent[name] === true };
  return protection;
}

/** What `GET …/branches/{branch}` says of its protection: on, and its status checks' enforcement. */
function summaryOf(protection: Obj | undefined): Obj {
  if (protection === undefined) {
    return { enabled: false, required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] } };
  }
  const checks = record(protection.required_status_checks);
  const admins = record(protection.enforce_admins)?.enabled === true;
  return {
    enabled: true,
    required_status_checks: {
      enforcement_level: checks === undefined ? 'off' : admins ? 'everyone' : 'non_admins',
      contexts: checks?.contexts ?? [],
      checks: checks?.checks ?? [],
    },
  };
}

/** The commit a branch points at, as a branch answers it. */
function commitShown(sha: string, commit: PushedCommit | undefined, place: RepoPlace): Obj {
  const { full, api } = apiOf(place);
  const url = `${api}/commits/${sha}`;
  const dated = (who: Record<string, string> | undefined) =>
    who === undefined ? null : { name: who.name, email: who.email, date: commit?.timestamp ?? null };
  return {
    sha,
    node_id: `C_${sha.slice(0, 20)}`,
    commit: {
      author: dated(commit?.author),
      committer: dated(commit?.committer),
      message: commit?.message ?? '',
      tree: { sha: commit?.tree_id ?? null, url: `${api}/git/trees/${commit?.tree_id ?? sha}` },
      url: `${api}/git/commits/${sha}`,
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    url,
    html_url: `https://github.com/${full}/commit/${sha}`,
    comments_url: `${url}/comments`,
    author: commit === undefined ? null : GITHUB_USER,
    committer: commit === undefined ? null : GITHUB_USER,
    parents: [],
  };
}

async function protections(state: FlowState, place: RepoPlace): Promise<Map<string, Obj>> {
  const prefix = `${place.scope}:`;
  return new Map(
    [...(await state.read<Obj>(KIND))]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );
}

/** A repository's branches and their protection; `undefined`: not theirs. */
export const githubBranches: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  if (template !== BRANCHES && template !== BRANCH && template !== PROTECTION) return undefined;
  const branches = await branchesOf(state, place.scope);
  const guarded = await protections(state, place);
  const { api } = apiOf(place);
  if (template === BRANCHES) {
    if (method !== 'GET') return undefined;
    const only = sent.query.protected;
    const list = [...branches]
      .map(([name, { sha }]) => ({
        name,
        commit: { sha, url: `${api}/commits/${sha}` },
        protected: guarded.has(name),
      }))
      .filter((one) => only === undefined || String(one.protected) === String(only))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { list };
  }
  const name = matched.values.branch ?? '';
  const branch = branches.get(name);
  if (branch === undefined) return notFound('Branch not found');
  const url = `${api}/branches/${name}/protection`;
  if (template === BRANCH) {
    if (method !== 'GET') return undefined;
    return {
      status: 200,
      body: {
        name,
        commit: commitShown(branch.sha, branch.commit, place),
        _links: { self: `${api}/branches/${name}`, html: `https://github.com/${apiOf(place).full}/tree/${name}` },
        protected: guarded.has(name),
        protection: summaryOf(guarded.get(name)),
        protection_url: url,
      },
    };
  }
  const key = `${place.scope}:${name}`;
  if (method === 'PUT') {
    const missing = REQUIRED.filter((field) => !(field in sent.body));
    if (missing.length > 0) return notSupplied(missing);
    const checks = record(sent.body.required_status_checks);
    if (checks !== undefined) {
      const lacking = [
        ...('strict' in checks ? [] : ['strict']),
        ...('contexts' in checks || 'checks' in checks ? [] : ['contexts']),
      ];
      if (lacking.length > 0) return notSupplied(lacking);
    }
    const owner = place.repository?.owner as Obj | undefined;
    if (record(sent.body.restrictions) !== undefined && owner?.type !== 'Organization') {
      return {
        error: {
          status: 422,
          type: 'invalid_request_error',
          message: 'Only organization repositories can have users and team restrictions',
        },
      };
    }
    const protection = protectionOf(sent.body, url);
    await state.keep(KIND, key, protection);
    return { status: 200, body: protection };
  }
  const protection = guarded.get(name);
  if (protection === undefined) return notFound('Branch not protected');
  if (method === 'GET') return { status: 200, body: protection };
  if (method !== 'DELETE') return undefined;
  await state.keep(KIND, key, undefined);
  return { status: 204 };
};
