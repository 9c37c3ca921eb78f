// Type tests for the typed client. Checked by `pnpm typecheck` (tsc -b includes src).
import { describe, expectTypeOf, it } from 'vitest';
import type { ListPage } from '../api/schemas.js';
import {
  type ConnectionError,
  createApp,
  createClient,
  type Endpoint,
  type Health,
  type JournalAnswer,
  type JournalEntry,
  JsonText,
  type ListAnswer,
  type MergePatch,
  type MockpointClient,
  type QueuedAnswer,
  type SummaryAnswer,
} from '../index.js';

declare const client: MockpointClient;
interface Order {
  id: number;
  items: string[];
}

describe('client types', () => {
  it('add<T>() returns Endpoint<T>', () => {
    expectTypeOf(client.add<Order>({ name: 'o', data: { id: 1, items: [] } })).resolves.toEqualTypeOf<
      Endpoint<Order>
    >();
    // T is inferred from data.
    expectTypeOf(client.add({ name: 'o', data: { id: 1 } })).resolves.toEqualTypeOf<Endpoint<{ id: number }>>();
    expectTypeOf(client.add({ name: 'o', data: { id: 1 } }))
      .resolves.toHaveProperty('statusCode')
      .toBeNumber();
    // @ts-expect-error data must match T
    void client.add<Order>({ name: 'o', data: { id: 'one', items: [] } });
    // @ts-expect-error data is required
    void client.add({ name: 'o' });
    // @ts-expect-error statusCode is a number
    void client.add({ name: 'o', data: 1, statusCode: '200' });
    // @ts-expect-error an endpoint has no other fields
    void client.add({ name: 'o', data: 1, colour: 'red' });
  });

  it('get<T>() types data; unknown by default', () => {
    expectTypeOf(client.get<Order>('o')).resolves.toEqualTypeOf<Endpoint<Order>>();
    expectTypeOf(client.get<Order>('o')).resolves.toHaveProperty('data').toEqualTypeOf<Order>();
    expectTypeOf(client.get('o')).resolves.toHaveProperty('data').toBeUnknown();
  });

  it('put<T>() returns the record plus created', () => {
    expectTypeOf(client.put('o', { data: [1, 2] })).resolves.toEqualTypeOf<Endpoint<number[]> & { created: boolean }>();
    // @ts-expect-error put takes the name separately
    void client.put({ name: 'o', data: 1 });
  });

  it('journal, list, health and the rest', () => {
    expectTypeOf(client.requests('o')).resolves.toEqualTypeOf<JournalEntry[]>();
    expectTypeOf(client.waitForRequests('o', { count: 2, timeout: 1000 })).resolves.toEqualTypeOf<JournalEntry[]>();
    expectTypeOf(client.list({ limit: 10 })).resolves.toEqualTypeOf<ListAnswer>();
    expectTypeOf(client.list({ prefix: 'or' })).resolves.toExtend<{ next: ListPage['next']; total: number }>();
    expectTypeOf(client.summaries({ prefix: 'or' })).resolves.toEqualTypeOf<SummaryAnswer>();
    expectTypeOf<SummaryAnswer['endpoints'][number]>().not.toHaveProperty('data');
    expectTypeOf(client.journal('o', { after: 3, wait: 100 })).resolves.toEqualTypeOf<JournalAnswer>();
    expectTypeOf<JournalAnswer['journalId']>().toBeString();
    expectTypeOf(client.health()).resolves.toEqualTypeOf<Health>();
    expectTypeOf(client.remove('o')).resolves.toBeVoid();
    expectTypeOf(client.reset()).resolves.toBeVoid();
    expectTypeOf(client.clearRequests('o')).resolves.toBeVoid();
    expectTypeOf(client.read('o')).resolves.toEqualTypeOf<Response>();
    expectTypeOf(client.endpointUrl).returns.toBeString();
    expectTypeOf<JournalEntry['query']>().toEqualTypeOf<Record<string, string | string[]>>();
  });

  it('queued answers, filtered waits and quiet periods', () => {
    expectTypeOf(client.queue('o', [{ statusCode: 503, times: 2 }, { fault: 'reset' }])).resolves.toEqualTypeOf<
      QueuedAnswer[]
    >();
    // @ts-expect-error an unknown fault
    void client.queue('o', [{ fault: 'explode' }]);
    expectTypeOf(client.queued('o')).resolves.toEqualTypeOf<QueuedAnswer[]>();
    expectTypeOf(client.clearQueue('o')).resolves.toBeVoid();
    expectTypeOf(client.waitForRequests('o', { match: { method: 'POST', body: { id: 1 } } })).resolves.toEqualTypeOf<
      JournalEntry[]
    >();
    expectTypeOf(client.expectNoRequests('o', { within: 500 })).resolves.toBeVoid();
    // @ts-expect-error within is required
    void client.expectNoRequests('o', {});
    // @ts-expect-error header values are strings
    void client.requests('o', { match: { headers: { 'x-n': 1 } } });
  });

  it('item methods: typed by the item type, merge patches partial and nullable', () => {
    expectTypeOf(client.item<Order>('api', 'orders', 1)).resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.item('api', 'orders', '1')).resolves.toBeUnknown();
    expectTypeOf(client.itemText('api', 'orders', 1, { idField: 'key' })).resolves.toBeString();
    expectTypeOf(client.insertItem<Order>('api', 'orders', { items: ['a'] })).resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.insertItem('api', 'orders', new JsonText('{"id":1}'))).resolves.toBeUnknown();
    // @ts-expect-error the item must be (part of) an Order
    void client.insertItem<Order>('api', 'orders', { items: 'a' });
    expectTypeOf(client.updateItem<Order>('api', 'orders', 1, { items: null })).resolves.toEqualTypeOf<Order>();
    // @ts-expect-error a patch's fields are the item's
    void client.updateItem<Order>('api', 'orders', 1, { id: 'one' });
    expectTypeOf<MergePatch<{ a: { b: number; c: string } }>>().toEqualTypeOf<{
      a?: { b?: number | null; c?: string | null } | null;
    }>();
    expectTypeOf(client.replaceItem<Order>('api', 'orders', 1, { items: [] })).resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.removeItem('api', 'orders', 1)).resolves.toBeVoid();
  });

  it('createClient options', () => {
    expectTypeOf(createClient({ baseUrl: 'http://x', app: createApp() })).toEqualTypeOf<MockpointClient>();
    // @ts-expect-error baseUrl is required
    createClient({ token: 'x' });
    expectTypeOf<ConnectionError['code']>().toEqualTypeOf<'CONNECTION_FAILED'>();
  });
});
