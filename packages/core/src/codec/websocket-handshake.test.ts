import { describe, expect, it } from 'vitest';
import { isWebSocketHandshake } from './websocket-handshake.js';

describe('isWebSocketHandshake', () => {
  it('is true for a GET with Upgrade: websocket in any case, white space ignored', () => {
    expect(isWebSocketHandshake('GET', ['Upgrade', 'websocket'])).toBe(true);
    expect(isWebSocketHandshake('GET', ['upgrade', ' WebSocket '])).toBe(true);
    expect(isWebSocketHandshake('GET', ['Host', 'a', 'Upgrade', 'websocket', 'Content-Length', '0'])).toBe(true);
  });

  it('is false for another method, another or no Upgrade, or websocket as one offer of a list', () => {
    expect(isWebSocketHandshake('POST', ['Upgrade', 'websocket'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Upgrade', 'h2c'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Host', 'a'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Upgrade', 'websocket, h2c'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Upgrade', 'h2c,websocket'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Upgrade', 'websocket', 'upgrade', 'websocket'])).toBe(false);
  });

  it('is false for a handshake that announces a body', () => {
    expect(isWebSocketHandshake('GET', ['Upgrade', 'websocket', 'Content-Length', '3'])).toBe(false);
    expect(isWebSocketHandshake('GET', ['Upgrade', 'websocket', 'Transfer-Encoding', 'chunked'])).toBe(false);
  });
});
