/**
 * GitHub's search over what the twin holds (issue #73, "search over what exists"): `GET
 * /search/issues` finds the issues and pull requests of the repositories kept, `GET
 * /search/repositories` the repositories, each answered as GitHub answers a search (`{
 * total_count, incomplete_results, items }`, every item with its `score`), paged with `per_page`,
 * `page` and a `Link` that keeps `q`. The query is GitHub's search syntax: words (every one in
 * the title or body, or the name or description; a `"quoted phrase"` as one), and the
 * qualifiers below, a `-` before one excluding what it names. A qualifier the twin does not
 * read is taken as words are not: it is left out, so it narrows nothing.
 *
 * @module
 */

import type { FlowState, OwnAnswer, OwnOperation, OwnRequest } from '@mockpoint/core/internal';
import { invalidField, validationFailed } from './events.js';
import { member } from './issues.js';
import { live, records, shownRepo, valuesOf } from './repo-kept.js';

const ISSUES = '/repos/{owner}/{repo}/issues';
const PULLS = '/repos/{owner}/{repo}/pulls';

/** The longest `q` GitHub takes (256 characters), past which it answers `422`. */
const MAX_QUERY = 256;

/** One term of a query: a word or phrase, or a qualifier `key:value`, either excluded by a `-`. */
interface Term {
  key?: string;
  value: string;
  not: boolean;
}

/** The terms of `q`: split at spaces outside quotes, `key:value` a qualifier, a leading `-` a negation. */
export function termsOf(q: string): Term[] {
  const terms: Term[] = [];
  let negateNext = false;
  for (const found of q.matchAll(/(-?)(?:([A-Za-z-]+):)?(?:"([^"]*)"|(\S+))/g)) {
    const [, dash = '', key, quoted, bare] = found;
    // GitHub's operators: `AND` and `OR` join words (the twin reads every word as needed), `NOT`
    // excludes the next term as a `-` does.
    if (key === undefined && dash === '' && (bare === 'AND' || bare === 'OR')) continue;
    if (key === undefined && dash === '' && bare === 'NOT') {
      negateNext = true;
      continue;
    }
    const value = (quoted ?? bare ?? '').toLowerCase();
    if (value === '' && key === undefined) continue;
    terms.push({ ...(key === undefined ? {} : { key: key.toLowerCase() }), value, not: dash === '-' || negateNext });
    negateNext = false;
  }
  return terms;
}

/** GitHub's `422` of a search without a query, or one too long. */
function badQuery(code: 'missing' | 'invalid', message: string): OwnAnswer {
  return { error: { ...validationFailed(code, [{ resource: 'Search', field: 'q', code, message }]) } };
}

function loginOf(user: unknown): string {
  return String((user as { login?: unknown } | null)?.login ?? '').toLowerCase();
}

function labelNames(item: Record<string, unknown>): string[] {
  const labels = Array.isArray(item.labels) ? item.labels : [];
  return labels.map((label) =>
    (typeof label === 'string' ? label : String((label as { name?: unknown })?.name ?? '')).toLowerCase(),
  );
}

/** Whether `text` holds a word or phrase (case aside), in the fields `in:` names (all by default). */
function hasWords(words: Term[], fields: Record<string, unknown>, within: string[]): boolean {
  const named = within.length === 0 ? Object.keys(fields) : within.filter((field) => Object.hasOwn(fields, field));
  const texts = named.map((field) => String(fields[field] ?? '').toLowerCase());
  return words.every((word) => texts.some((text) => text.includes(word.value)) !== word.not);
}

/** Whether an issue (a pull request shown as one) meets one qualifier; `undefined`: one the twin does not read. */
function issueMeets(term: Term, issue: Record<string, unknown>, repo: string): boolean | undefined {
  const { key = '', value } = term;
  const pull = issue.pull_request !== undefined && issue.pull_request !== null;
  switch (key) {
    case 'repo':
      return repo.toLowerCase() === value;
    case 'user':
    case 'org':
      return repo.toLowerCase().startsWith(`${value}/`);
    case 'is':
    case 'type':
    case 'state':
      if (value === 'issue') return !pull;
      if (value === 'pr' || value === 'pull-request') return pull;
      if (value === 'open' || value === 'closed') return issue.state === value;
      if (value === 'locked' || value === 'unlocked') return (issue.locked === true) === (value === 'locked');
      // A pull request merged (its issue's `pull_request.merged_at`), or one open or closed unmerged; never an issue.
      if (key === 'is' && (value === 'merged' || value === 'unmerged')) {
        const at = (issue.pull_request as { merged_at?: unknown } | null | undefined)?.merged_at;
        return pull && (typeof at === 'string' && at !== '') === (value === 'merged');
      }
      return undefined;
    case 'label':
      return labelNames(issue).includes(value);
    case 'no':
      if (value === 'label') return labelNames(issue).length === 0;
      if (value === 'assignee') return !Array.isArray(issue.assignees) || issue.assignees.length === 0;
      return undefined;
    case 'author':
      return loginOf(issue.user) === value;
    case 'assignee':
      return Array.isArray(issue.assignees) && issue.assignees.some((user) => loginOf(user) === value);
    default:
      return undefined;
  }
}

