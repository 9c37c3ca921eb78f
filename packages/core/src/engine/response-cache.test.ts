import { describe, expect, it } from 'vitest';
import { prepareAnswers } from '../answer/endpoint-answer.js';
import { type CachedResponse, ResponseCache, toCachedResponse } from './response-cache.js';

/** An entry of exactly `bytes` bytes (the cache trusts the entry's own `bytes`). */
function sized(bytes: number, body = '{}'): CachedResponse {
  return { body, statusCode: 200, delay: 0, bytes, answers: prepareAnswers(body, 200, 0) };
}

describe('toCachedResponse', () => {
  it('pre-serialises the data and keeps status and delay', () => {
    const entry = toCachedResponse('n', { a: [1, 'x'] }, 201, 30);
    expect(entry.body).toBe('{"a":[1,"x"]}');
    expect(entry.statusCode).toBe(201);
    expect(entry.delay).toBe(30);
  });

  it('serialises every JSON kind, including null and strings', () => {
    expect(toCachedResponse('n', null, 200, 0).body).toBe('null');
    expect(toCachedResponse('n', 'text', 200, 0).body).toBe('"text"');
    expect(toCachedResponse('n', false, 200, 0).body).toBe('false');
  });

  it('charges more bytes for a bigger body and a longer name', () => {
    const small = toCachedResponse('n', 'x', 200, 0).bytes;
    const bigBody = toCachedResponse('n', 'x'.repeat(1000), 200, 0).bytes;
    const longName = toCachedResponse('n'.repeat(64), 'x', 200, 0).bytes;
    expect(bigBody - small).toBeGreaterThanOrEqual(1000);
    expect(longName).toBeGreaterThan(small);
  });
});

describe('ResponseCache', () => {
  it('returns what was set and undefined for unknown names', () => {
    const cache = new ResponseCache(1000);
    const entry = sized(100, '"a"');
    cache.set('a', entry);
    expect(cache.get('a')).toBe(entry);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(100);
  });

  it('names like __proto__ and constructor are ordinary keys', () => {
    const cache = new ResponseCache(1000);
    expect(cache.get('__proto__')).toBeUndefined();
    expect(cache.get('constructor')).toBeUndefined();
    cache.set('__proto__', sized(100, '1'));
    cache.set('constructor', sized(100, '2'));
    expect(cache.get('__proto__')?.body).toBe('1');
    expect(cache.get('constructor')?.body).toBe('2');
    expect(cache.size).toBe(2);
  });

  it('never holds more than maxBytes, evicting the least recently used first', () => {
    const cache = new ResponseCache(300);
    cache.set('a', sized(100));
    cache.set('b', sized(100));
    cache.set('c', sized(100));
    expect(cache.bytes).toBe(300);
    expect(cache.size).toBe(3);

    // Reading `a` makes `b` the least recently used.
    expect(cache.get('a')).toBeDefined();
    cache.set('d', sized(100));
    expect(cache.bytes).toBe(300);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();

    // The reads above touched a, c, d in that order: `a` then `c` are now the oldest.
    cache.set('e', sized(150));
    expect(cache.bytes).toBeLessThanOrEqual(300);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.get('e')).toBeDefined();
    expect(cache.bytes).toBe(250);
  });

  it('keeps the order of use when the newest name is read again, and after the newest is deleted', () => {
    const cache = new ResponseCache(300);
    cache.set('a', sized(100));
    cache.set('b', sized(100));
    cache.set('c', sized(100));
    // `c` is the newest: reading it again changes nothing; reading `a` then `c` again makes `b` the oldest.
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('d', sized(100));
    expect(cache.get('b')).toBeUndefined();
    // Deleting the newest (`d`) and setting it again puts it last; reading `a` then leaves `c` the oldest.
    expect(cache.get('d')).toBeDefined();
    cache.delete('d');
    cache.set('d', sized(100));
    expect(cache.get('a')).toBeDefined();
    cache.set('e', sized(100));
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.get('e')).toBeDefined();
  });

  it('evicts as many entries as needed for one large entry', () => {
    const cache = new ResponseCache(500);
    for (const name of ['a', 'b', 'c', 'd', 'e']) cache.set(name, sized(100));
    cache.set('big', sized(450));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(450);
    expect(cache.get('big')).toBeDefined();
  });

  it('setting an existing name replaces it without double-counting and marks it most recent', () => {
    const cache = new ResponseCache(300);
    cache.set('a', sized(100, '"old"'));
    cache.set('b', sized(100));
    cache.set('a', sized(150, '"new"'));
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(250);
    expect(cache.get('a')?.body).toBe('"new"');
    cache.set('c', sized(100));
    // `b` was least recently used once `a` was replaced.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.body).toBe('"new"');
    expect(cache.bytes).toBe(250);
  });

  it('does not keep an entry bigger than the bound, and leaves the others alone', () => {
    const cache = new ResponseCache(200);
    cache.set('small', sized(100));
    cache.set('huge', sized(201));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
    expect(cache.bytes).toBe(100);
    expect(cache.size).toBe(1);
  });

  it('replacing a cached name with an entry bigger than the bound drops the old entry', () => {
    const cache = new ResponseCache(200);
    cache.set('a', sized(100, '"old"'));
    cache.set('a', sized(1000, '"new"'));
    // Serving "old" here would be serving a replaced record.
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('an entry exactly the size of the bound is kept', () => {
    const cache = new ResponseCache(200);
    cache.set('a', sized(200));
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBe(200);
  });

  it('delete and clear adjust the byte count', () => {
    const cache = new ResponseCache(1000);
    cache.set('a', sized(100));
    cache.set('b', sized(250));
    cache.set('c', sized(300));
    expect(cache.bytes).toBe(650);
    cache.delete('b');
    expect(cache.bytes).toBe(400);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    cache.delete('b'); // deleting a missing name changes nothing
    cache.delete('missing');
    expect(cache.bytes).toBe(400);
    cache.clear();
    expect(cache.bytes).toBe(0);
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
    // After clear the full budget is available again.
    cache.set('x', sized(1000));
    expect(cache.bytes).toBe(1000);
  });

  it('stays within the bound under many real entries', () => {
    const cache = new ResponseCache(10_000);
    for (let i = 0; i < 500; i++) {
      const name = `ep-${i}`;
      cache.set(name, toCachedResponse(name, { i, pad: 'x'.repeat(i % 50) }, 200, 0));
      expect(cache.bytes).toBeLessThanOrEqual(10_000);
    }
    expect(cache.size).toBeGreaterThan(0);
    // The most recent entry is always kept; the first one is long gone.
    expect(cache.get('ep-499')).toBeDefined();
    expect(cache.get('ep-0')).toBeUndefined();
  });
});
