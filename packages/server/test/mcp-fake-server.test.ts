// The route answer `mcp`: a fake MCP server on the real daemon, driven by the
// official MCP SDK's client over Streamable HTTP (JSON and SSE answers): tools
// listed and called (result, tool error, JSON-RPC error, templated result, bad
// arguments), resources read, prompts got, each JSON-RPC message journaled and
// found with the filter's `mcp` field. Checked at save with stable codes; also
// from a mock file. A fuzz with random code points for tool names and arguments.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
// One daemon for the tests that put their fake under `fake`: everything is deleted after each test.
const fakeDaemon = sharedDaemon({}, { clean: true });

const BIG = '12345678901234567890123';

const FAKE = {
  serverInfo: { name: 'weather-fake', version: '2.0.0' },
  instructions: 'A fake weather server.',
  tools: [
    {
      name: 'echo',
      description: 'Says it back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      result: 'you said {{arguments.text}}',
    },
    {
      name: 'weather',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      result: {
        content: [{ type: 'text', text: 'Sunny in {{arguments.city}}' }],
        structuredContent: { city: '{{arguments.city}}', station: Number.NaN },
      },
    },
    { name: 'broken', error: 'the database is down ({{arguments.table}})' },
    { name: 'crash', error: { code: -32603, message: 'internal: {{arguments.why}}', data: { retry: false } } },
  ],
  resources: [{ uri: 'file:///readme.md', name: 'readme', mimeType: 'text/markdown', text: '# Hi\r\n\u00e9\u{1F600}' }],
  prompts: [
    {
      name: 'greet',
      description: 'A greeting',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', text: 'Say hi to {{arguments.who}}' }],
    },
  ],
};

/** The routes body with the fake at /mcp; `station` goes as a number no double holds. */
function routesBody(extra: Record<string, unknown> = {}): string {
  const text = JSON.stringify({
    routes: [{ id: 'fake', match: { path: '/mcp' }, answer: { mcp: { ...FAKE, ...extra } } }],
  });
  return text.replace('"station":null', `"station":${BIG}`);
}

async function putRoutes(url: string, body: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${url}/api/endpoints/fake/routes`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: answer.status, text: await answer.text() };
}

async function connected(url: string): Promise<Client> {
  const client = new Client({ name: 'client-under-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/endpoint/fake/mcp`)));
  return client;
}

