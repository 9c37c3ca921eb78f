// /api/mcp bounds its work per call and per message (#49 S6), against the real
// daemon with /api/health asked every 200 ms and its RSS watched:
// - import_mock_file of a 9 KB OpenAPI document whose schemas and examples refer to
//   the level below two or three times, 30 levels deep (trees of 2^30 and 3^15 values;
//   before: a stall of tens of seconds and gigabytes), answers at once, those operations
//   left out, named;
// - a batch of 30 call_endpoint is refused with a JSON-RPC error (before: never answered);
// - a batch of 16 call_endpoint of a body of control characters (6 characters each once
//   escaped, 7 twice) shares one budget: the message stays a few MB (before: 16 x 7 x the body).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchHealth } from './helpers/watch-health.js';

const MiB = 1024 * 1024;

useDaemons();

interface TextResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

/** A document of `levels` schemas and examples, each referring to the one below twice. */
function sharedRefsDocument(levels: number): string {
  const schemas: Record<string, unknown> = { S0: { type: 'object', properties: { v: { type: 'string' } } } };
  const examples: Record<string, unknown> = { E0: { v: 1 } };
  for (let i = 1; i <= levels; i++) {
    const below = { $ref: `#/components/schemas/S${i - 1}` };
    schemas[`S${i}`] = { type: 'object', properties: { a: below, b: below, c: { type: 'array', items: below } } };
    examples[`E${i}`] = {
      a: { $ref: `#/components/x-examples/E${i - 1}` },
      b: { $ref: `#/components/x-examples/E${i - 1}` },
    };
  }
  const ok = (content: unknown) => ({
    responses: { '200': { description: 'ok', content: { 'application/json': content } } },
  });
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'shared', version: '1' },
    paths: {
      '/sampled': { get: ok({ schema: { $ref: `#/components/schemas/S${levels}` } }) },
      '/example': { get: ok({ example: { $ref: `#/components/x-examples/E${levels}` } }) },
      '/small': { get: ok({ schema: { $ref: '#/components/schemas/S1' } }) },
    },
    components: { schemas, 'x-examples': examples },
  });
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: answer.status, text: await answer.text() };
}

const callEndpoint = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'call_endpoint', arguments: { name: 'ctl' } },
});

it('an exponential $ref document, a batch of 30 and a batch of 16 big answers: bounded, health < 1 s, RSS bounded', async () => {
  const daemon = await startDaemon();
  // A route answering 256 KiB of U+0001 (6 characters each as a JSON string), stored as base64.
  const routes = await fetch(`${daemon.url}/api/endpoints/ctl/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [{ id: 'ctl', answer: { bodyBase64: Buffer.alloc(256 * 1024, 1).toString('base64') } }],
    }),
  });
  expect(routes.status).toBe(200);
  // The MCP SDK loads on the first request (not what is measured here).
  const client = new Client({ name: 'mockpoint-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`)));
  await client.listTools();

  const document = sharedRefsDocument(30);
  expect(document.length).toBeLessThan(10_000);
  const watch = await watchHealth(daemon.url, daemon.child.pid as number);
  try {
    const imported = (await client.callTool(
      { name: 'import_mock_file', arguments: { kind: 'openapi', name: 'shared', text: document, apply: true } },
      undefined,
      { timeout: 60_000 },
    )) as TextResult;
    expect(imported.isError, imported.content[0]?.text).toBeFalsy();
    const answer = JSON.parse(imported.content[0]?.text ?? '') as {
      mockFile: { endpoints: { routes: { id: string; answer: { data?: unknown } }[] }[] };
      notes: string[];
    };
    // The operations whose answers would expand are left out, named; the rest is imported and applied.
    expect(answer.notes).toEqual([
      'skipped GET /sampled: its schema would take more than 50,000 schema nodes to sample (shared $refs expanded)',
      'skipped GET /example: its 200 answer would be more than 200,000 values (an example whose shared $refs expand)',
    ]);
    expect(answer.mockFile.endpoints[0]?.routes.map((route) => route.id)).toEqual(['get-small']);
    expect((await fetch(`${daemon.url}/endpoint/shared/small`)).status).toBe(200);

    // More than 16 messages in one POST: one JSON-RPC error at once.
    const thirty = await post(
      daemon.url,
      Array.from({ length: 30 }, (_, i) => callEndpoint(i)),
    );
    expect(thirty.status).toBe(400);
    expect(JSON.parse(thirty.text)).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('at most 16') },
    });

    // 16 calls of 256 Ki control characters: 16 x 1.5 Mi characters escaped once, 16 x 1.75 Mi twice, before.
    const sixteen = await post(
      daemon.url,
      Array.from({ length: 16 }, (_, i) => callEndpoint(i)),
    );
    expect(sixteen.status).toBe(200);
    expect(sixteen.text.length).toBeLessThan(5 * 1024 * 1024);
    const results = JSON.parse(sixteen.text) as { result: TextResult }[];
    expect(results).toHaveLength(16);
    const calls = results.map(
      (r) =>
        JSON.parse(r.result.content[0]?.text ?? '') as {
          status: number;
          body: string;
          truncated?: boolean;
          truncatedAt?: number;
        },
    );
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(call.body).toBe('\u0001'.repeat(call.body.length));
      if (call.truncated) expect(call.truncatedAt).toBe(call.body.length);
      else expect(call.body).toHaveLength(256 * 1024);
    }
    // Together at most the message's budget of escaped characters (2 Mi); some calls cut, said so.
    expect(calls.reduce((sum, call) => sum + call.body.length * 6, 0)).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(calls.some((call) => call.truncated)).toBe(true);
  } finally {
    const health = await watch.stop();
    await client.close();
    expect(health.asked).toBeGreaterThan(0);
    expect(health.failed).toBe(0);
    expect(health.worstMs, `health worst ${Math.round(health.worstMs)} ms`).toBeLessThan(1000);
    const [before, peak] = [health.rssStart / MiB, health.rssPeak / MiB];
    expect(peak - before, `RSS ${before} -> ${peak} MB`).toBeLessThan(300);
  }
}, 120_000);
