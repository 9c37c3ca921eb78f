// A websocket route in a mock file: export → parse → apply → export gives the same bytes,
// json frames exact (big integers, 1.0); a bad script in a file is refused with its place.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const ROUTES =
  '{"routes":[{"id":"ws","match":{"path":"/room"},"answer":{"delay":5,"websocket":{"protocols":["chat.v1"],"onOpen":[{"json":{"n":123456789012345678901234567890,"p":1.0},"delay":3},{"bytes":"AP8="}],"on":[{"match":{"body":{"type":"ping"}},"send":[{"text":"pong"}],"close":{"code":4000,"reason":"r"}}],"close":{"drop":true,"delay":100}}}}]}';

describe('websocket routes in mock files', () => {
  it('export → parse → apply → export gives the same bytes, json frames exact', async () => {
    const app = createApp();
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    expect((await app.request('/api/endpoints/chat/routes', { method: 'PUT', body: ROUTES })).status).toBe(200);
    for (const format of ['yaml', 'json'] as const) {
      const text = await exportMockFile(target, { names: ['chat'], format });
      expect(text).toContain('123456789012345678901234567890');
      const file = parseMockFile(text, { file: `x.${format}` });
      const other = createApp();
      const otherTarget = { url: 'http://other', fetch: async (request: Request) => other.request(request) };
      await applyMockFile(file, otherTarget);
      expect(await exportMockFile(otherTarget, { names: ['chat'], format })).toBe(text);
      expect(await (await other.request('/api/endpoints/chat/routes')).text()).toBe(
        await (await app.request('/api/endpoints/chat/routes')).text(),
      );
    }
  });

  it('refuses a bad script in a file, naming the route', () => {
    const yaml = [
      'version: 1',
      'endpoints:',
      '  - name: chat',
      '    routes:',
      '      - answer:',
      '          websocket:',
      '            close: { code: 1006 }',
      '',
    ].join('\n');
    expect(() => parseMockFile(yaml, { file: 'bad.yaml' })).toThrow(/1006|RFC 6455/);
  });
});
