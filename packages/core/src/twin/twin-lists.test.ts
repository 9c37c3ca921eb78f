import { describe, expect, it } from 'vitest';
import type { DocumentList } from './twin-document.js';
import { filterByQuery, PageProblem, pageOf } from './twin-lists.js';
import { checkProfile } from './twin-profile.js';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));

describe('pages', () => {
  it('pages by cursor as Stripe does: limit, starting_after, ending_before, has_more', () => {
    const stripe = checkProfile({ name: 's', pagination: { style: 'cursor' } });
    expect(pageOf(stripe, items, { limit: 2 }, '/v1/x')).toMatchObject({
      items: [{ id: 'a' }, { id: 'b' }],
      hasMore: true,
    });
    expect(pageOf(stripe, items, { limit: 2, starting_after: 'c' }, '/v1/x')).toMatchObject({
      items: [{ id: 'd' }, { id: 'e' }],
      hasMore: false,
    });
    expect(pageOf(stripe, items, { limit: 2, ending_before: 'c' }, '/v1/x').items).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(() => pageOf(stripe, items, { starting_after: 'zz' }, '/v1/x')).toThrow(PageProblem);
    expect(() => pageOf(stripe, items, { limit: 101 }, '/v1/x')).toThrow(PageProblem);
  });

  it('refuses a cursor naming no object as Stripe does (resource_missing on it), and both cursors at once', () => {
    const stripe = checkProfile({ name: 's', pagination: { style: 'cursor' } });
    const customers = items.map((item) => ({ ...item, object: 'customer' }));
    const refusal = (query: Record<string, unknown>, list = customers, url = '/v1/customers') => {
      try {
        pageOf(stripe, list, query, url);
      } catch (error) {
        const { message, code, param } = error as PageProblem;
        return { message, code, param };
      }
      return undefined;
    };
    expect(refusal({ starting_after: 'cus_nope' })).toEqual({
      message: "No such customer: 'cus_nope'",
      code: 'resource_missing',
      param: 'starting_after',
    });
    // An empty list names its objects by its path.
    expect(refusal({ ending_before: 'pi_nope' }, [], '/v1/payment_intents')).toEqual({
      message: "No such payment_intent: 'pi_nope'",
      code: 'resource_missing',
      param: 'ending_before',
    });
    expect(refusal({ starting_after: 'b', ending_before: 'd' })).toEqual({
      message: 'You may only specify one of these parameters: ending_before, starting_after.',
      code: undefined,
      param: undefined,
    });
  });

  it('pages by number with a Link header', () => {
    const github = checkProfile({ name: 'g' });
    const second = pageOf(github, items, { per_page: 2, page: 2 }, '/repos/a/b/issues', 'per_page=2&page=2');
    expect(second.items).toEqual([{ id: 'c' }, { id: 'd' }]);
    expect(second.link).toBe(
      '</repos/a/b/issues?per_page=2&page=1>; rel="prev", </repos/a/b/issues?per_page=2&page=1>; rel="first", </repos/a/b/issues?per_page=2&page=3>; rel="next", </repos/a/b/issues?per_page=2&page=3>; rel="last"',
    );
  });

  it("keeps every parameter of the request's query in its Link, only the page changed (as GitHub)", () => {
    const github = checkProfile({ name: 'g' });
    const raw = 'state=open&labels=bug,ui&per_page=2&page=1&page=9&q=%3Cx%3E';
    const first = pageOf(github, items, { state: 'open', labels: 'bug,ui', per_page: 2, page: 1 }, '/r', raw);
    expect(first.link).toBe(
      '</r?state=open&labels=bug,ui&per_page=2&page=2&q=%3Cx%3E>; rel="next", </r?state=open&labels=bug,ui&per_page=2&page=3&q=%3Cx%3E>; rel="last"',
    );
    // No page sent: one added; no per_page sent: none added (the default stands on every page).
    expect(pageOf(github, items, { per_page: 4 }, '/r', 'state=all&per_page=4').link).toBe(
      '</r?state=all&per_page=4&page=2>; rel="next", </r?state=all&per_page=4&page=2>; rel="last"',
    );
    // What could break the header is percent-encoded.
    expect(pageOf(github, items, { per_page: 4 }, '/r', 'per_page=4&x=<a> "b"').link).toContain(
      'x=%3Ca%3E%20%22b%22&page=2',
    );
  });
});

describe("a document's page sizes", () => {
  const doc = checkProfile({ name: 'd' });
  const token = (list: DocumentList) => ({ limit: 'limit', after: 'after', ...list });

  it('are the bounds the document states: `minimum: 0` takes an empty page', () => {
    const list = token({ minLimit: 0, maxLimit: 3 });
    expect(pageOf(doc, items, { limit: 0 }, '/x', '', list)).toEqual({
      items: [],
      hasMore: true,
      total: 5,
      next: null,
    });
    expect(pageOf(doc, items, { limit: 0, after: 'b' }, '/x', '', list).next).toBe('b');
    expect(pageOf(doc, items, { limit: 3 }, '/x', '', list).items).toHaveLength(3);
    expect(() => pageOf(doc, items, { limit: 4 }, '/x', '', list)).toThrow('must be an integer between 0 and 3');
    expect(() => pageOf(doc, items, { limit: -1 }, '/x', '', list)).toThrow(PageProblem);
    // Numbered pages too: one empty page.
    const numbered = { limit: 'per_page', page: 'page', minLimit: 0 };
    expect(pageOf(doc, items, { per_page: 0, page: 2 }, '/x', '', numbered)).toMatchObject({
      items: [],
      hasMore: false,
    });
  });

  it('are not made up where the document states none: at least 1, no maximum', () => {
    const many = Array.from({ length: 250 }, (_, index) => ({ id: `i${index}` }));
    expect(pageOf(doc, many, { limit: 250 }, '/x', '', token({})).items).toHaveLength(250);
    expect(pageOf(doc, many, {}, '/x', '', token({})).items).toHaveLength(30);
    expect(() => pageOf(doc, many, { limit: 0 }, '/x', '', token({}))).toThrow('must be an integer 1 or more');
    expect(pageOf(doc, many, {}, '/x', '', token({ defaultLimit: 10_000 })).items).toHaveLength(250);
  });
});

describe('filters by the query', () => {
  const kept = [{ id: 'cus_a', email: 'a@example.com' }, { id: 'cus_b', email: null }, { id: 'cus_c' }];
  it('never matches an absent or null field', () => {
    const ids = (query: Record<string, unknown>) => filterByQuery(kept, query, new Set()).map((item) => item.id);
    expect(ids({ email: 'anything@example.com' })).toEqual([]);
    expect(ids({ email: 'a@example.com' })).toEqual(['cus_a']);
    // A parameter no item has (GitHub's `sort`) is no filter.
    expect(ids({ sort: 'created' })).toEqual(['cus_a', 'cus_b', 'cus_c']);
  });
});

describe('a cursor the twin never answered', () => {
  const doc = checkProfile({ name: 'd' });
  const token: DocumentList = { limit: 'limit', after: 'after' };

  it('is refused, or with unseen: examples an empty last page', () => {
    expect(() => pageOf(doc, items, { after: 'zz' }, '/x', '', token)).toThrow(PageProblem);
    expect(pageOf(doc, items, { after: 'zz' }, '/x', '', token, 'examples')).toEqual({
      items: [],
      hasMore: false,
      total: 5,
      next: null,
    });
  });
});
