import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';

async function withSocketRoute(): Promise<MockpointApp> {
  const mock = createApp();
  const routes = [{ answer: { websocket: { onOpen: [{ text: 'hi' }] } } }];
  const put = await mock.request('/api/endpoints/chat/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
  expect(put.status, await put.clone().text()).toBe(200);
  return mock;
}

async function codeOf(response: Response): Promise<[number, string]> {
  return [response.status, ((await response.json()) as { error: { code: string } }).error.code];
}

describe('a WebSocket route', () => {
  // Served by app.request, no runtime accepts the upgrade: a handshake is 501, anything else 426.
  it('takes a GET with Upgrade: websocket as a handshake', async () => {
    const mock = await withSocketRoute();
    const response = await mock.request('/endpoint/chat', { headers: { upgrade: 'WebSocket' } });
    expect(await codeOf(response)).toEqual([501, 'WEBSOCKET_UNSUPPORTED']);
  });

  it('refuses websocket offered in a list, or with a body, as no handshake (426), as ws and Deno do', async () => {
    const mock = await withSocketRoute();
    const listed = await mock.request('/endpoint/chat', { headers: { upgrade: 'websocket, h2c' } });
    expect(await codeOf(listed)).toEqual([426, 'WEBSOCKET_REQUIRED']);
    const bodied = await mock.request('/endpoint/chat', { headers: { upgrade: 'websocket', 'content-length': '3' } });
    expect(await codeOf(bodied)).toEqual([426, 'WEBSOCKET_REQUIRED']);
  });
});
