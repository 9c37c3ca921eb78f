import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal-json.js';
import type { NamedEntry } from './journal.js';
import { pactContract } from './pact-contract.js';

let ids = 0;
/** A journal entry answered by a route, with `over` on top. */
function entry(over: Partial<JournalEntry> = {}): JournalEntry {
  ids++;
  return {
    id: ids,
    method: 'GET',
    path: '/endpoint/users/users/1',
    subpath: '/users/1',
    params: {},
    answeredBy: { route: 'user' },
    query: {},
    headers: { host: '127.0.0.1:1', 'user-agent': 'node', 'content-length': '0', connection: 'keep-alive' },
    body: '',
    bodyTruncated: false,
    receivedAt: '2026-11-25T00:00:00.000Z',
    statusCode: 200,
    response: {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
        'content-length': '8',
        date: 'Wed, 25 Nov 2026 00:00:00 GMT',
      },
      body: '{"id":1}',
      bodySize: 8,
      bodyTruncated: false,
    },
    ...over,
  } as JournalEntry;
}

const named = (...entries: JournalEntry[]): NamedEntry[] => entries.map((one) => ({ name: 'users', entry: one }));
const OPTIONS = { consumer: 'web', provider: 'users-api', version: '1.2.3' };

describe('pactContract', () => {
  it('writes one V4 interaction per distinct request and answer, the provider’s path, framing and CORS left out', () => {
    const contract = pactContract(named(entry(), entry(), entry({ query: { page: ['1', '2'] } })), OPTIONS);
    const pact = JSON.parse(contract.text);
    expect(contract).toMatchObject({ interactions: 2, entries: 3, leftOut: [] });
    expect(pact.consumer).toEqual({ name: 'web' });
    expect(pact.provider).toEqual({ name: 'users-api' });
    expect(pact.metadata).toEqual({
      pactSpecification: { version: '4.0' },
      mockpoint: { version: '1.2.3', leftOut: [] },
    });
    expect(pact.interactions[0]).toEqual({
      type: 'Synchronous/HTTP',
      description: 'users: GET /users/1 → 200',
      request: { method: 'GET', path: '/users/1', headers: { 'user-agent': ['node'] } },
      response: {
        status: 200,
        headers: { 'content-type': ['application/json; charset=utf-8'] },
        body: { content: { id: 1 }, contentType: 'application/json; charset=utf-8', encoded: false },
      },
    });
    expect(pact.interactions[1].description).toBe('users: GET /users/1?page=1&page=2 → 200');
    expect(pact.interactions[1].request.query).toEqual({ page: ['1', '2'] });
  });

  it('tells the same request answered otherwise apart by its description, and keeps JSON exact', () => {
    const big = '{"id":12345678901234567890,"price":1.50}';
    const other = entry({
      response: { headers: { 'content-type': 'application/json' }, body: big, bodySize: 40, bodyTruncated: false },
    });
    const contract = pactContract(named(entry(), other), OPTIONS);
    expect(contract.text).toContain('"content": {"id":12345678901234567890,"price":1.50}');
    const pact = JSON.parse(contract.text);
    expect(pact.interactions.map((one: { description: string }) => one.description)).toEqual([
      'users: GET /users/1 → 200',
      'users: GET /users/1 → 200 (2)',
    ]);
  });

  it('leaves the secrets out unless asked, and says what it left out and why', () => {
    const secret = entry({
      method: 'POST',
      headers: {
        authorization: 'Bearer s',
        cookie: 'a=b',
        'x-api-key': 'k',
        'content-type': 'text/plain',
        'mockpoint-session': 's1',
      },
      body: 'hello',
      response: { headers: { 'set-cookie': 'sid=1', 'x-a': ['1', '2'] }, body: '', bodySize: 0, bodyTruncated: false },
    });
    const without = JSON.parse(pactContract(named(secret), OPTIONS).text).interactions[0];
    expect(without.request.headers).toEqual({ 'content-type': ['text/plain'] });
    expect(without.request.body).toEqual({ content: 'hello', contentType: 'text/plain', encoded: false });
    expect(without.response).toEqual({ status: 200, headers: { 'x-a': ['1', '2'] } });
    const kept = JSON.parse(pactContract(named(secret), { ...OPTIONS, secrets: true }).text).interactions[0];
    expect(kept.request.headers.authorization).toEqual(['Bearer s']);
    expect(kept.response.headers['set-cookie']).toEqual(['sid=1']);

    const left = pactContract(
      named(
        entry({ answeredBy: 'none', statusCode: 404 }),
        entry({ fault: 'reset', response: undefined }),
        entry({ method: 'MESSAGE', websocket: { connection: 'c', direction: 'in' } }),
        entry({ bodyTruncated: true }),
      ),
      OPTIONS,
    );
    expect(left.interactions).toBe(0);
    expect(left.leftOut.map((one) => one.why)).toEqual([
      'no mock answered it (404): nothing to ask of the provider',
      'it was answered with a fault (reset), not an answer',
      'a WebSocket message, which a Pact HTTP interaction cannot hold',
      'its request body was longer than the journal keeps (64 KiB)',
    ]);
    expect(left.leftOut[0]?.what).toMatch(/^users: GET \/users\/1 \(#\d+\)$/);
    expect(JSON.parse(left.text).metadata.mockpoint.leftOut).toEqual(left.leftOut);
  });

  it('writes bytes as base64 and the scenarios a route looked at as provider states', () => {
    const bytes = entry({
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: '//4=',
      bodyEncoding: 'base64',
      state: { before: { default: 'paid', job: 'started' }, after: { default: 'paid', job: 'done' } },
    });
    const interaction = JSON.parse(pactContract(named(bytes), OPTIONS).text).interactions[0];
    expect(interaction.request.body).toEqual({
      content: '//4=',
      contentType: 'application/octet-stream',
      encoded: 'base64',
    });
    expect(interaction.providerStates).toEqual([
      { name: 'users is paid', params: { endpoint: 'users', scenario: 'default', state: 'paid' } },
      { name: 'users job is started', params: { endpoint: 'users', scenario: 'job', state: 'started' } },
    ]);
  });

  it('writes a text answer as it went on the wire (a lone surrogate as U+FFFD); leaves out JSON escaping one', () => {
    const text = entry({
      response: { headers: { 'content-type': 'text/plain' }, body: 'a\ud800b', bodySize: 5, bodyTruncated: false },
    });
    const escaped = entry({
      response: {
        headers: { 'content-type': 'application/json' },
        body: '{"s":"\\ud800"}',
        bodySize: 14,
        bodyTruncated: false,
      },
    });
    const contract = pactContract(named(text, escaped), OPTIONS);
    expect(JSON.parse(contract.text).interactions[0].response.body.content).toBe('a\uFFFDb');
    expect(contract.leftOut.map((one) => one.why)).toEqual([
      "its answer's body is JSON holding a lone surrogate (an escape such as \\ud800), which Pact cannot read",
    ]);
  });

  it('with types, checks each JSON answer by type: a type matcher on its whole body; text answers as they are', () => {
    const text = entry({
      subpath: '/t',
      response: { headers: { 'content-type': 'text/plain' }, body: 'hi', bodySize: 2, bodyTruncated: false },
    });
    const [json, plain] = JSON.parse(pactContract(named(entry(), text), { ...OPTIONS, types: true }).text).interactions;
    expect(json.response.matchingRules).toEqual({ body: { $: { combine: 'AND', matchers: [{ match: 'type' }] } } });
    expect(plain.response.matchingRules).toBeUndefined();
    expect(
      JSON.parse(pactContract(named(entry()), OPTIONS).text).interactions[0].response.matchingRules,
    ).toBeUndefined();
  });
});
