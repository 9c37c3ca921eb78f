import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { type DeliveryMembers, TwinOutbox } from './twin-outbox.js';

const one = (n: number): DeliveryMembers => new Map([['data', String(n)]]);
const numbers = (from: number, count: number) => Array.from({ length: count }, (_, i) => one(from + i));

/** A delivery engine whose hand-offs each wait until the test lets them go. */
function gatedEngine() {
  const handed: string[] = [];
  const gates: (() => void)[] = [];
  return {
    handed,
    deliver: async (members: DeliveryMembers) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      handed.push(members.get('data') as string);
    },
    /** Lets every hand-off under way go, until none is left. */
    async release() {
      while (gates.length > 0) {
        for (const open of gates.splice(0)) open();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  };
}

describe('TwinOutbox', () => {
  it('resolves a push before anything is handed off, then hands off in the order pushed', async () => {
    const engine = gatedEngine();
    const outbox = new TwinOutbox({ deliver: engine.deliver });
    await outbox.push('stripe', numbers(1, 3));
    await outbox.push('stripe', numbers(4, 2));
    // Nothing handed yet (the first hand-off is held): the changes did not wait for it.
    expect(engine.handed).toEqual([]);
    expect(outbox.status('stripe')).toEqual({ waiting: 5, handed: 0, refused: 0 });
    expect(outbox.busy).toBe(true);
    const drained = outbox.drain();
    await engine.release();
    await drained;
    expect(engine.handed).toEqual(['1', '2', '3', '4', '5']);
    expect(outbox.status('stripe')).toEqual({ waiting: 0, handed: 5, refused: 0 });
    expect(outbox.busy).toBe(false);
  });

  it('makes a push wait for room past its bound, losing nothing', async () => {
    const engine = gatedEngine();
    const outbox = new TwinOutbox({ deliver: engine.deliver, most: 4 });
    await outbox.push('github', numbers(1, 3));
    let queued = false;
    const second = outbox.push('github', numbers(4, 3)).then(() => {
      queued = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queued).toBe(false);
    await engine.release();
    await second;
    await engine.release();
    await outbox.drain();
    expect(queued).toBe(true);
    expect(engine.handed).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('counts a refused hand-off and keeps its refusal, and goes on with the next', async () => {
    const outbox = new TwinOutbox({
      deliver: async (members) => {
        if (members.get('data') === '2') throw new MockpointError('TOO_MANY_DELIVERIES', '500 deliveries are pending');
      },
    });
    await outbox.push('stripe', numbers(1, 3));
    await outbox.drain();
    const status = outbox.status('stripe');
    expect(status).toMatchObject({
      waiting: 0,
      handed: 2,
      refused: 1,
      lastRefusal: { code: 'TOO_MANY_DELIVERIES', message: '500 deliveries are pending' },
    });
    expect(outbox.status('other')).toEqual({ waiting: 0, handed: 0, refused: 0 });
  });

  it("runs a change's done once its deliveries are handed off, and counts a kept refusal in order", async () => {
    const engine = gatedEngine();
    const outbox = new TwinOutbox({ deliver: engine.deliver });
    const done: string[] = [];
    const gone = new MockpointError('TWIN_EVENT_GONE', 'event evt_1 left the events');
    await outbox.push('stripe', [one(1), gone, one(2)], () => done.push('a'));
    await outbox.push('stripe', [], () => done.push('empty'));
    await outbox.push('stripe', numbers(3, 1), () => done.push('b'));
    // A change with nothing to hand off is done at once; the others not before their last hand-off.
    expect(done).toEqual(['empty']);
    const drained = outbox.drain();
    await engine.release();
    await drained;
    expect(done).toEqual(['empty', 'a', 'b']);
    expect(engine.handed).toEqual(['1', '2', '3']);
    expect(outbox.status('stripe')).toMatchObject({
      handed: 3,
      refused: 1,
      lastRefusal: { code: 'TWIN_EVENT_GONE', message: 'event evt_1 left the events' },
    });
  });
});
