/**
 * GitHub's list parameters of issues and pull requests, as its REST docs say
 * ("List repository issues", "List pull requests"): `state` (`open` by
 * default, `closed`, `all`), `sort` (`created` by default, `updated`,
 * `comments`; pulls also `popularity`, `long-running`), `direction` (`desc` by
 * default; a pulls list sorted by anything but `created` defaults to `asc`),
 * `milestone` (a milestone's number, `*` any, `none` none), `labels` (a comma list, every one on the issue) and `since` (updated at or
 * after). A value outside these is GitHub's `422 Validation Failed`.
 *
 * @module
 */
import type { FlowError, ListOutcome } from '@mockpoint/core/internal';

const STATES = ['open', 'closed', 'all'];
const DIRECTIONS = ['asc', 'desc'];
const SORTS: Record<string, string[]> = {
  issues: ['created', 'updated', 'comments'],
  pulls: ['created', 'updated', 'popularity', 'long-running'],
};

/** GitHub's `422 Validation Failed` of a list parameter outside the values GitHub takes. */
export function invalid(resource: string, field: string, value: unknown): { error: FlowError } {
  return {
    error: {
      status: 422,
      type: 'invalid_request_error',
      code: 'invalid',
      message: `Validation Failed: ${field} '${String(value).slice(0, 100)}' is not one GitHub takes.`,
      extra: { errors: [{ resource, field, code: 'invalid', value: String(value).slice(0, 100) }] },
    },
  };
}

function text(value: unknown, fallback: string): string {
  return value === undefined || value === '' ? fallback : String(value);
}

/** The label names of an item (GitHub answers each label whole, or a name). */
function labelNames(item: Record<string, unknown>): string[] {
  const labels = Array.isArray(item.labels) ? item.labels : [];
  return labels.map((label) => (typeof label === 'string' ? label : String((label as { name?: unknown })?.name)));
}

/**
 * Whether an issue is one the `milestone` filter asks for: a milestone's number (the issues
 * carrying it), `*` (carrying any), `none` (carrying none); none sent, every one. A value naming no
 * milestone of the repository is refused before the list (milestone-issues.ts).
 */
function milestoneFilter(asked: unknown): (item: Record<string, unknown>) => boolean {
  const wanted = text(asked, '');
  const number = (item: Record<string, unknown>) => (item.milestone as { number?: unknown } | null)?.number;
  if (wanted === '') return () => true;
  if (wanted === '*') return (item) => number(item) !== undefined;
  if (wanted === 'none') return (item) => number(item) === undefined;
  return (item) => String(number(item)) === String(Number(wanted));
}

/**
 * The value an item sorts by: its number (the order it was made in; `across` repositories, whose
 * numbers each count apart, its `created_at`) or a later field.
 */
function sortKey(item: Record<string, unknown>, sort: string, across: boolean): number {
  if (sort === 'updated') return Date.parse(String(item.updated_at)) || 0;
  if (sort === 'comments') return Number(item.comments) || 0;
  // `popularity` and `long-running` rank by what the twin does not keep (reactions, activity): by creation.
  if (across) return Date.parse(String(item.created_at)) || 0;
  return Number(item.number) || 0;
}

/**
 * The issues or pull requests `query` asks for, in its order; `undefined` for another collection.
 * `across`: the items of many repositories (`GET /issues`), oldest first.
 */
export function githubList(
  template: string,
  items: Record<string, unknown>[],
  query: Record<string, unknown>,
  across = false,
): ListOutcome | undefined {
  const kind = template.split('/').at(-1) ?? '';
  if (kind === 'milestones' && template === '/repos/{owner}/{repo}/milestones') return milestoneList(items, query);
  const sorts = SORTS[kind];
  if (sorts === undefined) return undefined;
  const resource = kind === 'issues' ? 'Issue' : 'PullRequest';
  const state = text(query.state, 'open');
  if (!STATES.includes(state)) return invalid(resource, 'state', state);
  const sort = text(query.sort, 'created');
  if (!sorts.includes(sort)) return invalid(resource, 'sort', sort);
  const direction = text(query.direction, kind === 'pulls' && sort !== 'created' ? 'asc' : 'desc');
  if (!DIRECTIONS.includes(direction)) return invalid(resource, 'direction', direction);
  const used = ['state', 'sort', 'direction'];
  let kept = state === 'all' ? items : items.filter((item) => item.state === state);
  if (kind === 'issues' && !across) {
    used.push('milestone');
    kept = kept.filter(milestoneFilter(query.milestone));
  }
  if (kind === 'issues') {
    used.push('labels', 'since');
    const wanted = text(query.labels, '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    if (wanted.length > 0) kept = kept.filter((item) => wanted.every((name) => labelNames(item).includes(name)));
    if (query.since !== undefined && query.since !== '') {
      const since = Date.parse(String(query.since));
      if (Number.isNaN(since)) return invalid(resource, 'since', query.since);
      kept = kept.filter((item) => (Date.parse(String(item.updated_at)) || 0) >= since);
    }
  }
  const sign = direction === 'asc' ? 1 : -1;
  // Ties (two issues updated in one millisecond) keep the order they were made in, either way.
  const made = new Map(kept.map((item, at) => [item, at]));
  const order = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    sign *
    (sortKey(a, sort, across) - sortKey(b, sort, across) ||
      sortKey(a, 'created', across) - sortKey(b, 'created', across) ||
      (made.get(a) ?? 0) - (made.get(b) ?? 0));
  return { items: [...kept].sort(order), used };
}

/**
 * A repository's milestones as GitHub lists them ("List milestones"): `state` `open` (default),
 * `closed` or `all`; `sort` `due_on` (default; none due last) or `completeness` (the twin counts no
 * issues of a milestone: in the order made); `direction` `asc` by default.
 */
function milestoneList(items: Record<string, unknown>[], query: Record<string, unknown>): ListOutcome {
  const state = text(query.state, 'open');
  if (!STATES.includes(state)) return invalid('Milestone', 'state', state);
  const sort = text(query.sort, 'due_on');
  if (sort !== 'due_on' && sort !== 'completeness') return invalid('Milestone', 'sort', sort);
  const direction = text(query.direction, 'asc');
  if (!DIRECTIONS.includes(direction)) return invalid('Milestone', 'direction', direction);
  const kept = state === 'all' ? items : items.filter((item) => item.state === state);
  const due = (item: Record<string, unknown>) =>
    sort === 'due_on' && typeof item.due_on === 'string' ? Date.parse(item.due_on) || 0 : Number.POSITIVE_INFINITY;
  const sign = direction === 'asc' ? 1 : -1;
  const order = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const [x, y] = [due(a), due(b)];
    const byDue = x === y ? 0 : x < y ? -1 : 1;
    return sign * (byDue || (Number(a.number) || 0) - (Number(b.number) || 0));
  };
  return { items: [...kept].sort(order), used: ['state', 'sort', 'direction'] };
}
