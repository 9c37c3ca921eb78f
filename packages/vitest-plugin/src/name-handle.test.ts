import { createClient } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import { createApiHandle } from './endpoint.js';
import { createSocketHandle } from './socket-handle.js';

describe('handles of one name', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:9' });

  it('carry the name and its URL, ws:// for a socket', () => {
    expect(createApiHandle(client, 'orders').url).toBe('http://127.0.0.1:9/endpoint/orders');
    const socket = createSocketHandle(client, 'chat');
    expect([socket.name, socket.url, socket.urlFor('/room/1')]).toEqual([
      'chat',
      'ws://127.0.0.1:9/endpoint/chat',
      'ws://127.0.0.1:9/endpoint/chat/room/1',
    ]);
  });

  it('show only their name and URL: the client is no property of theirs', () => {
    expect(Object.keys(createApiHandle(client, 'orders'))).toEqual(['name', 'url']);
    expect(Object.keys(createSocketHandle(client, 'chat'))).toEqual(['name', 'url']);
  });
});
