// mockpoint as an MCP server, driven by the official MCP SDK's client: `mockpoint mcp`
// on stdio (spawned from dist/, against a real daemon with a token, and with its own
// in-memory daemon) and Streamable HTTP at /api/mcp of the real daemon (token, Origin).
// Each goes through a whole session: an endpoint with exact data and routes, a request
// sent to it, waited for in the journal with the one filter, and read back exact.
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { curl } from './helpers/curl.js';
import { CLI_PATH, makeTempDir, ON_BUN, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

const TOKEN = 'mcp-test-token';
/** A number no double holds: it must come back as these digits. */
const BIG = '12345678901234567890123';

useDaemons();
// Two daemons for the tests that only talk to them: one with the admin token (its sessions make the
// same names, so everything is deleted after each test), one without (each test imports names of its
// own). The tests about a process (an in-memory daemon of mcp's own, a probe at start) start their own.
const tokenDaemon = sharedDaemon({ env: { MOCKPOINT_ADMIN_TOKEN: TOKEN } }, { clean: true, token: TOKEN });
const plainDaemon = sharedDaemon();

interface TextResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<TextResult> {
  return (await client.callTool({ name, arguments: args })) as TextResult;
}

/** The text of a successful call. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
  return result.content[0]?.text ?? '';
}

/** A whole session, the same over every transport. */
async function session(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of [
    'put_endpoint',
    'create_endpoint',
    'list_endpoints',
    'get_endpoint',
    'delete_endpoint',
    'put_routes',
    'put_collections',
    'put_state',
    'set_clock',
    'queue_answers',
    'get_requests',
    'put_signature_check',
    'send_delivery',
    'apply_mock_file',
    'export_mock_file',
    'import_mock_file',
    'call_endpoint',
    'coverage',
  ]) {
    expect(names).toContain(name);
  }
  // Input schemas are the API's own: the route list's body names its fields.
  const putRoutes = tools.find((tool) => tool.name === 'put_routes');
  const body = putRoutes?.inputSchema.properties?.body as { properties?: Record<string, unknown> };
  expect(Object.keys(body.properties ?? {})).toContain('routes');
  expect(putRoutes?.inputSchema.required).toEqual(['name', 'body']);

  // Exact data goes in as mock file text (a tool argument is JSON already parsed by the client).
  const plan = await ok(client, 'apply_mock_file', {
    text: `{"version":1,"endpoints":[{"name":"shop","data":{"id":${BIG},"note":"caf\\u00e9"}}]}`,
  });
  expect(JSON.parse(plan)).toMatchObject({ created: ['shop'] });
  expect(await ok(client, 'get_endpoint', { name: 'shop' })).toBe(
    `{"name":"shop","data":{"id":${BIG},"note":"caf\\u00e9"},"statusCode":200,"delay":0}`,
  );
  await ok(client, 'put_routes', {
    name: 'shop',
    body: {
      routes: [
        {
          id: 'order',
          match: { method: 'POST', path: '/orders/:id' },
          answer: { statusCode: 201, template: true, data: { order: '{{params.id}}' } },
        },
      ],
    },
  });
  const sent = JSON.parse(
    await ok(client, 'call_endpoint', {
      name: 'shop',
      subpath: '/orders/7',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"qty":${BIG}}`,
    }),
  ) as { status: number; body: string };
  expect(sent).toMatchObject({ status: 201, body: '{"order":"7"}' });

  const waited = await ok(client, 'get_requests', {
    name: 'shop',
    wait: 2000,
    count: 1,
    match: { method: 'POST', path: '/orders/:id' },
  });
  const page = JSON.parse(waited) as { requests: { body: string; subpath: string; answeredBy: unknown }[] };
  expect(page.requests).toHaveLength(1);
  expect(page.requests[0]).toMatchObject({ subpath: '/orders/7', answeredBy: { route: 'order' } });
  // The request body read back byte for byte, big number included.
  expect(waited).toContain(JSON.stringify(`{"qty":${BIG}}`));

  // Errors are tool errors with the API's stable codes.
  const missing = await call(client, 'get_endpoint', { name: 'nope' });
  expect(missing.isError).toBe(true);
  expect(JSON.parse(missing.content[0]?.text ?? '')).toMatchObject({ error: { code: 'NOT_FOUND' } });
  const badRoute = await call(client, 'put_routes', { name: 'shop', body: { routes: [{ id: 'x' }] } });
  expect(badRoute.isError).toBe(true);
  expect(badRoute.content[0]?.text).toContain('"code":"INVALID_ROUTE"');
  const badArgs = await call(client, 'get_endpoint', { name: 'shop', extra: 1 });
  expect(badArgs.content[0]?.text).toContain('INVALID_ARGUMENT');
  // call_endpoint reaches the endpoint's URLs only, never the admin API.
  for (const subpath of ['/../../api/endpoints', '/%2e%2e/%2E%2E/api/endpoint/add']) {
    const escaped = await call(client, 'call_endpoint', { name: 'shop', subpath, method: 'PUT', body: '{}' });
    expect(escaped.isError, subpath).toBe(true);
    expect(escaped.content[0]?.text).toContain('INVALID_ARGUMENT');
  }

  // The export holds the data exactly as stored.
  expect(await ok(client, 'export_mock_file', { names: ['shop'] })).toContain(`"id":${BIG}`);

  // Resources: the list, one endpoint, its journal.
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining([
      'mockpoint://endpoints',
      'mockpoint://endpoints/shop',
      'mockpoint://endpoints/shop/requests',
    ]),
  );
  const record = await client.readResource({ uri: 'mockpoint://endpoints/shop' });
  expect((record.contents[0] as { text: string }).text).toContain(`"id":${BIG}`);
  const journal = await client.readResource({ uri: 'mockpoint://endpoints/shop/requests' });
  expect((journal.contents[0] as { text: string }).text).toContain('/orders/7');
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('mockpoint://endpoints/{name}/requests');
}

function newClient(): Client {
  return new Client({ name: 'mockpoint-test', version: '1.0.0' });
}

describe('mockpoint mcp (stdio)', () => {
  it('drives a running daemon through --url and --token', async () => {
    const daemon = await tokenDaemon();
    const client = newClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp', '--url', daemon.url, '--token', TOKEN],
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('mockpoint');
      await session(client);
      // The daemon itself holds what the tools made.
      const stored = await fetch(`${daemon.url}/api/endpoints/shop`);
      expect(await stored.text()).toContain(`"id":${BIG}`);
    } finally {
      await client.close();
    }
  });

  it('without --url starts an in-memory daemon of its own', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp'],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = newClient();
    await client.connect(transport);
    try {
      await session(client);
      // Its URL is on standard error, and it answers there too.
      const url = /in-memory daemon at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      expect(url).toBeDefined();
      const answer = await fetch(`${url}/endpoint/shop`);
      expect(await answer.text()).toBe(`{"id":${BIG},"note":"caf\\u00e9"}`);
    } finally {
      await client.close();
    }
  });
});

describe('/api/mcp (Streamable HTTP)', () => {
  it('serves a whole session with the admin token', async () => {
    const daemon = await tokenDaemon();
    const client = newClient();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      await session(client);
    } finally {
      await client.close();
    }
  });

  it('refuses a client without the token (401) and a page of a foreign origin (403)', async () => {
    const daemon = await tokenDaemon();
    const anonymous = newClient();
    await expect(
      anonymous.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`))),
    ).rejects.toThrow(/401|UNAUTHORIZED/);
    const foreign = newClient();
    await expect(
      foreign.connect(
        new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' } },
        }),
      ),
    ).rejects.toThrow(/403|CROSS_ORIGIN/);
    // The same answers as any admin write: our codes in our error body.
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const noToken = await fetch(`${daemon.url}/api/mcp`, { method: 'POST', headers, body: initialize });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const crossSite = await fetch(`${daemon.url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' },
      body: initialize,
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: { code: 'CROSS_ORIGIN' } });
    // A foreign Host (DNS rebinding) too; fetch cannot set Host, curl can.
    const foreignHost = await curl([
      ...Object.entries({ ...headers, authorization: `Bearer ${TOKEN}`, host: 'evil.example' }).flatMap(([k, v]) => [
        '-H',
        `${k}: ${v}`,
      ]),
      '--data-binary',
      initialize,
      `${daemon.url}/api/mcp`,
    ]);
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
  });
});

describe('call_endpoint', () => {
  it('reads at most 1 MiB of an endless answer (a proxy route to an upstream that never ends) and says it cut it', async () => {
    // An upstream that writes 64 KiB chunks until its client goes away.
    const upstream = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as { port: number }).port;
    try {
      const daemon = await startDaemon({
        env: { MOCKPOINT_ADMIN_TOKEN: TOKEN, MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${port}` },
      });
      const client = newClient();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      try {
        await ok(client, 'put_routes', {
          name: 'endless',
          body: { routes: [{ id: 'up', answer: { proxy: { url: `http://127.0.0.1:${port}` } } }] },
        });
        const answer = JSON.parse(await ok(client, 'call_endpoint', { name: 'endless', subpath: '/stream' }));
        expect(answer).toMatchObject({ status: 200, truncated: true, truncatedAt: 1024 * 1024 });
        expect(answer.body).toHaveLength(1024 * 1024);
        expect(answer.body).toMatch(/^x+$/);
        // The daemon still answers.
        expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
      } finally {
        await client.close();
      }
    } finally {
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});

