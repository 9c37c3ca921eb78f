/**
 * GitHub's Git database API (issue #84) from the objects each repository holds (git-objects.ts,
 * history.ts), so that Octokit's usual flow — `git.getRef` → `git.getCommit` → `git.createBlob` →
 * `git.createTree` (`base_tree`) → `git.createCommit` (`parents`) → `git.updateRef` — moves a
 * branch to a commit `repos.listCommits`, `repos.compareCommits` and `repos.getContent` all see:
 *
 * - `POST …/git/blobs` (`content`, `encoding` `utf-8` or `base64`) keeps the bytes under their git
 *   SHA-1 (`201 { sha, url }`); `GET …/git/blobs/{file_sha}` reads them (base64 in lines of 60, as
 *   the contents API answers them);
 * - `POST`/`GET …/git/trees`: git-trees.ts;
 * - `POST …/git/commits` (`message`, `tree`, `parents`, `author`, `committer`) keeps a commit of the
 *   history; `GET …/git/commits/{commit_sha}` reads one;
 * - `POST …/git/tags` (`tag`, `message`, `object`, `type`, `tagger`) keeps an annotated tag;
 *   `GET …/git/tags/{tag_sha}` reads one.
 *
 * What GitHub answers a SHA the repository does not hold, as its users report it (Octokit's and
 * octokit.rb's issues, Bugsnag reports of `Octokit::UnprocessableEntity`): `422 Tree SHA does not
 * exist`, `422 Parent SHA does not exist or is not a commit object`, `422 Object does not exist`; a
 * read of one never made `404 Not Found`. With `unseen: "examples"` each answers the document's
 * example, as before (as the twin's commits do, commits.ts).
 *
 * @module
 */
