// An llm route in a mock file: export → parse → apply → export gives the same bytes, tool
// arguments exact (big integers, 1.0); a YAML file written by hand answers; a bad answer in a
// file is refused with its place.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const ROUTES =
  '{"routes":[{"id":"chat","match":{"path":"/chat/completions","body":{"model":"gpt-4o"}},"answer":{"delay":5,"template":true,"llm":{"provider":"openai","api":"chat.completions","text":"Hi {{body.user}}","toolCalls":[{"name":"f","arguments":{"n":123456789012345678901234567890,"p":1.0},"id":"call_1"}],"stream":true,"chunkDelayMs":10,"usage":{"inputTokens":3,"outputTokens":4},"end":"reset","model":"gpt-4o-2024"}}},{"id":"busy","answer":{"llm":{"provider":"anthropic","api":"messages","error":{"type":"rate_limit","retryAfter":30,"message":"slow"}}}}]}';

describe('llm routes in mock files', () => {
  it('export → parse → apply → export gives the same bytes, arguments exact', async () => {
    const app = createApp();
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    expect((await app.request('/api/endpoints/ai/routes', { method: 'PUT', body: ROUTES })).status).toBe(200);
    for (const format of ['yaml', 'json'] as const) {
      const text = await exportMockFile(target, { names: ['ai'], format });
      expect(text).toContain('123456789012345678901234567890');
      const file = parseMockFile(text, { file: `x.${format}` });
      const other = createApp();
      const otherTarget = { url: 'http://other', fetch: async (request: Request) => other.request(request) };
      await applyMockFile(file, otherTarget);
      expect(await exportMockFile(otherTarget, { names: ['ai'], format })).toBe(text);
      expect(await (await other.request('/api/endpoints/ai/routes')).text()).toBe(
        await (await app.request('/api/endpoints/ai/routes')).text(),
      );
    }
  });

  it('a hand-written YAML route answers as the provider', async () => {
    const yaml = [
      'version: 1',
      'endpoints:',
      '  - name: claude',
      '    routes:',
      '      - match: { method: POST, path: /v1/messages }',
      '        answer:',
      '          llm:',
      '            provider: anthropic',
      '            api: messages',
      '            text: Bonjour',
      '            toolCalls:',
      '              - name: lookup',
      '                arguments: { q: 1.50 }',
      '',
    ].join('\n');
    const app = createApp();
    await applyMockFile(parseMockFile(yaml, { file: 'm.yaml' }), {
      url: 'http://app',
      fetch: async (request: Request) => app.request(request),
    });
    const response = await app.request('/endpoint/claude/v1/messages', { method: 'POST', body: '{"model":"c"}' });
    const text = await response.text();
    expect(text).toContain('"content":[{"type":"text","text":"Bonjour"},{"type":"tool_use","id":"toolu_01');
    expect(text).toContain('"name":"lookup","input":{"q":1.50}}]');
  });

  it('refuses a bad answer in a file, naming the route', () => {
    const yaml = [
      'version: 1',
      'endpoints:',
      '  - name: ai',
      '    routes:',
      '      - answer:',
      '          llm: { provider: anthropic, api: chat.completions }',
      '',
    ].join('\n');
    expect(() => parseMockFile(yaml, { file: 'bad.yaml' })).toThrow(/anthropic has messages/);
  });
});
