import { describe, expect, it } from 'vitest';
import { itemOf } from '../collections/item.js';
import type { TwinResource } from './twin-operation.js';
import { checkProfile } from './twin-profile.js';
import { counted, counts, type Related } from './twin-related.js';

const resource = (segment: string): TwinResource => ({
  key: `projects-${segment}`,
  template: `/projects/{project}/${segment}`,
  idParam: `${segment}_id`,
  prefix: '',
  objectName: undefined,
});
const tasks = resource('tasks');
const bugs = resource('bugs');
const goals = resource('goals');
const notes = resource('notes');

/** A stored item as the engine keeps it, in `scope`. */
const kept = (scope: string, object: Record<string, unknown>, deleted = false) =>
  itemOf(JSON.stringify({ id: String(object.id), scope, deleted, object }));

const twin: Related = {
  resources: [tasks, bugs, goals, notes],
  profile: checkProfile({
    name: 'projects',
    ids: { keys: { goals: 'number' } },
    within: { bugs: 'tasks' },
    counts: {
      goals: {
        open: { of: 'tasks', by: 'goal.number', where: { state: 'open' } },
        done: { of: 'tasks', by: 'goal.number', where: { state: 'done' } },
        notes: 'notes',
      },
    },
  }),
  flows: undefined,
};

describe('the counts of a profile', () => {
  it('counts the live items naming an item by a field, and those within their collection, by state, in its scope', () => {
    const read = new Map([
      [
        tasks.key,
        [
          kept('p1', { id: 1, state: 'open', goal: { number: 1 } }),
          kept('p1', { id: 2, state: 'done', goal: { number: 1 } }),
          kept('p1', { id: 3, state: 'open', goal: { number: 2 } }),
          kept('p1', { id: 4, state: 'open', goal: null }),
          kept('p1', { id: 5, state: 'open', goal: { number: 1 } }, true),
          // Another scope's goal 1 is another goal.
          kept('p2', { id: 6, state: 'open', goal: { number: 1 } }),
        ],
      ],
      [bugs.key, [kept('p1', { id: 7, state: 'open', goal: { number: 1 } })]],
      [notes.key, [kept('p1/1', { id: 1 }), kept('p1/1', { id: 2 }, true), kept('p1/2', { id: 3 })]],
    ]);
    const goal = (scope: string, number: number) => ({
      id: String(number),
      scope,
      deleted: false,
      object: { number, open: -1, done: -1, notes: -1 },
    });
    expect(counts(twin, goals)).toBe(true);
    expect(counts(twin, tasks)).toBe(false);
    expect(counted(twin, goals, [goal('p1', 1), goal('p1', 2), goal('p2', 1), goal('p1', 3)], read)).toEqual([
      { number: 1, open: 2, done: 1, notes: 1 },
      { number: 2, open: 1, done: 0, notes: 1 },
      { number: 1, open: 1, done: 0, notes: 0 },
      { number: 3, open: 0, done: 0, notes: 0 },
    ]);
  });

  it('refuses a count that names no collection or field, with INVALID_TWIN', () => {
    expect(() => checkProfile({ name: 'x', counts: { goals: { open: { of: 'tasks' } } } })).toThrow(
      expect.objectContaining({ code: 'INVALID_TWIN', message: expect.stringContaining('profile.counts.goals.open') }),
    );
  });
});
