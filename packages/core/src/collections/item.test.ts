import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  collectionBytes,
  collectionText,
  type Item,
  indexOfId,
  insertItem,
  itemOf,
  keptRun,
  LAZY_ITEM_CHARS,
  nextId,
  parseItem,
  patchItem,
  replaceItem,
  storedItemOf,
  withMember,
} from './item.js';

const items = (...texts: string[]): Item[] => texts.map(itemOf);
const item = (text: string): Item => {
  const parsed = parseItem(text);
  if ('problem' in parsed) throw new Error(parsed.message);
  return parsed;
};

describe('items', () => {
  it('an item is a JSON object; anything else is a problem with a sentence', () => {
    expect(parseItem(' { "id" : 1 } ')).toEqual({ text: '{"id":1}', value: { id: 1 } });
    expect(parseItem('[1]')).toMatchObject({ problem: 'not-object' });
    expect(parseItem('{"a":')).toMatchObject({ problem: 'not-json' });
    expect(parseItem('{"a":1,"a":2}')).toMatchObject({ problem: 'not-json' });
  });

  it('finds an item by its id as text: 1 and "1" are both id 1; items without an id, or a null one, have none', () => {
    const list = items('{"name":"no id"}', '{"id":null}', '{"id":"1"}', '{"id":1}');
    expect(indexOfId(list, 'id', '1')).toBe(2);
    expect(indexOfId(list, 'id', 'null')).toBe(-1);
    expect(indexOfId(items('{"key":"a"}'), 'key', 'a')).toBe(0);
  });

  it('the next id is 1 in an empty collection, one more than the greatest numeric id, exact beyond 2^53', () => {
    expect(nextId([], 'id')).toBe('1');
    expect(nextId(items('{"id":3}', '{"id":10}', '{"id":7}'), 'id')).toBe('11');
    expect(nextId(items('{"id":9007199254740993}'), 'id')).toBe('9007199254740994');
    expect(nextId(items('{"id":2.5}'), 'id')).toBe('3.5');
    expect(nextId(items('{"x":1}'), 'id')).toMatch(/^"[0-9a-f-]{36}"$/);
  });

  it('ids past 2^53 are compared and found by their exact text, never by the rounded double', () => {
    const big = items('{"id":12345678901234567890}', '{"id":12345678901234567891}');
    expect(nextId(big, 'id')).toBe('12345678901234567892');
    expect(indexOfId(big, 'id', '12345678901234567891')).toBe(1);
    expect(indexOfId(big, 'id', '12345678901234567000')).toBe(-1);
    expect(insertItem(big, item('{"id":12345678901234567891}'), 'id')).toEqual({
      problem: 'id-taken',
      id: '12345678901234567891',
    });
  });

  it('an id field is an own field: constructor or toString is no id an item has by itself', () => {
    const list = items('{"n":1}');
    expect(indexOfId(list, 'constructor', String(Object))).toBe(-1);
    expect(insertItem(list, item('{"n":2}'), 'constructor')).toMatchObject({
      item: { text: expect.stringMatching(/^\{"n":2,"constructor":"[0-9a-f-]{36}"\}$/) },
    });
    expect(nextId(items('{"toString":4}', '{"n":1}'), 'toString')).toBe('5');
  });

  it('a string id as the greatest makes a UUID', () => {
    expect(JSON.parse(nextId(items('{"id":"abc"}', '{"id":"b"}'), 'id'))).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('inserts with its own id when free, refuses a taken one, assigns one in place of a falsy id or at the end', () => {
    const list = items('{"id":1}', '{"id":2}');
    expect(insertItem(list, item('{"id":5,"n":12345678901234567890}'), 'id')).toEqual({
      item: item('{"id":5,"n":12345678901234567890}'),
    });
    expect(insertItem(list, item('{"id":"2"}'), 'id')).toEqual({ problem: 'id-taken', id: '2' });
    expect(insertItem(list, item('{"id":0,"a":1}'), 'id')).toMatchObject({ item: { text: '{"id":3,"a":1}' } });
    expect(insertItem(list, item('{"a":1}'), 'id')).toMatchObject({ item: { text: '{"a":1,"id":3}' } });
  });

  it('replace keeps the id (where the body has it, else at the end), whatever the body says', () => {
    const current = item('{"id":12345678901234567890,"a":1}');
    expect(replaceItem(current, item('{"b":2}'), 'id').text).toBe('{"b":2,"id":12345678901234567890}');
    expect(replaceItem(current, item('{"id":7,"b":2}'), 'id').text).toBe('{"id":12345678901234567890,"b":2}');
  });

  it('patch merges (RFC 7396) and keeps the id where it stands', () => {
    const current = item('{"id":1,"big":12345678901234567890,"tags":["a"],"address":{"city":"X","zip":"1"}}');
    expect(patchItem(current, item('{"id":9,"address":{"zip":null},"done":true}'), 'id').text).toBe(
      '{"id":1,"big":12345678901234567890,"tags":["a"],"address":{"city":"X"},"done":true}',
    );
    expect(patchItem(current, item('{"id":null}'), 'id').text).toBe(current.text);
  });

  it('withMember sets a member in place, adds it at the end, or removes it; other members keep their text', () => {
    expect(withMember('{"\\u0061":1.0,"b":2}', 'b', '[3]')).toBe('{"\\u0061":1.0,"b":[3]}');
    expect(withMember('{"a":1}', 'c', '"x"')).toBe('{"a":1,"c":"x"}');
    expect(withMember('{"a":1,"b":2}', 'a', undefined)).toBe('{"b":2}');
  });

  it('an edit carries what is known of the collection (its bytes, its greatest id) exactly as a fresh pass finds it', () => {
    // Seeded walks of appends, sets and removes over ids of every kind maxBy meets: numbers (past 2^53 too),
    // numeric strings, words, null, none; after each, the carried answers equal those of an unknown copy.
    const ids = ['"7"', '"x"', 'null', '12345678901234567890', '12345678901234567891', '2.5', '-4'];
    for (let seed = 1; seed <= 20; seed++) {
      let state = seed;
      const random = (n: number) => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return (state >>> 16) % n; // the high bits: an LCG's low bits repeat in short cycles
      };
      let list: readonly Item[] = [];
      // Appends mostly grow the ids (the greatest moves on), sets mostly shrink one; now and then an odd one, or none.
      const make = (grow: boolean) => {
        const roll = random(ids.length + 40);
        if (roll === 0) return itemOf('{"a":"\\u00e9ü"}');
        const id = roll < 40 ? String(grow ? list.length * 3 + roll : random(list.length)) : ids[roll - 40];
        return itemOf(`{"id":${id},"t":"${'é'.repeat(random(4))}"}`);
      };
      for (let step = 0; step < 200; step++) {
        nextId(list, 'id');
        collectionBytes(list);
        const roll = random(5);
        if (list.length === 0 || roll < 2) list = applyEdit(list, { append: make(true) });
        else if (roll === 2) list = applyEdit(list, { set: random(list.length), item: make(false) });
        else if (roll === 3) list = applyEdit(list, { remove: random(list.length) });
        // A rolling put: the oldest dropped (all, some or none), one or two added after the rest.
        else
          list = applyEdit(list, {
            put: [...list.slice(random(list.length + 1)), make(true), ...(random(2) ? [make(true)] : [])],
          });
        const fresh = [...list];
        expect(collectionBytes(list)).toBe(Buffer.byteLength(collectionText(fresh)));
        const [carried, known] = [nextId(list, 'id'), nextId(fresh, 'id')];
        if (known.startsWith('"')) expect(carried).toMatch(/^"[0-9a-f-]{36}"$/);
        else expect(carried).toBe(known);
      }
    }
  });
});

describe('keptRun: what a put keeps of the items before it', () => {
  const [a, b, c, d] = items('{"id":1}', '{"id":2}', '{"id":3}', '{"id":4}') as [Item, Item, Item, Item];
  it('finds the items kept from an index on and the ones added after them', () => {
    expect(keptRun([a, b, c], [b, c, d])).toEqual({ from: 1, added: [d] });
    expect(keptRun([a, b, c], [a, b, c, d])).toEqual({ from: 0, added: [d] });
    expect(keptRun([a, b, c], [c])).toEqual({ from: 2, added: [] });
    expect(keptRun([a, b, c], [])).toEqual({ from: 3, added: [] });
    expect(keptRun([], [a])).toEqual({ from: 0, added: [a] });
  });
  it('is undefined for any other put: a gap, another order, an item replaced, a new first item', () => {
    expect(keptRun([a, b, c], [a, c])).toBeUndefined();
    expect(keptRun([a, b, c], [b, a])).toBeUndefined();
    expect(keptRun([a, b, c], [b, itemOf(c.text)])).toBeUndefined();
    expect(keptRun([a, b, c], [d, a, b, c])).toBeUndefined();
  });
});

describe('a large item', () => {
  const big = `{"id":12345678901234567891,"name":"b","note":"${'x'.repeat(LAZY_ITEM_CHARS)}","n":[1,{"__proto__":2}]}`;

  it('holds its text once and parses its value when read, the same value as a small item has', () => {
    const large = itemOf(big);
    expect(Object.keys(large)).toEqual(['text']); // no parsed copy kept beside the text
    expect(large.text).toBe(big);
    expect(large.value).toEqual(JSON.parse(big));
    expect(Object.hasOwn((large.value.n as unknown[])[1] as object, '__proto__')).toBe(true);
    // Read twice in one turn, it is one value.
    expect(large.value).toBe(large.value);
  });

  it('read back from a store, is checked whole at once: a damaged one fails there', () => {
    expect(storedItemOf(big).text).toBe(big);
    expect(() => storedItemOf(big.slice(0, -1))).toThrow(SyntaxError);
  });

  it('is found, edited, measured and answered as a small item is', () => {
    const collection = [itemOf('{"id":1}'), itemOf(big)];
    expect(indexOfId(collection, 'id', '12345678901234567891')).toBe(1);
    expect(nextId(collection, 'id')).toBe('12345678901234567892');
    expect(collectionText(collection)).toBe(`[{"id":1},${big}]`);
    expect(collectionBytes(collection)).toBe(Buffer.byteLength(`[{"id":1},${big}]`));
    const patched = patchItem(collection[1] as Item, itemOf('{"name":"c"}'), 'id');
    expect(patched.value.name).toBe('c');
    expect(patched.text).toContain('"id":12345678901234567891');
  });
});
