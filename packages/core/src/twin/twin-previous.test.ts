import { describe, expect, it } from 'vitest';
import { previousAttributes } from './twin-previous.js';

describe("what a change changed, as Stripe's previous_attributes", () => {
  it('names only the fields that changed, with their prior values', () => {
    const was = { id: 'cus_1', name: 'Ada', email: 'a@example.com', balance: 0, tags: ['a'] };
    const now = { id: 'cus_1', name: 'Ada L.', email: 'a@example.com', balance: 0, tags: ['a', 'b'] };
    expect(previousAttributes(was, now)).toEqual({ name: 'Ada', tags: ['a'] });
  });

  it('gives a field the object did not have as null, and one it lost as it was', () => {
    expect(previousAttributes({ phone: '1' }, { description: 'x' })).toEqual({ phone: '1', description: null });
  });

  it('gives a nested record as only its changed keys, an array whole', () => {
    const was = { metadata: { plan: 'free', team: 'a' }, address: { city: 'Oslo', line1: 'x' }, list: [{ a: 1 }] };
    const now = { metadata: { plan: 'pro', team: 'a', seats: '3' }, address: { city: 'Oslo', line1: 'x' }, list: [] };
    expect(previousAttributes(was, now)).toEqual({ metadata: { plan: 'free', seats: null }, list: [{ a: 1 }] });
  });

  it('gives a record that became null, or null that became a record, whole', () => {
    expect(previousAttributes({ address: { city: 'Oslo' } }, { address: null })).toEqual({ address: { city: 'Oslo' } });
    expect(previousAttributes({ address: null }, { address: { city: 'Oslo' } })).toEqual({ address: null });
  });

  it('is empty when nothing changed', () => {
    expect(previousAttributes({ a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } })).toEqual({});
  });

  it('keeps a field named __proto__ as a member, as JSON parsed it', () => {
    const was = JSON.parse('{"metadata":{"__proto__":"a"},"__proto__":{"x":1}}') as Record<string, unknown>;
    const now = JSON.parse('{"metadata":{"__proto__":"b"},"__proto__":{"x":2}}') as Record<string, unknown>;
    const previous = previousAttributes(was, now);
    expect(JSON.stringify(previous)).toBe('{"metadata":{"__proto__":"a"},"__proto__":{"x":1}}');
    expect(Object.getPrototypeOf(previous)).toBe(Object.prototype);
  });
});