/** Whether a repository meets one qualifier; `undefined`: one the twin does not read. */
function repoMeets(term: Term, repository: Record<string, unknown>): boolean | undefined {
  const { key = '', value } = term;
  const full = String(repository.full_name ?? '').toLowerCase();
  switch (key) {
    case 'repo':
      return full === value;
    case 'user':
    case 'org':
      return full.startsWith(`${value}/`);
    case 'is':
      if (value === 'public' || value === 'private') return (repository.private === true) === (value === 'private');
      return undefined;
    case 'archived':
      return String(repository.archived === true) === value;
    default:
      return undefined;
  }
}

/** Every qualifier met (a negated one not met); words in the fields `in:` names. */
function matches(terms: Term[], meets: (term: Term) => boolean | undefined, fields: Record<string, unknown>): boolean {
  const within = terms.filter((term) => term.key === 'in').flatMap((term) => term.value.split(','));
  const words = terms.filter((term) => term.key === undefined);
  for (const term of terms) {
    if (term.key === undefined || term.key === 'in') continue;
    const met = meets(term);
    if (met !== undefined && met === term.not) return false;
  }
  return hasWords(words, fields, within);
}

/** The `sort` and `order` of a search: by a field named, newest first where none is (the twin ranks no match). */
function ordered(
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  sorts: Record<string, string>,
): Record<string, unknown>[] | OwnAnswer {
  const sort = query.sort === undefined || query.sort === '' ? 'best-match' : String(query.sort);
  const order = query.order === undefined || query.order === '' ? 'desc' : String(query.order);
  if (order !== 'asc' && order !== 'desc') return invalid('order', order);
  const field = sort === 'best-match' ? 'created_at' : sorts[sort];
  if (field === undefined) return invalid('sort', sort);
  const key = (item: Record<string, unknown>) =>
    field === 'comments' ? Number(item.comments) || 0 : Date.parse(String(item[field])) || 0;
  const sign = order === 'asc' ? 1 : -1;
  // Each item's keys read once, not in every comparison (8,100 issues: 100,000 comparisons).
  // Ties (made in one millisecond) in the order the twin made them: the later of two first, `desc`.
  const keyed = items.map((item, rank) => ({
    item,
    key: key(item),
    made: Date.parse(String(item.created_at)) || 0,
    rank,
  }));
  keyed.sort((a, b) => sign * (a.key - b.key || a.made - b.made || a.rank - b.rank));
  return keyed.map((one) => one.item);
}

function invalid(field: string, value: string): OwnAnswer {
  const shown = value.slice(0, 100);
  return { error: invalidField('Search', field, { value: shown }) };
}

/**
 * A search's page as GitHub answers it: the envelope of the document's example (its `search_type`
 * where it has one), every item with its `score` (the twin's: 1).
 */
function wrapping(state: FlowState, template: string) {
  const {
    items: _items,
    total_count: _total,
    incomplete_results: _incomplete,
    ...envelope
  } = state.example('GET', template);
  // `items` before the example's other members: Octokit's `paginate` takes the first member
  // besides `total_count` and `incomplete_results` as the page's items.
  return (items: Record<string, unknown>[], total: number): unknown => ({
    total_count: total,
    incomplete_results: false,
    items: items.map((item) => ({ ...item, score: 1 })),
    ...envelope,
  });
}

/** The query's terms, or GitHub's `422` of a query missing or too long. */
function queryOf(sent: OwnRequest): Term[] | OwnAnswer {
  const q = typeof sent.query.q === 'string' ? sent.query.q : '';
  if (q.trim() === '') return badQuery('missing', 'q is missing');
  if (q.length > MAX_QUERY) return badQuery('invalid', `The search is longer than ${MAX_QUERY} characters.`);
  return termsOf(q);
}

