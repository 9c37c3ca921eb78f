// `mockpoint import <document> --stateful` with no profile, on two real third-party documents
// (excerpts of the npm packages @opensdks/sdk-brex 0.0.1 and @opensdks/sdk-coda, named in each
// fixture's info.description): the twin answers in the shapes the document gives — its list
// envelope and cursor, its update verb, its required body fields, its error answers
// (docs/twins.md, "Any OpenAPI document"). Every process listens on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Daemon, killAll, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

const BREX = fileURLToPath(new URL('./fixtures/twins/brex-payments.excerpt.json', import.meta.url));
const CODA = fileURLToPath(new URL('./fixtures/twins/coda.excerpt.json', import.meta.url));

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

async function imported(daemon: Daemon, file: string, name: string): Promise<void> {
  const run = await runCli({ args: ['import', file, '--stateful', '--name', name, '--apply', '--url', daemon.url] });
  expect([run.code, run.stderr]).toEqual([0, '']);
}

async function send(
  daemon: Daemon,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Every page of a list, following the cursor the document names (`cursorMember` in, `cursorParam` out). */
async function allPages(
  daemon: Daemon,
  path: string,
  names: { items: string; cursorMember: string; cursorParam: string; limit: number },
): Promise<{ pages: number; ids: unknown[]; last: Record<string, unknown> }> {
  const ids: unknown[] = [];
  let cursor: unknown = null;
  let pages = 0;
  let last: Record<string, unknown> = {};
  do {
    const query = `limit=${names.limit}${cursor === null ? '' : `&${names.cursorParam}=${encodeURIComponent(String(cursor))}`}`;
    const page = await send(daemon, 'GET', `${path}?${query}`);
    expect(page.status).toBe(200);
    last = page.body as Record<string, unknown>;
    const items = last[names.items] as { id: unknown }[];
    expect(items.length).toBeLessThanOrEqual(names.limit);
    ids.push(...items.map((item) => item.id));
    cursor = last[names.cursorMember];
    pages++;
  } while (cursor !== null && cursor !== undefined && pages < 10);
  return { pages, ids, last };
}

describe('a twin of Brex Payments (list { next_cursor, items }, update PUT, no error schema)', () => {
  it('creates, reads, pages by next_cursor, updates by PUT, deletes, refuses a missing company_name', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    await imported(daemon, BREX, 'brex');
    const base = '/endpoint/brex/v1/vendors';
    const made: string[] = [];
    for (const company_name of ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli']) {
      const vendor = await send(daemon, 'POST', base, { company_name, email: `${company_name}@example.com` });
      expect(vendor).toMatchObject({ status: 200, body: { company_name, email: `${company_name}@example.com` } });
      made.push((vendor.body as { id: string }).id);
    }
    const id = made[0] as string;
    expect(await send(daemon, 'GET', `${base}/${id}`)).toMatchObject({
      status: 200,
      body: { id, company_name: 'Acme', phone: null },
    });

    // The document's Page_VendorResponse_: { next_cursor, items }, paged by `limit` and `cursor`.
    const first = await send(daemon, 'GET', `${base}?limit=2`);
    expect(Object.keys(first.body as object).sort()).toEqual(['items', 'next_cursor']);
    const paged = await allPages(daemon, base, {
      items: 'items',
      cursorMember: 'next_cursor',
      cursorParam: 'cursor',
      limit: 2,
    });
    expect(paged.pages).toBe(3);
    expect(paged.ids).toEqual(made);
    expect(paged.last.next_cursor).toBeNull();

    // The document updates by PUT (no PATCH at /v1/vendors/{id}): the change is kept.
    const changed = await send(daemon, 'PUT', `${base}/${id}`, { company_name: 'Acme Corp', phone: '555-0100' });
    expect(changed).toMatchObject({ status: 200, body: { id, company_name: 'Acme Corp', phone: '555-0100' } });
    expect((await send(daemon, 'GET', `${base}/${id}`)).body).toMatchObject({ company_name: 'Acme Corp' });

    // CreateVendorRequest requires company_name; the document gives no error schema: a message and a code.
    const refused = await send(daemon, 'POST', base, { email: 'nobody@example.com' });
    expect(refused).toEqual({
      status: 400,
      body: { message: 'Missing required param: company_name.', code: 'parameter_missing' },
    });
    expect(paged.ids).toHaveLength(5);

    expect((await send(daemon, 'DELETE', `${base}/${id}`)).status).toBeLessThan(300);
    for (const gone of [id, 'vendor_never_made']) {
      const missing = await send(daemon, 'GET', `${base}/${gone}`);
      expect(missing).toEqual({
        status: 404,
        body: { message: `Not found: /v1/vendors holds no item '${gone}'.`, code: 'resource_missing' },
      });
      expect(JSON.stringify(missing.body)).not.toContain('No such');
    }
    expect((await send(daemon, 'PUT', `${base}/vendor_never_made`, { company_name: 'x' })).status).toBe(404);
    const bad = await send(daemon, 'GET', `${base}?cursor=not-a-cursor`);
    expect(bad).toMatchObject({ status: 400, body: { code: 'cursor_invalid' } });
  });
});

