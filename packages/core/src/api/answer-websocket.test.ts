// A websocket answer is checked when it is saved: frames, delays, sizes, close codes, match.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { isSendableCloseCode } from './answer-websocket.js';

async function save(answer: unknown, options: Parameters<typeof createApp>[0] = {}) {
  const app = createApp(options);
  const response = await app.request('/api/endpoints/ws/routes', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ routes: [{ answer }] }),
  });
  const body = (await response.json()) as { error?: { code: string; message: string }; routes?: unknown[] };
  return { status: response.status, code: body.error?.code, message: body.error?.message ?? '', body };
}

describe('websocket answers at save', () => {
  it('keeps a valid script, json frames as their exact text', async () => {
    const app = createApp();
    const text =
      '{"routes":[{"id":"r1","answer":{"delay":5,"websocket":{"protocols":["a.v1"],"onOpen":[{"json":{"n":1.0,"big":123456789012345678901234},"delay":3}],"on":[{"match":{"body":{"type":"ping"}},"send":[{"bytes":"AAE="}],"close":{"code":4000,"reason":"r"}}],"close":{"drop":true}}}}]}';
    const response = await app.request('/api/endpoints/ws/routes', { method: 'PUT', body: text });
    expect(response.status).toBe(200);
    const listed = await (await app.request('/api/endpoints/ws/routes')).text();
    expect(listed).toContain('{"json":{"n":1.0,"big":123456789012345678901234},"delay":3}');
  });

  it.each([
    [{ websocket: { onOpen: [{}] } }, 'INVALID_WEBSOCKET', 'exactly one of text, json and bytes'],
    [{ websocket: { onOpen: [{ text: 'a', bytes: 'AA==' }] } }, 'INVALID_WEBSOCKET', 'exactly one'],
    [{ websocket: { onOpen: [{ bytes: 'not base64!' }] } }, 'INVALID_WEBSOCKET', 'bytes is not base64'],
    [{ websocket: { onOpen: [{ text: 'a', delay: 60_001 }] } }, 'INVALID_DELAY', ''],
    [{ websocket: { close: { code: 1005 } } }, 'INVALID_WEBSOCKET', 'RFC 6455'],
    [{ websocket: { close: { code: 2999 } } }, 'INVALID_WEBSOCKET', 'RFC 6455'],
    [{ websocket: { close: { code: 1000, reason: 'x'.repeat(124) } } }, 'INVALID_WEBSOCKET', '123 bytes'],
    [{ websocket: { close: { drop: true, code: 1000 } } }, 'INVALID_WEBSOCKET', 'drop'],
    [{ websocket: { on: [{ match: { path: '/a/*/b' } }] } }, 'INVALID_WEBSOCKET', 'match.path'],
    [{ websocket: { on: [{ match: { state: 'x' } }] } }, 'INVALID_WEBSOCKET', 'state does not apply'],
    [{ websocket: { on: [{ match: { bogus: 1 } }] } }, 'UNKNOWN_FIELD', 'bogus'],
    [{ websocket: { protocols: ['a b'] } }, 'INVALID_WEBSOCKET', 'token'],
    [{ websocket: { protocols: ['a', 'a'] } }, 'INVALID_WEBSOCKET', 'twice'],
    [{ websocket: {}, data: 1 }, 'INVALID_ANSWER', 'data do not apply'],
    [{ websocket: {}, statusCode: 200 }, 'INVALID_ANSWER', 'statusCode do not apply'],
    [{ websocket: { onOpen: 'x' } }, 'INVALID_WEBSOCKET', ''],
  ])('refuses %j with %s', async (answer, code, words) => {
    const saved = await save(answer);
    expect(saved.status).toBe(400);
    expect(saved.code).toBe(code);
    expect(saved.message).toContain(words);
  });

  it('bounds frame sizes by MOCKPOINT_MAX_SOCKET_FRAME_BYTES, base64 counted as its bytes', async () => {
    const ok = await save({ websocket: { onOpen: [{ bytes: 'AAAA'.repeat(50) }] } }, { maxSocketFrameBytes: 150 });
    expect(ok.status).toBe(200);
    const big = await save({ websocket: { onOpen: [{ text: 'é'.repeat(76) }] } }, { maxSocketFrameBytes: 150 });
    expect(big.code).toBe('INVALID_WEBSOCKET');
    expect(big.message).toContain('152 bytes');
  });

  it('refuses match.websocket on a route (it selects journal entries of messages)', async () => {
    const app = createApp();
    const response = await app.request('/api/endpoints/ws/routes', {
      method: 'PUT',
      body: JSON.stringify({ routes: [{ match: { websocket: { direction: 'in' } }, answer: {} }] }),
    });
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_MATCH');
  });

  it('knows the sendable close codes', () => {
    for (const code of [1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999])
      expect(isSendableCloseCode(code)).toBe(true);
    for (const code of [999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 1000.5]) {
      expect(isSendableCloseCode(code)).toBe(false);
    }
  });
});