describe('import_mock_file over /api/mcp', () => {
  it("import_mock_file reads no file of the daemon's machine through an OpenAPI $ref", async () => {
    const daemon = await plainDaemon();
    const secret = join(await makeTempDir(), 'secret.yaml');
    await writeFile(secret, 'not-for-mcp-clients\n');
    const doc = {
      openapi: '3.0.0',
      info: { title: 'x', version: '1' },
      paths: {
        '/leak': {
          get: {
            responses: { '200': { description: 'ok', content: { 'application/json': { example: { $ref: secret } } } } },
          },
        },
      },
    };
    const answer = await fetch(`${daemon.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'import_mock_file', arguments: { kind: 'openapi', name: 'leak', text: JSON.stringify(doc) } },
      }),
    });
    const text = await answer.text();
    expect(text).not.toContain('not-for-mcp-clients');
    const result = (JSON.parse(text) as { result: TextResult }).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '')).toMatchObject({
      error: { code: 'OPENAPI_UNREADABLE', message: expect.stringContaining('points outside the document') },
    });
  });
});

describe('import_mock_file notes', () => {
  it('name what a HAR, a json-server database and a Pact file left out, as `mockpoint import` does (not [object Object])', async () => {
    const daemon = await plainDaemon();
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`)));
    try {
      const har = {
        log: {
          version: '1.2',
          creator: { name: 'x', version: '1' },
          entries: [
            {
              request: { method: 'GET', url: 'ftp://example.com/file', headers: [], queryString: [] },
              response: { status: 200, headers: [], content: { size: 0, mimeType: 'text/plain', text: '' } },
            },
          ],
        },
      };
      const fromHar = JSON.parse(
        await ok(client, 'import_mock_file', { kind: 'har', name: 'rec', text: JSON.stringify(har) }),
      ) as { notes: string[] };
      expect(fromHar.notes).toEqual([expect.stringMatching(/^left out \S.*: not an http\(s\) request with a method$/)]);
      const fromDb = JSON.parse(
        await ok(client, 'import_mock_file', { kind: 'json-server', name: 'db', text: '{"posts":[],"count":3}' }),
      ) as { notes: string[] };
      expect(fromDb.notes).toEqual([
        'left out "count": neither an array nor an object (json-server serves no route for it)',
      ]);
      const pact = {
        consumer: { name: 'web' },
        provider: { name: 'api' },
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'a',
            request: { method: 'GET', path: '/a' },
            response: { status: 200 },
          },
          { type: 'Asynchronous/Messages', description: 'event', contents: {} },
        ],
        metadata: { pactSpecification: { version: '4.0' } },
      };
      const fromPact = JSON.parse(
        await ok(client, 'import_mock_file', {
          kind: 'pact',
          name: 'contract',
          text: JSON.stringify(pact),
          apply: true,
        }),
      ) as { notes: string[] };
      expect(fromPact.notes).toEqual(['left out interaction "event": a Asynchronous/Messages interaction, not HTTP']);
      expect((await fetch(`${daemon.url}/endpoint/contract/a`)).status).toBe(200);
      // The journal back as a contract: export_pact, one tool for GET /api/requests.pact.
      const exported = JSON.parse(await ok(client, 'export_pact', { consumer: 'web', provider: 'api' })) as {
        interactions: { request: { path: string } }[];
      };
      expect(exported.interactions.map((interaction) => interaction.request.path)).toEqual(['/a']);
    } finally {
      await client.close();
    }
  });
});

