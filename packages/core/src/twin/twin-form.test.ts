import { describe, expect, it } from 'vitest';
import { FormProblem, readForm } from './twin-form.js';

describe('readForm', () => {
  it('reads brackets as stripe-node writes them: objects, indexed and empty-indexed arrays', () => {
    expect(
      readForm(
        'email=a%40b.c&metadata[order]=6735&expand[0]=customer&expand[1]=latest_charge&items[0][price]=p&tags[]=x&tags[]=y',
      ),
    ).toEqual({
      email: 'a@b.c',
      metadata: { order: '6735' },
      expand: ['customer', 'latest_charge'],
      items: [{ price: 'p' }],
      tags: ['x', 'y'],
    });
  });

  it('keeps a key whose brackets do not close as it is, and an empty value as empty', () => {
    expect(readForm('a[b=1&c=')).toEqual({ 'a[b': '1', c: '' });
  });

  it('refuses keys that reach a prototype, too many fields and too deep a nesting', () => {
    expect(() => readForm('metadata[__proto__]=x')).toThrow(FormProblem);
    expect(() => readForm('constructor[prototype]=x')).toThrow(FormProblem);
    expect(() => readForm(Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&'))).toThrow(FormProblem);
    expect(() => readForm(`a${'[b]'.repeat(9)}=1`)).toThrow(FormProblem);
    expect(readForm(`a${'[b]'.repeat(8)}=1`)).toBeDefined();
  });
});
