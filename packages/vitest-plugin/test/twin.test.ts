// An endpoint handle's twin (docs/twins.md): set, read and cleared through the handle, against a
// real createMockServer() socket; what the code under test creates is kept while it is a twin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: { '/notes': { post: { responses: {} } }, '/notes/{id}': { get: { responses: {} } } },
};

describe('endpoint handle: twin', () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('setTwin, getTwin, clearTwin', async () => {
    const notes = await mock.add({ name: 'notes', data: { ok: true } });
    const profile = { name: 'notes', ids: { style: 'sequence' } };
    expect(await notes.setTwin({ document: DOCUMENT, profile })).toMatchObject({
      title: 'Notes',
      collections: ['/notes'],
    });
    expect(await notes.getTwin()).toMatchObject({ title: 'Notes', operations: 2 });
    const made = await fetch(notes.urlFor('/notes'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'a' }),
    });
    expect(await made.json()).toMatchObject({ id: 1, title: 'a' });
    expect(await (await fetch(notes.urlFor('/notes/1'))).json()).toMatchObject({ id: 1, title: 'a' });
    // A twin of a document sends no events: a trigger is refused, saying so.
    await expect(notes.triggerTwin({ event: 'note.created' })).rejects.toMatchObject({
      code: 'UNKNOWN_TWIN_EVENT',
      message: expect.stringContaining('sends no events'),
    });

    await notes.clearTwin();
    await expect(notes.getTwin()).rejects.toMatchObject({ code: 'TWIN_NOT_FOUND' });
    await expect(notes.setTwin({ provider: 'nope' })).rejects.toMatchObject({ code: 'INVALID_TWIN' });
  });

  // Issue 71: createMockServer() answered "this daemon ships no providers"; with @mockpoint/twins
  // installed (a devDependency here) it makes a provider's twin as the daemon does.
  it("setTwin({ provider: 'stripe' }) with @mockpoint/twins installed: a Stripe call answered", async () => {
    const stripe = await mock.add({ name: 'stripe', data: {} });
    expect(await stripe.setTwin({ provider: 'stripe' })).toMatchObject({ profile: { name: 'stripe' } });
    const made = await fetch(stripe.urlFor('/v1/customers'), {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_1', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com',
    });
    expect(made.status).toBe(200);
    const customer = (await made.json()) as { id: string; object: string; email: string };
    expect(customer).toMatchObject({ object: 'customer', email: 'a@example.com' });
    expect(customer.id).toMatch(/^cus_/);
    const listed = await fetch(stripe.urlFor('/v1/customers'), { headers: { authorization: 'Bearer sk_test_1' } });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((one) => one.id)).toEqual([customer.id]);
  });
});
