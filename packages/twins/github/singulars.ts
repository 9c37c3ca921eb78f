/**
 * What a `GET` of one thing below a repository answers (issue #73), where GitHub answers it of the
 * repository's own state and the document's example would say something of a repository that is
 * not so (a README, a license, topics, Pages): from what the twin keeps (its files, contents.ts;
 * the repository's fields) as GitHub's reference says, GitHub's `404 Not Found` for what is not
 * set up, or GitHub's answer of a repository just made for a setting the twin does not change.
 * With `unseen: "examples"` each answers the document's example, as before.
 *
 * @module
 */

import type { FlowError, FlowState, MatchedOperation, OwnAnswer } from '@mockpoint/core/internal';
import { entry, type FileRecord, filesOf } from './contents.js';
import { installationOf } from './installations.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { shownRepo } from './repo-kept.js';

const REPO = '/repos/{owner}/{repo}';

const MISSING: { error: FlowError } = { error: NOT_FOUND };

type Singular = (matched: MatchedOperation, state: FlowState, place: RepoPlace) => Promise<OwnAnswer> | OwnAnswer;

/** The file of `files` in `dir` (`''`: the root) whose name `pattern` takes, the first by name. */
function fileIn(files: Map<string, FileRecord>, dir: string, pattern: RegExp): FileRecord | undefined {
  const prefix = dir === '' ? '' : `${dir}/`;
  const names = [...files.keys()]
    .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
    .filter((path) => pattern.test(path.slice(prefix.length)))
    .sort();
  return names[0] === undefined ? undefined : files.get(names[0]);
}

const README = /^readme(\.[^/]*)?$/i;

/**
 * `GET …/readme`: the README GitHub shows, from the first of `.github`, the root and `docs` that
 * holds one (GitHub's order); `GET …/readme/{dir}` the one in `dir`; GitHub's 404 when none.
 */
async function readme(matched: MatchedOperation, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const files = await filesOf(state, place.scope);
  const asked = matched.values.dir;
  const dirs = asked === undefined ? ['.github', '', 'docs'] : [asked.replace(/^\/+|\/+$/g, '')];
  for (const dir of dirs) {
    const found = fileIn(files, dir, README);
    if (found !== undefined) return { status: 200, body: entry(matched.values, found.path, found, true) };
  }
  return MISSING;
}

/** The licenses the twin tells by their text (GitHub's `license` of each), else GitHub's `other`. */
const LICENSES: readonly { pattern: RegExp; license: Record<string, unknown> }[] = [
  {
    pattern: /Permission is hereby granted, free of charge/i,
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT', node_id: 'MDc6TGljZW5zZTEz' },
  },
  {
    pattern: /Apache License\s+Version 2\.0/i,
    license: { key: 'apache-2.0', name: 'Apache License 2.0', spdx_id: 'Apache-2.0', node_id: 'MDc6TGljZW5zZTI=' },
  },
  {
    pattern: /GNU GENERAL PUBLIC LICENSE\s+Version 3/i,
    license: {
      key: 'gpl-3.0',
      name: 'GNU General Public License v3.0',
      spdx_id: 'GPL-3.0',
      node_id: 'MDc6TGljZW5zZTk=',
    },
  },
  {
    pattern: /Permission to use, copy, modify, and\/or distribute this software for any purpose/i,
    license: { key: 'isc', name: 'ISC License', spdx_id: 'ISC', node_id: 'MDc6TGljZW5zZTEw' },
  },
];

const OTHER_LICENSE = { key: 'other', name: 'Other', spdx_id: 'NOASSERTION', url: null, node_id: 'MDc6TGljZW5zZTA=' };

const LICENSE_FILE = /^(un)?licen[sc]e([.-][^/]*)?$|^copying([.-][^/]*)?$/i;