import type { FlowError, FlowState, OwnAnswer } from '@mockpoint/core/internal';
import { base64Size, blobOf, gitSha, keepTag, type TagRecord, tagOf, treeOf } from './git-objects.js';
import { createTree, getTree } from './git-trees.js';
import { type CommitRecord, commitOf, type GitPerson, keepBlob, keepCommit } from './history.js';
import { EMPTY_REPOSITORY, NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { holdsRefs, notSupplied } from './refs.js';

const GIT = '/repos/{owner}/{repo}/git';
const SHA = /^[0-9a-f]{40}$/i;
/** Most parents a commit made has (git's octopus merges rarely pass a few dozen). */
const MAX_PARENTS = 100;
const MISSING: OwnAnswer = { error: NOT_FOUND };
const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

function refused(message: string, code?: string): { error: FlowError } {
  return { error: { status: 422, type: 'invalid_request_error', message, ...(code === undefined ? {} : { code }) } };
}

function apiOf(place: RepoPlace): { api: string; web: string } {
  const full = String(place.repository?.full_name ?? `${place.values.owner}/${place.values.repo}`);
  return { api: `https://api.github.com/repos/${full}/git`, web: `https://github.com/${full}` };
}

/** A blob's node id: `B_` and its SHA's bytes in URL-safe base64 (the same on every read). */
function blobNodeId(sha: string): string {
  const bytes = String.fromCharCode(...(sha.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16)));
  return `B_${btoa(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

async function createBlob(state: FlowState, place: RepoPlace, sent: Record<string, unknown>): Promise<OwnAnswer> {
  if (typeof sent.content !== 'string') return notSupplied(['content']);
  const encoding = sent.encoding ?? 'utf-8';
  let bytes: Uint8Array;
  if (encoding === 'base64') {
    try {
      bytes = Uint8Array.from(atob(sent.content.replace(/\s+/g, '')), (char) => char.charCodeAt(0));
    } catch {
      return refused('content is not valid Base64');
    }
  } else if (encoding === 'utf-8' || encoding === 'utf8') {
    bytes = new TextEncoder().encode(sent.content);
  } else {
    return refused(`encoding must be utf-8 or base64, not ${String(encoding).slice(0, 40)}`);
  }
  const sha = await gitSha('blob', bytes);
  await keepBlob(state, place.scope, {
    sha,
    content: btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join('')),
  });
  return { status: 201, body: { sha, url: `${apiOf(place).api}/blobs/${sha}` } };
}

async function getBlob(state: FlowState, place: RepoPlace, sha: string): Promise<OwnAnswer> {
  const content = SHA.test(sha) ? await blobOf(state, place.scope, sha) : undefined;
  if (content === undefined) return MISSING;
  const at = sha.toLowerCase();
  return {
    status: 200,
    body: {
      sha: at,
      node_id: blobNodeId(at),
      size: base64Size(content),
      url: `${apiOf(place).api}/blobs/${at}`,
      content: `${(content.match(/.{1,60}/g) ?? []).join('\n')}\n`,
      encoding: 'base64',
    },
  };
}

/** A person sent (`author`, `committer`, `tagger`), the Octocat now where none is. */
function personOf(state: FlowState, sent: unknown, fallback?: GitPerson): GitPerson {
  const given = (sent ?? {}) as Record<string, unknown>;
  const base = fallback ?? {
    name: 'The Octocat',
    email: 'octocat@github.com',
    date: new Date(state.now()).toISOString(),
  };
  const date =
    typeof given.date === 'string' && !Number.isNaN(Date.parse(given.date))
      ? new Date(given.date).toISOString()
      : base.date;
  return {
    name: typeof given.name === 'string' ? given.name.slice(0, 1000) : base.name,
    email: typeof given.email === 'string' ? given.email.slice(0, 1000) : base.email,
    date: date.replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** A person as git writes it in an object: `name <email> seconds +0000`. */
function signature(person: GitPerson): string {
  return `${person.name} <${person.email}> ${Math.floor(Date.parse(person.date) / 1000)} +0000`;
}

function commitShown(place: RepoPlace, record: CommitRecord): Record<string, unknown> {
  const { api, web } = apiOf(place);
  const octocat = { name: 'The Octocat', email: 'octocat@github.com', date: record.date };
  return {
    sha: record.sha,
    node_id: record.node_id,
    url: `${api}/commits/${record.sha}`,
    html_url: `${web}/commit/${record.sha}`,
    author: record.author ?? octocat,
    committer: record.committer ?? record.author ?? octocat,
    tree: { sha: record.tree_sha, url: `${api}/trees/${record.tree_sha}` },
    message: record.message,
    parents: record.parents.map((sha) => ({ sha, url: `${api}/commits/${sha}`, html_url: `${web}/commit/${sha}` })),
    verification: UNSIGNED,
  };
}

async function createCommit(state: FlowState, place: RepoPlace, sent: Record<string, unknown>): Promise<OwnAnswer> {
  const missing = ['message', 'tree'].filter((field) => typeof sent[field] !== 'string');
  if (missing.length > 0) return notSupplied(missing);
  const parents = sent.parents ?? [];
  if (!Array.isArray(parents) || parents.some((one) => typeof one !== 'string')) {
    return refused('parents must be a list of commit SHAs');
  }
  if (parents.length > MAX_PARENTS)
    return refused(`A commit has at most ${MAX_PARENTS} parents in the twin.`, 'too_many_parents');
  const treeSent = String(sent.tree);
  const tree = SHA.test(treeSent) ? await treeOf(state, place.scope, treeSent) : undefined;
  if (tree === undefined) return refused('Tree SHA does not exist');
  for (const parent of parents as string[]) {
    if (!SHA.test(parent) || (await commitOf(state, place.scope, parent)) === undefined) {
      return refused('Parent SHA does not exist or is not a commit object');
    }
  }
  const author = personOf(state, sent.author);
  const committer = personOf(state, sent.committer, author);
  const message = String(sent.message);
  const lowered = (parents as string[]).map((one) => one.toLowerCase());
  const text = [
    `tree ${treeSent.toLowerCase()}`,
    ...lowered.map((one) => `parent ${one}`),
    `author ${signature(author)}`,
    `committer ${signature(committer)}`,
    '',
    message,
  ].join('\n');
  const sha = await gitSha('commit', new TextEncoder().encode(text));
  const record: CommitRecord = (await commitOf(state, place.scope, sha)) ?? {
    sha,
    node_id: state.newId('C_'),
    message,
    date: committer.date,
    parents: lowered,
    tree,
    tree_sha: treeSent.toLowerCase(),
    author,
    committer,
  };
  await keepCommit(state, place.scope, record);
  return { status: 201, body: commitShown(place, record) };
}

function tagShown(place: RepoPlace, tag: TagRecord): Record<string, unknown> {
  const { api } = apiOf(place);
  const kind =
    tag.object.type === 'commit'
      ? 'commits'
      : tag.object.type === 'tree'
        ? 'trees'
        : tag.object.type === 'tag'
          ? 'tags'
          : 'blobs';
  return {
    node_id: tag.node_id,
    tag: tag.tag,
    sha: tag.sha,
    url: `${api}/tags/${tag.sha}`,
    message: tag.message,
    tagger: tag.tagger,
    object: { ...tag.object, url: `${api}/${kind}/${tag.object.sha}` },
    verification: UNSIGNED,
  };
}

/** Whether the repository kept as `scope` holds the object `sha` of `type`. */
async function holds(state: FlowState, scope: string, sha: string, type: string): Promise<boolean> {
  if (!SHA.test(sha)) return false;
  if (type === 'commit') return (await commitOf(state, scope, sha)) !== undefined;
  if (type === 'tree') return (await treeOf(state, scope, sha)) !== undefined;
  if (type === 'blob') return (await blobOf(state, scope, sha)) !== undefined;
  return type === 'tag' && (await tagOf(state, scope, sha)) !== undefined;
}

async function createTag(state: FlowState, place: RepoPlace, sent: Record<string, unknown>): Promise<OwnAnswer> {
  const missing = ['tag', 'message', 'object', 'type'].filter((field) => typeof sent[field] !== 'string');
  if (missing.length > 0) return notSupplied(missing);
  const type = String(sent.type);
  if (!['commit', 'tree', 'blob'].includes(type)) return refused('type must be commit, tree or blob');
  const object = String(sent.object).toLowerCase();
  if (!(await holds(state, place.scope, object, type))) return refused('Object does not exist');
  const tagger = personOf(state, sent.tagger);
  const name = String(sent.tag);
  const message = String(sent.message);
  const text = `object ${object}\ntype ${type}\ntag ${name}\ntagger ${signature(tagger)}\n\n${message}`;
  const sha = await gitSha('tag', new TextEncoder().encode(text));
  const tag: TagRecord = (await tagOf(state, place.scope, sha)) ?? {
    sha,
    node_id: state.newId('TAG_'),
    tag: name,
    message,
    object: { sha: object, type },
    tagger,
  };
  await keepTag(state, place.scope, tag);
  return { status: 201, body: tagShown(place, tag) };
}

/** GitHub's Git database API of the repository at `place`; `undefined`: another operation (or `unseen: "examples"`). */
export const githubGitDatabase: RepoOperation = async (matched, request, state, place) => {
  const { method, template } = matched.op;
  if (!template.startsWith(`${GIT}/`) || state.examples || place.repository === undefined) return undefined;
  const sent = request.body;
  const { values } = matched;
  if (method === 'POST') {
    // GitHub's Git database takes no object before a repository's first commit.
    if (!(await holdsRefs(state, place.scope))) return { error: EMPTY_REPOSITORY };
    if (template === `${GIT}/blobs`) return createBlob(state, place, sent);
    if (template === `${GIT}/trees`) return createTree(state, place, sent);
    if (template === `${GIT}/commits`) return createCommit(state, place, sent);
    if (template === `${GIT}/tags`) return createTag(state, place, sent);
    return undefined;
  }
  if (method !== 'GET') return undefined;
  if (template === `${GIT}/blobs/{file_sha}`) return getBlob(state, place, values.file_sha ?? '');
  if (template === `${GIT}/trees/{tree_sha}`) return getTree(state, place, values.tree_sha ?? '', request.query);
  if (template === `${GIT}/commits/{commit_sha}`) {
    const sha = values.commit_sha ?? '';
    const commit = SHA.test(sha) ? await commitOf(state, place.scope, sha) : undefined;
    return commit === undefined ? MISSING : { status: 200, body: commitShown(place, commit) };
  }
  if (template === `${GIT}/tags/{tag_sha}`) {
    const tag = await tagOf(state, place.scope, values.tag_sha ?? '');
    return tag === undefined ? MISSING : { status: 200, body: tagShown(place, tag) };
  }
  return undefined;
};
