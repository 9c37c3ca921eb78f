// One request's flows write at most MAX_WRITTEN other objects and snapshots (#84): past it the
// request is refused with a stable code, where the engine used to drop the rest in silence (a
// renewal's invoice written and never kept). The flows call the kit before anything of the
// request is stored (twin-writes.ts, twin-actions.ts), so the refusal keeps nothing.
import { describe, expect, it } from 'vitest';
import { Refusal, refusalOf } from './twin-answer.js';
import type { Twin } from './twin-context.js';
import { flowKit, MAX_WRITTEN, written } from './twin-kit.js';

/** The little of a twin the kit reads before a flow writes: its tools, profile and flows. */
function fakeTwin(invalidStatus?: number): Twin {
  const parts = { profile: {}, flows: invalidStatus === undefined ? undefined : { invalidStatus } };
  return { parts, tools: { now: () => 0, newId: () => 'x' }, examples: false } as unknown as Twin;
}

/** What `run` throws (`undefined` when it returns). */
function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const effect = (n: number) => ({ kind: 'created' as const, template: '/things', object: { id: `t_${n}` } });

describe('the flow kit bounds what one request writes', () => {
  it('keeps MAX_WRITTEN effects, and refuses the next with too_many_writes', () => {
    const into = written();
    const kit = flowKit(fakeTwin(), into);
    for (let n = 0; n < MAX_WRITTEN; n++) kit.write(effect(n));
    expect(into.effects).toHaveLength(MAX_WRITTEN);
    const thrown = thrownBy(() => kit.write(effect(MAX_WRITTEN)));
    expect(thrown).toBeInstanceOf(Refusal);
    expect(refusalOf(thrown)).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'too_many_writes',
      message: expect.stringContaining(`more than ${MAX_WRITTEN} other objects`),
    });
    expect(into.effects).toHaveLength(MAX_WRITTEN);
  });

  it('refuses the snapshot past MAX_WRITTEN in the provider’s invalid status', () => {
    const into = written();
    const kit = flowKit(fakeTwin(422), into);
    for (let n = 0; n < MAX_WRITTEN; n++) kit.snapshot('thing.created', { id: `t_${n}` });
    expect(into.shots.size).toBe(MAX_WRITTEN);
    const thrown = thrownBy(() => kit.snapshot('thing.created', { id: 't_last' }));
    expect(thrown).toBeInstanceOf(Refusal);
    expect(refusalOf(thrown)).toMatchObject({
      status: 422,
      code: 'too_many_writes',
      message: expect.stringContaining('kept nothing of it'),
    });
    expect(into.shots.has('t_last')).toBe(false);
  });
});