describe('a twin of Coda (list { items, href, nextPageToken, nextPageLink }, update PATCH, documented errors)', () => {
  it('pages by nextPageToken and pageToken, answers errors in its { statusCode, statusMessage, message }', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    await imported(daemon, CODA, 'coda');
    const base = '/endpoint/coda/docs';
    const made: string[] = [];
    for (let n = 0; n < 3; n++) {
      const doc = await send(daemon, 'POST', base, { title: `Doc ${n}` });
      expect(doc).toMatchObject({ status: 201, body: { type: 'doc' } });
      made.push((doc.body as { id: string }).id);
    }
    const id = made[0] as string;
    expect(await send(daemon, 'GET', `${base}/${id}`)).toMatchObject({ status: 200, body: { id, type: 'doc' } });

    const paged = await allPages(daemon, base, {
      items: 'items',
      cursorMember: 'nextPageToken',
      cursorParam: 'pageToken',
      limit: 2,
    });
    expect(paged.pages).toBe(2);
    expect(paged.ids).toEqual(made);
    // Both are plain strings ("If specified, …"): the last page leaves them out rather than answer null.
    expect(paged.last).not.toHaveProperty('nextPageToken');
    expect(paged.last).not.toHaveProperty('nextPageLink');
    const first = (await send(daemon, 'GET', `${base}?limit=2`)).body as Record<string, unknown>;
    expect(first.nextPageLink).toBe(`/docs?limit=2&pageToken=${made[1]}`);
    // limit's documented default (25) holds all three.
    expect(((await send(daemon, 'GET', base)).body as { items: unknown[] }).items).toHaveLength(3);

    // The document updates a doc by PATCH: the twin takes it on what it made, 404 on what it did not.
    expect((await send(daemon, 'PATCH', `${base}/${id}`, { title: 'Renamed' })).status).toBe(200);
    expect(await send(daemon, 'PATCH', `${base}/nope`, { title: 'x' })).toEqual({
      status: 404,
      body: { statusCode: 404, statusMessage: 'Not Found', message: "Not found: /docs holds no item 'nope'." },
    });

    // AddPermissionRequest requires access and principal.
    expect(await send(daemon, 'POST', `${base}/${id}/acl/permissions`, { access: 'readonly' })).toEqual({
      status: 400,
      body: { statusCode: 400, statusMessage: 'Bad Request', message: 'Missing required param: principal.' },
    });

    expect((await send(daemon, 'DELETE', `${base}/${id}`)).status).toBeLessThan(300);
    expect(await send(daemon, 'GET', `${base}/${id}`)).toMatchObject({ status: 404, body: { statusCode: 404 } });
    const rest = await allPages(daemon, base, {
      items: 'items',
      cursorMember: 'nextPageToken',
      cursorParam: 'pageToken',
      limit: 2,
    });
    expect(rest.ids).toEqual(made.slice(1));
  });
});