/** The text of a file kept (its base64 decoded as UTF-8). */
function textOf(file: FileRecord): string {
  const bytes = Uint8Array.from(atob(file.content), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The root's license file of `files`, and the license its text holds (GitHub's `other` when the twin cannot tell). */
function licenseFile(
  files: Map<string, FileRecord>,
): { file: FileRecord; license: Record<string, unknown> } | undefined {
  const file = fileIn(files, '', LICENSE_FILE);
  if (file === undefined) return undefined;
  const text = textOf(file);
  const known = LICENSES.find((one) => one.pattern.test(text))?.license;
  const license =
    known === undefined ? OTHER_LICENSE : { ...known, url: `https://api.github.com/licenses/${known.key}` };
  return { file, license };
}

/**
 * A repository's `license` as `repos.get` answers it: the one `GET …/license` tells of the root's
 * license file of the repository kept as `scope`, `null` when it has none.
 */
export async function repositoryLicense(state: FlowState, scope: string): Promise<Record<string, unknown> | null> {
  return licenseFile(await filesOf(state, scope))?.license ?? null;
}

/** `GET …/license`: the root's license file with the license it holds; GitHub's 404 when none. */
async function license(matched: MatchedOperation, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const found = licenseFile(await filesOf(state, place.scope));
  if (found === undefined) return MISSING;
  return { status: 200, body: { ...entry(matched.values, found.file.path, found.file, true), license: found.license } };
}

/** The languages the twin tells by a file's extension, as GitHub's Linguist names them (prose and data not counted). */
const LANGUAGES: Record<string, string> = {
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  hpp: 'C++',
  cs: 'C#',
  css: 'CSS',
  go: 'Go',
  html: 'HTML',
  java: 'Java',
  js: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  jsx: 'JavaScript',
  kt: 'Kotlin',
  php: 'PHP',
  py: 'Python',
  rb: 'Ruby',
  rs: 'Rust',
  scss: 'SCSS',
  sh: 'Shell',
  swift: 'Swift',
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
};

/** The bytes of the files of the repository kept as `scope` by language, most first. */
async function languageBytes(state: FlowState, scope: string): Promise<[string, number][]> {
  const bytes = new Map<string, number>();
  for (const [path, file] of await filesOf(state, scope)) {
    const name = path.split('/').at(-1) ?? '';
    const language = name.includes('.') ? LANGUAGES[name.split('.').at(-1)?.toLowerCase() ?? ''] : undefined;
    if (language !== undefined) bytes.set(language, (bytes.get(language) ?? 0) + file.size);
  }
  return [...bytes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** A repository's `language` as `repos.get` answers it: the one most of its files' bytes are in, `null` for none. */
export async function repositoryLanguage(state: FlowState, scope: string): Promise<string | null> {
  return (await languageBytes(state, scope))[0]?.[0] ?? null;
}

/** `GET …/languages`: the bytes of the files kept by language, most first (`{}` with none). */
async function languages(_matched: MatchedOperation, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  return { status: 200, body: Object.fromEntries(await languageBytes(state, place.scope)) };
}

/** `GET …/topics`: the repository's `topics`. */
function topics(_matched: MatchedOperation, _state: FlowState, place: RepoPlace): OwnAnswer {
  const kept = place.repository?.topics;
  return { status: 200, body: { names: Array.isArray(kept) ? kept : [] } };
}

/** `GET …/subscription`: GitHub watches a repository for the user who makes it (the twin's every token). */
function subscription(matched: MatchedOperation, _state: FlowState, place: RepoPlace): OwnAnswer {
  const repository = place.repository;
  if (repository === undefined) return MISSING;
  const url = `https://api.github.com/repos/${matched.values.owner}/${shownRepo(String(matched.values.repo))}`;
  const body = {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: repository.created_at,
    url: `${url}/subscription`,
    repository_url: url,
  };
  return { status: 200, body };
}

/** `GET …/codeowners/errors`: none found in a CODEOWNERS file kept (the twin reads none), GitHub's 404 without one. */
async function codeowners(_matched: MatchedOperation, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const files = await filesOf(state, place.scope);
  const held = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'].some((path) => files.has(path));
  return held ? { status: 200, body: { errors: [] } } : MISSING;
}

/** `GET …/installation`: the twin's App's installation that selects the repository, GitHub's 404 when none does. */
async function installation(_matched: MatchedOperation, state: FlowState, place: RepoPlace): Promise<OwnAnswer> {
  const found = await installationOf(state, place.repository?.id);
  return found === undefined ? MISSING : { status: 200, body: found };
}

/** An answer that is the same for every repository the twin keeps (GitHub's of one just made). */
const fixed =
  (body: (matched: MatchedOperation) => unknown): Singular =>
  (matched) => ({ status: 200, body: body(matched) });

const notSetUp: Singular = () => MISSING;

const noWeeks = () => Array.from({ length: 52 }, () => 0);

/** What the singular `GET`s below a repository answer, by the path below it. */
const SINGULARS: Record<string, Singular> = {
  '/readme': readme,
  '/readme/{dir}': readme,
  '/license': license,
  '/languages': languages,
  '/topics': topics,
  '/stargazers/count': (_matched, _state, place) => ({
    status: 200,
    body: { count: Number(place.repository?.stargazers_count) || 0 },
  }),
  '/subscription': subscription,
  '/codeowners/errors': codeowners,
  '/installation': installation,
  // Not set up on a repository the twin makes, nor settable through the twin: GitHub's 404.
  '/pages': notSetUp,
  '/pages/builds/latest': notSetUp,
  '/pages/health': notSetUp,
  '/vulnerability-alerts': notSetUp,
  '/automated-security-fixes': notSetUp,
  '/immutable-releases': notSetUp,
  '/import': notSetUp,
  // GitHub's answer for a repository just made.
  '/private-vulnerability-reporting': fixed(() => ({ enabled: false })),
  '/interaction-limits': fixed(() => ({})),
  '/actions/permissions': fixed(() => ({ enabled: true, allowed_actions: 'all', sha_pinning_required: false })),
  '/actions/permissions/workflow': fixed(() => ({
    default_workflow_permissions: 'read',
    can_approve_pull_request_reviews: false,
  })),
  '/actions/cache/usage': fixed((matched) => ({
    full_name: `${matched.values.owner}/${shownRepo(String(matched.values.repo))}`,
    active_caches_size_in_bytes: 0,
    active_caches_count: 0,
  })),
  '/traffic/views': fixed(() => ({ count: 0, uniques: 0, views: [] })),
  '/traffic/clones': fixed(() => ({ count: 0, uniques: 0, clones: [] })),
  '/stats/participation': fixed(() => ({ all: noWeeks(), owner: noWeeks() })),
};

/** The singular `GET`s of {@link SINGULARS}; `undefined`: another's to answer. */
export const githubSingulars: RepoOperation = async (matched, _sent, state, place) => {
  const { method, template } = matched.op;
  if (method !== 'GET' || state.examples || !template.startsWith(`${REPO}/`)) return undefined;
  const singular = SINGULARS[template.slice(REPO.length)];
  return singular === undefined ? undefined : singular(matched, state, place);
};