const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function rpc(url: string, message: unknown, headers: Record<string, string> = RPC_HEADERS) {
  const answer = await fetch(`${url}/endpoint/fake/mcp`, {
    method: 'POST',
    headers,
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text(), answer };
}

describe('a fake MCP server (answer mcp)', () => {
  it('is listed and called by the SDK client: results, errors, templates, resources, prompts', async () => {
    const daemon = await fakeDaemon();
    expect(await putRoutes(daemon.url, routesBody())).toMatchObject({ status: 200 });
    const client = await connected(daemon.url);
    try {
      expect(client.getServerVersion()).toEqual({ name: 'weather-fake', version: '2.0.0' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      expect(client.getInstructions()).toBe('A fake weather server.');
      await client.ping();

      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['echo', 'weather', 'broken', 'crash']);
      expect(tools[0]).toMatchObject({ description: 'Says it back', inputSchema: { required: ['text'] } });

      expect(await client.callTool({ name: 'echo', arguments: { text: 'h\u00e9llo "x"' } })).toEqual({
        content: [{ type: 'text', text: 'you said h\u00e9llo "x"' }],
      });
      const weather = await client.callTool({ name: 'weather', arguments: { city: 'Paris' } });
      expect(weather.content).toEqual([{ type: 'text', text: 'Sunny in Paris' }]);
      expect(weather.structuredContent).toMatchObject({ city: 'Paris' });
      expect(await client.callTool({ name: 'broken', arguments: { table: 'users' } })).toEqual({
        content: [{ type: 'text', text: 'the database is down (users)' }],
        isError: true,
      });
      await expect(client.callTool({ name: 'crash', arguments: { why: 'boom' } })).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining('internal: boom'),
      });
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(client.callTool({ name: 'echo', arguments: { text: 5 } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('echo'),
      });

      const { resources } = await client.listResources();
      expect(resources).toEqual([{ uri: 'file:///readme.md', name: 'readme', mimeType: 'text/markdown' }]);
      expect(await client.readResource({ uri: 'file:///readme.md' })).toEqual({
        contents: [{ uri: 'file:///readme.md', mimeType: 'text/markdown', text: '# Hi\r\n\u00e9\u{1F600}' }],
      });
      await expect(client.readResource({ uri: 'file:///other' })).rejects.toMatchObject({ code: -32002 });

      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        { name: 'greet', description: 'A greeting', arguments: [{ name: 'who', required: true }] },
      ]);
      expect(await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).toEqual({
        description: 'A greeting',
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hi to Ada' } }],
      });
      await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }

    // Each JSON-RPC message is a journal entry; the filter finds "tools/call echo".
    const match = encodeURIComponent(JSON.stringify({ mcp: { method: 'tools/call', tool: 'echo' } }));
    const echo = await requestJson(`${daemon.url}/api/endpoints/fake/requests?match=${match}&wait=2000&count=2`);
    const entries = (echo.body as { requests: { json: { params: { arguments: unknown } } }[] }).requests;
    expect(entries.map((entry) => entry.json.params.arguments)).toEqual([{ text: 'h\u00e9llo "x"' }, { text: 5 }]);
    const initialize = encodeURIComponent(JSON.stringify({ mcp: { method: 'initialize' } }));
    const init = await requestJson(`${daemon.url}/api/endpoints/fake/requests?match=${initialize}`);
    expect((init.body as { requests: unknown[] }).requests).toHaveLength(1);
    // A route may match on it too: the filter is the one filter.
    expect(
      (
        await putRoutes(
          daemon.url,
          JSON.stringify({ routes: [{ match: { mcp: { tool: 'echo' } }, answer: { data: 'routed' } }] }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await rpc(daemon.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } })).text,
    ).toBe('"routed"');
  });

  it("takes MCP's own shapes, pasted from a real server: prompt messages with content, resource contents", async () => {
    const daemon = await fakeDaemon();
    const pasted = {
      prompts: [
        {
          name: 'review',
          arguments: [{ name: 'file', required: true }],
          // What a real server's prompts/get answers, with a template in its text.
          messages: [
            { role: 'user', content: { type: 'text', text: 'Review {{arguments.file}}' } },
            { role: 'assistant', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
            { role: 'user', text: 'short form still' },
          ],
        },
      ],
      resources: [
        {
          uri: 'file:///logo.png',
          name: 'logo',
          // What a real server's resources/read answers.
          contents: [
            { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
            { mimeType: 'text/plain', text: 'caf\u00e9' },
          ],
        },
      ],
    };
    expect(await putRoutes(daemon.url, routesBody(pasted))).toMatchObject({ status: 200 });
    const client = await connected(daemon.url);
    try {
      const prompt = await client.getPrompt({ name: 'review', arguments: { file: 'a.ts' } });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Review a.ts' } },
        { role: 'assistant', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'short form still' } },
      ]);
      const read = await client.readResource({ uri: 'file:///logo.png' });
      expect(read.contents).toEqual([
        { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
        { uri: 'file:///logo.png', mimeType: 'text/plain', text: 'caf\u00e9' },
      ]);
      const { resources } = await client.listResources();
      expect(resources).toEqual([{ uri: 'file:///logo.png', name: 'logo' }]);
    } finally {
      await client.close();
    }
    // Both forms at once, or neither, and a blob that is not base64: refused with the code.
    for (const resource of [
      { uri: 'u:a', name: 'a', text: 'x', contents: [{ text: 'y' }] },
      { uri: 'u:a', name: 'a' },
      { uri: 'u:a', name: 'a', contents: [{ blob: 'not base64!' }] },
      { uri: 'u:a', name: 'a', contents: [{ text: 'x', blob: 'AA==' }] },
    ]) {
      const refused = await putRoutes(daemon.url, routesBody({ resources: [resource] }));
      expect(refused.status, JSON.stringify(resource)).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'INVALID_MCP' } });
    }
    const badTemplate = await putRoutes(
      daemon.url,
      routesBody({
        prompts: [{ name: 'p', messages: [{ role: 'user', content: { type: 'text', text: '{{nope.x}}' } }] }],
      }),
    );
    expect(JSON.parse(badTemplate.text)).toMatchObject({ error: { code: 'INVALID_TEMPLATE' } });
  });

  it('answers the protocol exactly: ids, session header, errors, notifications, SSE', async () => {
    const daemon = await fakeDaemon();
    expect(await putRoutes(daemon.url, routesBody())).toMatchObject({ status: 200 });
    const init = await rpc(daemon.url, {
      jsonrpc: '2.0',
      id: 'a-1',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.answer.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(init.text)).toMatchObject({
      jsonrpc: '2.0',
      id: 'a-1',
      result: { protocolVersion: '2025-06-18' },
    });
    // A stored number no double holds comes back as its digits.
    const weather = await rpc(daemon.url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'weather', arguments: { city: 'Oslo' } },
    });
    expect(weather.text).toContain(`"station":${BIG}`);
    expect(JSON.parse((await rpc(daemon.url, { jsonrpc: '2.0', id: 3, method: 'nope/x' })).text)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: nope/x' },
    });
    expect(await rpc(daemon.url, '{"jsonrpc":"2.0",')).toMatchObject({ status: 400 });
    expect(JSON.parse((await rpc(daemon.url, '{"jsonrpc":"2.0",')).text).error.code).toBe(-32700);
    expect(JSON.parse((await rpc(daemon.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }])).text).error.code).toBe(
      -32600,
    );
    const notification = await rpc(daemon.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([notification.status, notification.text]).toEqual([202, '']);
    expect((await fetch(`${daemon.url}/endpoint/fake/mcp`)).status).toBe(405);
    // With sse: true, the answer is one event of a text/event-stream, and the SDK client reads it so.
    expect(await putRoutes(daemon.url, routesBody({ sse: true }))).toMatchObject({ status: 200 });
    const ping = await rpc(daemon.url, { jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(ping.type).toBe('text/event-stream');
    expect(ping.text).toBe('event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{}}\n\n');
    const client = await connected(daemon.url);
    try {
      expect(await client.callTool({ name: 'echo', arguments: { text: 'sse' } })).toEqual({
        content: [{ type: 'text', text: 'you said sse' }],
      });
    } finally {
      await client.close();
    }
  });

  it('is checked when saved, with stable codes', async () => {
    const daemon = await fakeDaemon();
    const tool = (extra: Record<string, unknown>) => ({ name: 'a', result: 'x', ...extra });
    const cases: [unknown, string][] = [
      [{ tools: [tool({}), tool({})] }, 'INVALID_MCP'],
      [{ tools: [tool({ error: 'both' })] }, 'INVALID_MCP'],
      [{ tools: [{ name: 'a' }] }, 'INVALID_MCP'],
      [{ tools: [tool({ name: 'bad name!' })] }, 'INVALID_MCP'],
      [{ tools: [tool({ inputSchema: { type: 'string' } })] }, 'INVALID_MCP'],
      [{ tools: [tool({ result: 'hi {{arguments}}' })] }, 'INVALID_TEMPLATE'],
      [{ prompts: [{ name: 'p', messages: [{ role: 'user', text: '{{nope.x}}' }] }] }, 'INVALID_TEMPLATE'],
      [{ tools: [], extra: 1 }, 'UNKNOWN_FIELD'],
    ];
    for (const [mcp, code] of cases) {
      const saved = await putRoutes(daemon.url, JSON.stringify({ routes: [{ answer: { mcp } }] }));
      expect(saved.status, saved.text).toBe(400);
      expect(JSON.parse(saved.text).error.code, saved.text).toBe(code);
    }
    const beside = await putRoutes(daemon.url, JSON.stringify({ routes: [{ answer: { mcp: {}, data: 1 } }] }));
    expect(JSON.parse(beside.text).error.code).toBe('INVALID_ANSWER');
    const queued = await requestJson(`${daemon.url}/api/endpoints/fake/queue`, {
      method: 'POST',
      body: { answers: [{ mcp: { tools: [] } }] },
    });
    expect(queued.status).toBe(400);
  });

  it('comes from a mock file (mcp: on a route)', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'mockpoint.yaml');
    await writeFile(
      file,
      [
        'version: 1',
        'endpoints:',
        '  - name: fake',
        '    routes:',
        '      - match: { path: /mcp }',
        '        answer:',
        '          mcp:',
        '            tools:',
        '              - name: echo',
        '                result: "from the file: {{arguments.text}}"',
        '',
      ].join('\n'),
    );
    const daemon = await startDaemon({ args: ['--config', file] });
    const client = await connected(daemon.url);
    try {
      expect(await client.callTool({ name: 'echo', arguments: { text: 'yes' } })).toEqual({
        content: [{ type: 'text', text: 'from the file: yes' }],
      });
    } finally {
      await client.close();
    }
  });
});

