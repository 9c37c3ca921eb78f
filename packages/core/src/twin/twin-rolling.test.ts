// A rolling collection (a twin's events, its idempotency answers) keeps its newest `most` items
// within the limits' bytes: appended while there is room, else a put of the newest that fit and
// the new item, which a store writes as what it drops and adds (collections/item.ts keptRun).
import { describe, expect, it } from 'vitest';
import { collectionBytes, type Item, itemOf, keptRun } from '../collections/item.js';
import { rolling } from './twin-idempotency.js';

const items = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => itemOf(`{"n":${from + i}}`));
const texts = (edit: { put: Item[] } | { append: Item } | undefined) =>
  edit === undefined ? undefined : 'put' in edit ? edit.put.map((one) => one.text) : [edit.append.text];

describe('rolling', () => {
  it('appends while under `most` and the bytes', () => {
    expect(texts(rolling(items(0, 3), itemOf('{"n":3}'), 5, undefined).edit)).toEqual(['{"n":3}']);
  });

  it('at `most`, keeps the newest most - 1 and the new item, as a rolling put of the same items', () => {
    const all = items(0, 5);
    const { edit } = rolling(all, itemOf('{"n":5}'), 5, undefined);
    expect(texts(edit)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
    // The kept items are the very ones read: a store writes one key dropped and one added.
    expect(keptRun(all, (edit as { put: Item[] }).put)).toMatchObject({ from: 1, added: [{ text: '{"n":5}' }] });
  });

  it('past `most` (a lower cap after a restart), drops down to most - 1 and the new item', () => {
    const { edit } = rolling(items(0, 8), itemOf('{"n":8}'), 5, undefined);
    expect(texts(edit)).toEqual(['{"n":4}', '{"n":5}', '{"n":6}', '{"n":7}', '{"n":8}']);
  });

  it('within the limits’ bytes, keeps the newest that fit (walked one by one only then)', () => {
    const all = items(0, 5);
    // Room for the new item and two more: each `{"n":k}` is 7 bytes, a comma each, 2 for [ and ].
    const limits = { maxCollectionBytes: 2 + 7 + 2 * 8, maxCollectionItems: 100 };
    const { edit } = rolling(all, itemOf('{"n":5}'), 5, limits);
    expect(texts(edit)).toEqual(['{"n":3}', '{"n":4}', '{"n":5}']);
    expect(collectionBytes((edit as { put: Item[] }).put)).toBeLessThanOrEqual(limits.maxCollectionBytes);
  });

  it('keeps nothing of an item larger than the bytes alone', () => {
    expect(
      rolling(items(0, 2), itemOf(`{"n":"${'x'.repeat(50)}"}`), 5, { maxCollectionBytes: 40, maxCollectionItems: 9 })
        .edit,
    ).toBeUndefined();
  });
});
