import { describe, expect, it } from 'vitest';
import { githubList } from './lists.js';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const issue = (number: number, state: string, labels: string[], updated: number, comments = 0) => ({
  number,
  state,
  labels: labels.map((name) => ({ name })),
  updated_at: at(updated),
  comments,
});
const issues = [
  issue(1, 'open', ['bug'], 50, 2),
  issue(2, 'closed', ['bug', 'ui'], 10),
  issue(3, 'open', ['ui'], 30, 5),
  issue(4, 'open', ['bug', 'ui'], 20, 1),
];

function numbers(query: Record<string, unknown>, template = '/repos/{owner}/{repo}/issues'): unknown {
  const listed = githubList(template, issues, query);
  if (listed === undefined || 'error' in listed) return listed;
  return listed.items.map((item) => item.number);
}

describe("GitHub's issue and pull request lists", () => {
  it('lists the open ones, newest first, by default; all and closed when asked', () => {
    expect(numbers({})).toEqual([4, 3, 1]);
    expect(numbers({ state: 'all' })).toEqual([4, 3, 2, 1]);
    expect(numbers({ state: 'closed' })).toEqual([2]);
    expect(numbers({ state: 'all', direction: 'asc' })).toEqual([1, 2, 3, 4]);
  });

  it('sorts by updated and comments, keeps every label asked for, and those updated since', () => {
    expect(numbers({ state: 'all', sort: 'updated' })).toEqual([1, 3, 4, 2]);
    expect(numbers({ sort: 'comments', direction: 'asc' })).toEqual([4, 1, 3]);
    expect(numbers({ state: 'all', labels: 'bug,ui' })).toEqual([4, 2]);
    expect(numbers({ labels: 'ui' })).toEqual([4, 3]);
    expect(numbers({ state: 'all', since: at(20) })).toEqual([4, 3, 1]);
  });

  it('pull requests: sorted by other than created, ascending unless told; no labels or since of theirs', () => {
    const pulls = '/repos/{owner}/{repo}/pulls';
    expect(numbers({ sort: 'updated' }, pulls)).toEqual([4, 3, 1]);
    expect(numbers({ sort: 'updated', direction: 'desc' }, pulls)).toEqual([1, 3, 4]);
    expect(githubList(pulls, issues, {})).toMatchObject({ used: ['state', 'sort', 'direction'] });
  });

  it('refuses a value GitHub does not take with its 422, and leaves other collections to the plain fields', () => {
    for (const query of [{ state: 'any' }, { sort: 'popularity' }, { direction: 'up' }, { since: 'yesterday' }]) {
      expect(githubList('/repos/{owner}/{repo}/issues', issues, query)).toMatchObject({
        error: { status: 422, code: 'invalid', message: expect.stringContaining('Validation Failed') },
      });
    }
    expect(githubList('/repos/{owner}/{repo}/labels', issues, { state: 'all' })).toBeUndefined();
  });
});
