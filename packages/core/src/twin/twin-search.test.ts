import { describe, expect, it } from 'vitest';
import { matchesSearch, parseSearch, SEARCH_MAX_CLAUSES, SEARCH_MAX_LENGTH, SearchProblem } from './twin-search.js';

const customer = {
  email: 'Jenny@Example.com',
  name: null,
  amount: 500,
  metadata: { order: '6735' },
  payment_method_details: { card: { last4: '4242' } },
};
const matches = (query: string) => matchesSearch(customer, parseSearch(query));

describe("Stripe's search query", () => {
  it.each([
    ["email:'jenny@example.com'", true],
    ['email~"example"', true],
    ["metadata['order']:'6735'", true],
    ['metadata["order"]:"6735"', true],
    ["metadata['order']:'1' OR amount>100", true],
    ["metadata['order']:'6735' AND amount<100", false],
    ["metadata['order']:'6735' amount>=500", true],
    ['amount<=499', false],
    ['amount=500', true],
    ["-email:'jenny@example.com'", false],
    ['payment_method_details.card.last4:4242', true],
    ['name:null', true],
    ['-name:null', false],
    ["-metadata['missing']:null", false],
    ["metadata['missing']:null", true],
    ['email:"Jenny@Example.com" or amount>1', true],
  ])('%s matches: %s', (query, hit) => {
    expect(matches(query)).toBe(hit);
  });

  it('never matches an absent or null field with a value', () => {
    expect(matches("name:''")).toBe(false);
    expect(matches("nickname:'x'")).toBe(false);
    expect(matches("name~'abc'")).toBe(false);
    expect(matches("metadata['missing']:''")).toBe(false);
  });

  it.each([
    ['not a query', /operator/],
    ['', /Missing required param: query/],
    ['   ', /Missing required param: query/],
    ["email:'open", /never closed/],
    ["email:'a' AND amount>1 OR amount<2", /AND and OR/],
    ['email~ab', /at least 3/],
    ["amount>'many'", /compares numbers/],
    ["email:'a'name:'b'", /space is expected/],
    ["metadata[order]:'1'", /quoted key/],
  ])('refuses %j', (query, message) => {
    expect(() => parseSearch(query)).toThrow(SearchProblem);
    expect(() => parseSearch(query)).toThrow(message);
  });

  it(`refuses more than ${SEARCH_MAX_CLAUSES} clauses and a query over ${SEARCH_MAX_LENGTH} characters`, () => {
    const clauses = (n: number) => Array.from({ length: n }, (_, i) => `amount:${i}`).join(' OR ');
    expect(parseSearch(clauses(SEARCH_MAX_CLAUSES)).clauses).toHaveLength(SEARCH_MAX_CLAUSES);
    expect(() => parseSearch(clauses(SEARCH_MAX_CLAUSES + 1))).toThrow(/at most 10 clauses/);
    expect(() => parseSearch(`email:'${'x'.repeat(SEARCH_MAX_LENGTH)}'`)).toThrow(/at most/);
  });

  it('reads a hostile query in one pass: long runs of spaces and quotes parse or fail at once', () => {
    const spaces = `email:${' '.repeat(SEARCH_MAX_LENGTH - 20)}'x'y`;
    expect(() => parseSearch(spaces)).toThrow(SearchProblem);
    const quotes = `email:'${"\\'".repeat(400)}'`;
    expect(parseSearch(quotes).clauses[0]?.value).toBe("'".repeat(400));
  });
});
