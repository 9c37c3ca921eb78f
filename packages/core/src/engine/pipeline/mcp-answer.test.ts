// The `mcp` answer through the app's fetch (the path Bun, Deno and workerd serve by):
// exact results, templates, SSE by Accept, and the filter's `mcp` field with its words.
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

const BIG = '12345678901234567890123';

async function app(): Promise<MockpointApp> {
  const mock = createApp();
  const routes = JSON.stringify({
    routes: [
      {
        id: 'fake',
        match: { path: '/mcp' },
        answer: {
          mcp: {
            tools: [
              { name: 'sum', result: { content: [{ type: 'text', text: '{{arguments.a}}+{{arguments.b}}' }], n: 0 } },
              { name: 'who', result: '{{arguments.person.name}} ({{headers.x-user}})' },
            ],
          },
        },
      },
    ],
  }).replace('"n":0', `"n":${BIG}`);
  expect((await mock.request('/api/endpoints/fake/routes', { method: 'PUT', body: routes })).status).toBe(200);
  return mock;
}

function post(mock: MockpointApp, message: unknown, headers: Record<string, string> = {}) {
  return mock.request('/endpoint/fake/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
}

describe('the mcp answer', () => {
  it('renders results over the arguments, stored numbers exact', async () => {
    const mock = await app();
    const sum = await post(mock, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'sum', arguments: { a: 1, b: 'x"y' } },
    });
    expect(await sum.text()).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"1+x\\"y"}],"n":${BIG}}}`,
    );
    const who = await post(
      mock,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'who', arguments: { person: { name: 'Ada' } } } },
      { 'x-user': 'u1' },
    );
    expect(JSON.parse(await who.text()).result.content[0].text).toBe('Ada (u1)');
  });

  it('answers as one SSE event to a client that accepts only an event stream', async () => {
    const mock = await app();
    const ping = await post(mock, { jsonrpc: '2.0', id: 'p', method: 'ping' }, { accept: 'text/event-stream' });
    expect(ping.headers.get('content-type')).toBe('text/event-stream');
    expect(await ping.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":"p","result":{}}\n\n');
  });

  it('finds calls by method and tool, and says why one does not match', async () => {
    const mock = await app();
    await post(mock, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sum', arguments: {} } });
    await post(mock, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const read = async (filter: unknown) => {
      const answer = await mock.request(
        `/api/endpoints/fake/requests?match=${encodeURIComponent(JSON.stringify(filter))}`,
      );
      return ((await answer.json()) as { requests: { json: { id: number } }[] }).requests.map((r) => r.json.id);
    };
    expect(await read({ mcp: { method: 'tools/call', tool: 'sum' } })).toEqual([1]);
    expect(await read({ mcp: { method: 'tools/list' } })).toEqual([2]);
    expect(await read({ mcp: { tool: 'who' } })).toEqual([]);
    // A route that matches a tool: a near miss names the field.
    const routes = { routes: [{ match: { path: '/other', mcp: { tool: 'who' } }, answer: { data: 1 } }] };
    expect(
      (await mock.request('/api/endpoints/near/routes', { method: 'PUT', body: JSON.stringify(routes) })).status,
    ).toBe(200);
    const miss = await mock.request('/endpoint/near/other', {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'sum' } }),
    });
    expect(miss.status).toBe(404);
    expect(await miss.text()).toContain('mcp tool is \\"sum\\", route wants \\"who\\"');
    const refused = await mock.request('/api/endpoints/near/requests?match=%7B%22mcp%22%3A%7B%22x%22%3A1%7D%7D');
    expect(refused.status).toBe(400);
  });
});
