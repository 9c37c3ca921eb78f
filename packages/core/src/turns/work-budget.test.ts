import { describe, expect, it } from 'vitest';
import { WorkBudget, type WorkRefusal, type WorkTicket } from './work-budget.js';

const MB = 1024 * 1024;

describe('WorkBudget', () => {
  it('admits cheap work at once, uncounted', async () => {
    const budget = new WorkBudget({ units: 4 * MB, threshold: MB });
    const ticket = await budget.admit(MB - 1);
    expect(ticket.admitted).toBe(true);
    expect(budget.used).toBe(0);
  });

  it('admits work up to its units, then makes the next wait for a release, in order', async () => {
    const budget = new WorkBudget({ units: 4 * MB, threshold: MB, waitMs: 5_000 });
    const first = (await budget.admit(3 * MB)) as WorkTicket;
    expect(budget.used).toBe(3 * MB);
    const order: string[] = [];
    const large = budget.admit(2 * MB).then((ticket) => {
      order.push('large');
      return ticket as WorkTicket;
    });
    // A small one that would fit now still waits behind the large one ahead of it.
    const small = budget.admit(MB).then((ticket) => {
      order.push('small');
      return ticket as WorkTicket;
    });
    // Every admission that could settle now has: the queue's promises and the turn after them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(budget.waiting).toBe(2);
    first.release();
    first.release(); // once only
    (await large).release();
    (await small).release();
    expect(order).toEqual(['large', 'small']);
    expect(budget.used).toBe(0);
  });

  it('refuses work the budget had no room for within the wait, with the seconds to wait', async () => {
    const budget = new WorkBudget({ units: 4 * MB, threshold: MB, waitMs: 30 });
    const held = (await budget.admit(16 * MB)) as WorkTicket;
    // Larger than the whole budget: counted as all of it.
    expect(budget.used).toBe(4 * MB);
    const refused = (await budget.admit(2 * MB)) as WorkRefusal;
    expect(refused).toMatchObject({ admitted: false, units: 2 * MB, budget: 4 * MB });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(budget.waiting).toBe(0);
    held.release();
    expect(((await budget.admit(2 * MB)) as WorkTicket).admitted).toBe(true);
  });

  it('lets the next in line in when the one ahead of it gives up', async () => {
    const budget = new WorkBudget({ units: 4 * MB, threshold: MB, waitMs: 50 });
    const held = (await budget.admit(2 * MB)) as WorkTicket;
    const tooLarge = budget.admit(4 * MB);
    // The too-large one is in line first; the next is asked behind it.
    await new Promise((resolve) => setImmediate(resolve));
    const fits = budget.admit(2 * MB);
    expect((await tooLarge).admitted).toBe(false);
    expect((await fits).admitted).toBe(true);
    held.release();
  });
});
