/**
 * The endpoint record methods of the client: add, put, read, list and remove records.
 *
 * @module
 */
import { JsonText, scanJson } from '../codec/json-text.js';
import type { Endpoint, EndpointDefinition, ListAnswer, ListQuery, SummaryAnswer } from './client.js';
import { seg, type Transport } from './transport.js';

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function endpointMethods({ call, json }: Transport) {
  return {
    /** Creates an endpoint (`PUT /api/endpoint/add`); throws `NAME_TAKEN` when it exists. */
    async add<T>(endpoint: { name: string } & EndpointDefinition<T>): Promise<Endpoint<T>> {
      const { success: _success, ...record } = await json<Endpoint<T> & { success: true }>(
        'PUT',
        '/api/endpoint/add',
        endpoint,
      );
      return record;
    },

    /** Creates or replaces an endpoint; `created` tells which. */
    async put<T>(name: string, definition: EndpointDefinition<T>): Promise<Endpoint<T> & { created: boolean }> {
      const response = await call('PUT', `/api/endpoints/${seg(name)}`, definition);
      return { ...((await response.json()) as Endpoint<T>), created: response.status === 201 };
    },

    /**
     * The stored `data` of an endpoint as its exact JSON text (big integers,
     * `1e400`, `-0` and key order as sent); throws `NOT_FOUND` when there is none.
     */
    async dataText(name: string): Promise<string> {
      const text = await (await call('GET', `/api/endpoints/${seg(name)}`)).text();
      return scanJson(text).members?.get('data') ?? 'null';
    },

    /**
     * Reads an endpoint record with its `data` as a {@link JsonText}: the stored
     * text exactly (big integers, `1.0`, `-0`, escapes and key order as sent), for
     * code that shows or edits it; throws `NOT_FOUND` when there is none.
     */
    async getExact(name: string): Promise<Endpoint<JsonText>> {
      const members = scanJson(await (await call('GET', `/api/endpoints/${seg(name)}`)).text()).members;
      const field = (key: string) => JSON.parse(members?.get(key) ?? 'null') as unknown;
      return {
        name: field('name') as string,
        data: new JsonText(members?.get('data') ?? 'null'),
        statusCode: field('statusCode') as number,
        delay: field('delay') as number,
      };
    },

    /** Reads an endpoint record; throws `NOT_FOUND` when there is none. */
    get<T = unknown>(name: string): Promise<Endpoint<T>> {
      return json('GET', `/api/endpoints/${seg(name)}`);
    },

    /** One page of endpoints in name order, with their `total`; pass `next` as `after` for the next one. */
    list(page: ListQuery = {}): Promise<ListAnswer> {
      return json('GET', `/api/endpoints${listQuery(page, false)}`);
    },

    /** Like {@link list}, without the records' `data` (name, status and delay only: a small answer). */
    summaries(page: ListQuery = {}): Promise<SummaryAnswer> {
      return json('GET', `/api/endpoints${listQuery(page, true)}`);
    },

    /** Deletes an endpoint; throws `NOT_FOUND` when there is none. */
    async remove(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}`);
    },

    /** Removes every endpoint, collection, recorded request and the namespace's chaos; the clock is back at real time. */
    async reset(): Promise<void> {
      await call('DELETE', '/api/endpoints');
    },
  };
}

function listQuery(page: ListQuery, summary: boolean): string {
  const query = new URLSearchParams();
  if (page.limit !== undefined) query.set('limit', String(page.limit));
  if (page.prefix) query.set('prefix', page.prefix);
  if (page.contains) query.set('contains', page.contains);
  if (page.after !== undefined) query.set('after', page.after);
  if (summary) query.set('summary', 'true');
  if (page.requests) query.set('requests', 'true');
  return query.size ? `?${query}` : '';
}