describe('hostile bytes', () => {
  const SEED = 36;
  const CASES = 200;
  it(`answers ${CASES} random tool names and arguments (seed ${SEED}) with JSON-RPC, journals them, stays healthy`, async () => {
    const daemon = await fakeDaemon();
    expect(await putRoutes(daemon.url, routesBody())).toMatchObject({ status: 200 });
    const random = prng(SEED);
    for (let i = 0; i < CASES; i++) {
      const noise = randomText(random, 1 + Math.floor(random() * 40));
      const name = random() < 0.5 ? 'echo' : noise;
      const message = { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: { text: noise } } };
      const answer = await rpc(daemon.url, message);
      expect(answer.status, answer.text).toBe(200);
      const parsed = JSON.parse(answer.text) as {
        id: number;
        result?: { content: { text: string }[] };
        error?: unknown;
      };
      expect(parsed.id).toBe(i);
      if (name === 'echo' && noise !== '') expect(parsed.result?.content[0]?.text).toBe(`you said ${noise}`);
      else if (name !== 'echo') expect(parsed.error).toMatchObject({ code: -32602 });
      // The same noise as a method, and as the whole body.
      const odd = await rpc(daemon.url, { jsonrpc: '2.0', id: i, method: noise });
      expect(odd.status).toBe(200);
      expect(JSON.parse(odd.text).error.code).toBe(noise === 'ping' ? undefined : -32601);
      const raw = await rpc(daemon.url, noise);
      expect(raw.status).toBeLessThan(500);
      // The filter reads the journal's copy of the same bytes.
      const match = encodeURIComponent(JSON.stringify({ mcp: { tool: name } }));
      if (i % 20 === 0) {
        const found = await requestJson(`${daemon.url}/api/endpoints/fake/requests?match=${match}`);
        expect(found.status).toBe(200);
        expect((found.body as { requests: unknown[] }).requests.length).toBeGreaterThan(0);
      }
    }
    expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
  });
});
