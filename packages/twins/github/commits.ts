/**
 * A repository's commits as GitHub's REST API answers them, from the history the twin keeps
 * (history.ts): `GET …/commits` (`repos.listCommits`: from `sha`, a branch, tag or SHA, the
 * default branch by default; `path` narrows it to the commits that changed that file; paged),
 * `GET …/commits/{ref}` (`repos.getCommit`, with its `files` and `stats`), `GET
 * …/compare/{base}...{head}` (`repos.compareCommits`: `status`, `ahead_by`, `behind_by`, the
 * merge base, the commits and the files of the three-dot comparison), and a pull request's
 * `GET …/pulls/{n}/commits` and `…/files` (`pulls.listCommits`, `pulls.listFiles`): its base
 * compared with its head. A repository with no commit is GitHub's `409 Git Repository is empty.`
 *
 * @module
 */
import type { FlowError, FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { treeDiff } from './commit-diff.js';
import { type CommitRecord, commitOf, commitsOf, compared, history, treeAt } from './history.js';
import { GITHUB_USER } from './issues.js';
import { EMPTY_REPOSITORY, NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { holdsRefs, shaOf } from './refs.js';

const REPO = '/repos/{owner}/{repo}';
const PULLS = `${REPO}/pulls`;
/** Most commits a list or a comparison reads (GitHub's comparison lists at most 250). */
const MAX_COMMITS = 10_000;

const EMPTY: OwnAnswer = { error: EMPTY_REPOSITORY };
const MISSING: OwnAnswer = { error: NOT_FOUND };

function noCommit(ref: string): OwnAnswer {
  const error: FlowError = {
    status: 422,
    type: 'invalid_request_error',
    message: `No commit found for SHA: ${ref.slice(0, 200)}`,
  };
  return { error };
}

/** The repository's current full name, as its URLs say it. */
function fullOf(place: RepoPlace): string {
  return String(place.repository?.full_name ?? `${place.values.owner}/${place.values.repo}`);
}

/** A commit as GitHub's `commit` object answers it (its `files` and `stats` when given). */
function commitShown(record: CommitRecord, full: string, files?: Record<string, unknown>[]): Record<string, unknown> {
  const api = `https://api.github.com/repos/${full}`;
  const web = `https://github.com/${full}`;
  const person = { name: 'The Octocat', email: 'octocat@github.com', date: record.date };
  const shown: Record<string, unknown> = {
    url: `${api}/commits/${record.sha}`,
    sha: record.sha,
    node_id: record.node_id,
    html_url: `${web}/commit/${record.sha}`,
    comments_url: `${api}/commits/${record.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${record.sha}`,
      author: record.author ?? person,
      committer: record.committer ?? record.author ?? person,
      message: record.message,
      tree: { url: `${api}/git/trees/${record.tree_sha}`, sha: record.tree_sha },
      comment_count: 0,
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    author: GITHUB_USER,
    committer: GITHUB_USER,
    parents: record.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${web}/commit/${sha}` })),
  };
  if (files !== undefined) {
    const additions = files.reduce((sum, file) => sum + Number(file.additions), 0);
    const deletions = files.reduce((sum, file) => sum + Number(file.deletions), 0);
    shown.stats = { total: additions + deletions, additions, deletions };
    shown.files = files;
  }
  return shown;
}

/** The SHA a ref sent names (a branch, tag or SHA the twin made), or the answer refusing it. */
async function resolved(state: FlowState, place: RepoPlace, ref: string): Promise<CommitRecord | OwnAnswer> {
  const sha = await shaOf(state, place.scope, ref);
  const commit = sha === undefined ? undefined : await commitOf(state, place.scope, sha);
  return commit ?? noCommit(ref);
}

async function listCommits(query: Record<string, unknown>, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const from = typeof query.sha === 'string' && query.sha !== '' ? query.sha : String(place.repository?.default_branch);
  const head = await resolved(state, place, from);
  if (!('sha' in head)) return head;
  const all = await commitsOf(state, place.scope);
  let commits = history(all, head.sha, MAX_COMMITS);
  if (typeof query.path === 'string' && query.path !== '') {
    const path = query.path.replace(/^\/+|\/+$/g, '');
    const parentTree = (commit: CommitRecord) => all.get(commit.parents[0] ?? '')?.tree ?? {};
    commits = commits.filter((commit) => parentTree(commit)[path] !== commit.tree[path]);
  }
  return { list: commits.map((commit) => commitShown(commit, fullOf(place))) };
}

async function getCommit(ref: string, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const commit = await resolved(state, place, ref);
  if (!('sha' in commit)) return commit;
  const full = fullOf(place);
  const parent = await treeAt(state, place.scope, commit.parents[0]);
  const files = await treeDiff(state, place.scope, full, commit.sha, parent, commit.tree);
  return { status: 200, body: commitShown(commit, full, files) };
}

/** `base...head` compared: GitHub's `commit-comparison`, or the answer refusing a side. */
async function comparison(
  state: FlowState,
  place: RepoPlace,
  baseRef: string,
  headRef: string,
): Promise<{ body: Record<string, unknown>; commits: CommitRecord[]; files: Record<string, unknown>[] } | OwnAnswer> {
  const base = await resolved(state, place, baseRef.slice(baseRef.indexOf(':') + 1));
  if (!('sha' in base)) return MISSING;
  const head = await resolved(state, place, headRef.slice(headRef.indexOf(':') + 1));
  if (!('sha' in head)) return MISSING;
  const full = fullOf(place);
  const { mergeBase, ahead, behindBy } = await compared(state, place.scope, base.sha, head.sha);
  const from = await treeAt(state, place.scope, mergeBase);
  const files = await treeDiff(state, place.scope, full, head.sha, from, head.tree);
  const merged = mergeBase === undefined ? undefined : await commitOf(state, place.scope, mergeBase);
  const status =
    ahead.length === 0 && behindBy === 0
      ? 'identical'
      : behindBy === 0
        ? 'ahead'
        : ahead.length === 0
          ? 'behind'
          : 'diverged';
  const web = `https://github.com/${full}`;
  const range = `${baseRef}...${headRef}`;
  const body = {
    url: `https://api.github.com/repos/${full}/compare/${range}`,
    html_url: `${web}/compare/${range}`,
    permalink_url: `${web}/compare/${base.sha}...${head.sha}`,
    diff_url: `${web}/compare/${range}.diff`,
    patch_url: `${web}/compare/${range}.patch`,
    base_commit: commitShown(base, full),
    merge_base_commit: merged === undefined ? null : commitShown(merged, full),
    status,
    ahead_by: ahead.length,
    behind_by: behindBy,
    total_commits: ahead.length,
    commits: ahead.slice(-250).map((commit) => commitShown(commit, full)),
    files,
  };
  return { body, commits: ahead, files };
}

/** GitHub's commits of the repository at `place`; `undefined`: another operation. */
export const githubCommits: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  if (method !== 'GET' || state.examples) return undefined;
  const list = template === `${REPO}/commits`;
  const one = template === `${REPO}/commits/{ref}`;
  const compare = template === `${REPO}/compare/{basehead}`;
  const pull = template === `${PULLS}/{pull_number}/files` || template === `${PULLS}/{pull_number}/commits`;
  if (!list && !one && !compare && !pull) return undefined;
  if (place.repository === undefined) return undefined;
  // An empty repository: GitHub's 409 where its description gives one, else none to compare.
  if (!(await holdsRefs(state, place.scope))) return pull ? { list: [] } : compare ? MISSING : EMPTY;
  if (list) return listCommits(request.query, state, place);
  if (one) return getCommit(matched.values.ref ?? '', state, place);
  if (compare) {
    const basehead = matched.values.basehead ?? '';
    const at = basehead.indexOf('...');
    if (at === -1) return MISSING;
    const answered = await comparison(state, place, basehead.slice(0, at), basehead.slice(at + 3));
    return 'files' in answered ? { status: 200, body: answered.body } : answered;
  }
  const number = matched.values.pull_number ?? '';
  const found = (await state.objects(PULLS, place.values)).find((one) => String(one.number) === number);
  if (found === undefined) return undefined;
  // An open pull request compares its branches as they are; a closed or merged one its commits
  // as they were (a merge moves the base branch), kept in its `base.sha` and `head.sha`.
  const open = found.state === 'open';
  const side = (end: unknown) => {
    const branch = (end ?? {}) as Record<string, unknown>;
    return String((open ? branch.ref : branch.sha) ?? '');
  };
  const answered = await comparison(state, place, side(found.base), side(found.head));
  if (!('files' in answered)) return { list: [] };
  if (template.endsWith('/files')) return { list: answered.files };
  return { list: answered.commits.map((commit) => commitShown(commit, fullOf(place))) };
};