describe('import_mock_file over /api/mcp: hostile $ref values', () => {
  it('answers 120 seeded random $ref values (seed 38) with a tool error or an import, each message one bounded line; health answers throughout', async () => {
    const daemon = await plainDaemon();
    const random = prng(38);
    for (let round = 0; round < 120; round++) {
      // Half name a file (a path, a URL, `..`), half point into the document; every one with random code points.
      const prefix = ['../', '/etc/', 'file://', 'https://x/', '#/', ''][round % 6] as string;
      const ref = `${prefix}${randomText(random, 1 + Math.floor(random() * (round % 10 === 0 ? 600 : 40)))}`;
      const doc = `{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":${jsonString(ref)}}}}}}}}}}`;
      const answer = await fetch(`${daemon.url}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: round,
          method: 'tools/call',
          params: { name: 'import_mock_file', arguments: { kind: 'openapi', name: 'fuzz', text: doc } },
        }),
      });
      expect(answer.status, ref).toBe(200);
      const result = ((await answer.json()) as { result: TextResult }).result;
      if (result.isError !== true) continue; // a #/ pointer to something that is there imports
      const { error } = JSON.parse(result.content[0]?.text ?? '') as { error: { code: string; message: string } };
      expect(error.code, ref).toBe('OPENAPI_UNREADABLE');
      expect(error.message, ref).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(error.message.length, ref).toBeLessThan(1000);
      if (round % 20 === 0) expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
  });
});

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the probe is a Node `--import` hook.
describe.skipIf(ON_BUN)('an idle daemon', () => {
  it('loads the MCP SDK only when /api/mcp is first asked', async () => {
    // A resolve hook (node --import) that notes every module of the MCP server the daemon loads.
    const dir = await makeTempDir();
    const log = join(dir, 'loaded.txt');
    await writeFile(log, '');
    await writeFile(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/mcp-(sdk|http)/.test(resolved.url)) appendFileSync(file, resolved.url + '\\n');
  return resolved;
}
`,
    );
    await writeFile(
      join(dir, 'probe.mjs'),
      `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { file: ${JSON.stringify(log)} } });
`,
    );
    const daemon = await startDaemon({ nodeArgs: ['--import', join(dir, 'probe.mjs')] });
    await fetch(`${daemon.url}/api/endpoints/idle`, { method: 'PUT', body: '{"data":1}' });
    expect((await fetch(`${daemon.url}/endpoint/idle`)).status).toBe(200);
    expect(await readFile(log, 'utf8')).toBe('');
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`)));
    await client.close();
    expect(await readFile(log, 'utf8')).toMatch(/mcp-sdk\.js/);
  });
});