/** One issue or pull request a search reads, with its repository's full name. */
interface Searched {
  issue: Record<string, unknown>;
  repo: string;
}

/**
 * Every issue and pull request of the live repositories, a repository's in the order made, and
 * each repository's alone (by its full name in lower case): built once while the twin's state
 * stays as it is ({@link FlowState.derived}), so that a search reads the issues it may find, not
 * every collection of the twin again (#86 H2: health stalled 1.6-1.9 s under 20 clients).
 */
async function searchIndex(state: FlowState): Promise<SearchIndex> {
  return state.derived('search-issues', async () => {
    const all: Searched[] = [];
    const byRepo = new Map<string, Searched[]>();
    const issuesBy = await state.objectsByScope(ISSUES);
    const pullsBy = await state.objectsByScope(PULLS);
    for (const record of live(await records(state))) {
      if (record.scope === undefined) continue;
      const values = valuesOf(record.scope);
      const repo = String(record.repository?.full_name ?? `${values.owner}/${shownRepo(values.repo)}`);
      const issues = issuesBy.get(record.scope) ?? [];
      const pulls = (pullsBy.get(record.scope) ?? []).map((pull) => member(PULLS, pull));
      // In the order made: the issues and pull requests of a repository share one sequence.
      const made = [...issues, ...pulls].sort((a, b) => (Number(a.number) || 0) - (Number(b.number) || 0));
      const own = made.map((issue) => ({ issue, repo }));
      all.push(...own);
      byRepo.set(repo.toLowerCase(), [...(byRepo.get(repo.toLowerCase()) ?? []), ...own]);
    }
    return { all, byRepo, found: new Map() };
  });
}

/** The issues a search reads, and what the searches asked of them lately found (by `q`, `sort`, `order`). */
interface SearchIndex {
  all: Searched[];
  byRepo: Map<string, Searched[]>;
  found: Map<string, Record<string, unknown>[]>;
}

/** Searches kept with an index: a client paging through one search reads the issues once. */
const MAX_FOUND = 8;

async function searchIssues(sent: OwnRequest, state: FlowState): Promise<OwnAnswer> {
  const terms = queryOf(sent);
  if (!Array.isArray(terms)) return terms;
  const index = await searchIndex(state);
  const asked = JSON.stringify([sent.query.q, sent.query.sort, sent.query.order]);
  const kept = index.found.get(asked);
  if (kept !== undefined) return { list: kept, wrap: wrapping(state, '/search/issues') };
  const found: Record<string, unknown>[] = [];
  // A `repo:` qualifier (not negated) reads that repository's issues only.
  const repoTerm = terms.find((term) => term.key === 'repo' && !term.not);
  const read = repoTerm === undefined ? index.all : (index.byRepo.get(repoTerm.value) ?? []);
  for (const { issue, repo } of read) {
    const fields = { title: issue.title, body: issue.body };
    if (matches(terms, (term) => issueMeets(term, issue, repo), fields)) found.push(issue);
  }
  const sorted = ordered(found, sent.query, { created: 'created_at', updated: 'updated_at', comments: 'comments' });
  if (!Array.isArray(sorted)) return sorted;
  if (index.found.size >= MAX_FOUND) index.found.delete(index.found.keys().next().value as string);
  index.found.set(asked, sorted);
  return { list: sorted, wrap: wrapping(state, '/search/issues') };
}

async function searchRepositories(sent: OwnRequest, state: FlowState): Promise<OwnAnswer> {
  const terms = queryOf(sent);
  if (!Array.isArray(terms)) return terms;
  const found = live(await records(state))
    .map((record) => record.repository as Record<string, unknown>)
    .filter((repository) => {
      const fields = { name: repository.name, description: repository.description };
      return matches(terms, (term) => repoMeets(term, repository), fields);
    });
  const sorted = ordered(found, sent.query, { updated: 'updated_at' });
  return Array.isArray(sorted) ? { list: sorted, wrap: wrapping(state, '/search/repositories') } : sorted;
}

/** `GET /search/issues` and `GET /search/repositories` of what the twin holds; `undefined`: another operation. */
export const githubSearch: OwnOperation = async (matched, sent, state) => {
  if (matched.op.method !== 'GET' || state.examples) return undefined;
  if (matched.op.template === '/search/issues') return searchIssues(sent, state);
  if (matched.op.template === '/search/repositories') return searchRepositories(sent, state);
  return undefined;
};
