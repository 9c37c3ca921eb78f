// A fake MCP server's calls refused by the pipeline's cross-cutting steps (chaos, a route's rate limit,
// an enforced signature check, a queued status) get the protocol's own form on the real daemon: a
// JSON-RPC error for the request's id in a 200 (docs/design.md#every-feature-composes; docs/mcp.md), which the official SDK's
// client raises as an McpError with the code, the message and `data: { code, status }`. A notification
// keeps the HTTP form (it has no id to answer), and a reset stays at the connection. A fuzz sends random
// code points as the id, the method and the whole body under chaos.
import { createHmac } from 'node:crypto';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { sharedDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
const daemon = sharedDaemon();

const CALL = { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name: 't', arguments: {} } };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function save(path: string, body: unknown, method = 'PUT'): Promise<void> {
  const { url } = await daemon();
  const answer = await fetch(`${url}/api/endpoints/${path}`, { method, body: JSON.stringify(body) });
  expect(answer.status, await answer.text()).toBeLessThan(300);
}

async function fake(name: string, route: Record<string, unknown> = {}, sse = false): Promise<void> {
  const mcp = { tools: [{ name: 't', result: 'fine' }], ...(sse ? { sse: true } : {}) };
  await save(`${name}/routes`, { routes: [{ id: 'f', match: { path: '/mcp' }, ...route, answer: { mcp } }] });
}

async function rpc(name: string, message: unknown = CALL, headers: Record<string, string> = {}) {
  const { url } = await daemon();
  const answer = await fetch(`${url}/endpoint/${name}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(message),
  });
  return {
    status: answer.status,
    type: answer.headers.get('content-type'),
    headers: answer.headers,
    text: await answer.text(),
  };
}

async function connected(name: string): Promise<Client> {
  const { url } = await daemon();
  const client = new Client({ name: 'client-under-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/endpoint/${name}/mcp`)));
  return client;
}

describe('an MCP call refused by the pipeline', () => {
  it('reaches the SDK client as an McpError for each chaos status, and works again once cleared', async () => {
    await fake('mo-chaos');
    const client = await connected('mo-chaos');
    try {
      for (const [fault, code, stable] of [
        ['503', -32050, 'CHAOS_UNAVAILABLE'],
        ['500', -32603, 'CHAOS_INTERNAL_ERROR'],
        ['429', -32051, 'CHAOS_RATE_LIMITED'],
      ] as const) {
        await save('mo-chaos/chaos', { rate: 1, faults: [fault] });
        await expect(client.callTool({ name: 't', arguments: {} })).rejects.toMatchObject({
          code,
          message: expect.stringContaining(`injected by the chaos of "mo-chaos" (${fault})`),
          data: { code: stable, status: Number(fault) },
        });
      }
      await save('mo-chaos/chaos', {}, 'DELETE');
      expect(await client.callTool({ name: 't', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'fine' }],
      });
    } finally {
      await client.close();
    }
  });

  it('answers a 200 with the error for the request’s id, as an SSE event when the fake answers so', async () => {
    await fake('mo-sse', {}, true);
    await save('mo-sse/chaos', { rate: 1, faults: ['503'] });
    const answer = await rpc('mo-sse');
    expect(answer).toMatchObject({ status: 200, type: 'text/event-stream' });
    const data = /^data: (.*)$/m.exec(answer.text)?.[1] ?? '';
    expect(JSON.parse(data)).toMatchObject({
      jsonrpc: '2.0',
      id: 'c-1',
      error: { code: -32050, data: { code: 'CHAOS_UNAVAILABLE', status: 503 } },
    });
    // A notification has no id to answer: the HTTP status it stands for, as Streamable HTTP says.
    expect((await rpc('mo-sse', { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(503);
    // A reset stays at the connection.
    await save('mo-sse/chaos', { rate: 1, faults: ['reset'] });
    await expect(rpc('mo-sse')).rejects.toThrow();
  });

  it('writes a route’s rate limit as -32051 with Retry-After kept, in the limit’s own style', async () => {
    await fake('mo-rate', { rateLimit: { limit: 1, per: '1h', style: 'github' } });
    expect(JSON.parse((await rpc('mo-rate')).text)).toMatchObject({ id: 'c-1', result: {} });
    const refused = await rpc('mo-rate');
    expect(refused.status).toBe(200);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(JSON.parse(refused.text)).toMatchObject({
      id: 'c-1',
      error: {
        code: -32051,
        message: expect.stringContaining('rate limit'),
        data: { code: 'RATE_LIMITED', status: 429 },
      },
    });
  });

  it('writes an enforced signature’s refusal as -32052, and a signed call goes through', async () => {
    await fake('mo-sig');
    await save('mo-sig/signature', { scheme: 'github', secret: 's3cret', enforce: true });
    expect(JSON.parse((await rpc('mo-sig')).text)).toMatchObject({
      id: 'c-1',
      error: { code: -32052, data: { code: 'SIGNATURE_INVALID', status: 401 } },
    });
    const signature = `sha256=${createHmac('sha256', 's3cret').update(JSON.stringify(CALL)).digest('hex')}`;
    const signed = await rpc('mo-sig', CALL, { 'x-hub-signature-256': signature });
    expect(JSON.parse(signed.text)).toMatchObject({ id: 'c-1', result: {} });
  });

  it('writes a queued status without a body as -32059 with the status; a queued body is sent as given', async () => {
    await fake('mo-queue');
    await save('mo-queue/queue', { answers: [{ statusCode: 404 }, { statusCode: 503, data: { down: true } }] }, 'POST');
    expect(JSON.parse((await rpc('mo-queue')).text)).toMatchObject({
      id: 'c-1',
      error: { code: -32059, data: { status: 404 } },
    });
    expect(await rpc('mo-queue')).toMatchObject({ status: 503, text: '{"down":true}' });
    expect(JSON.parse((await rpc('mo-queue')).text)).toMatchObject({ id: 'c-1', result: {} });
  });
});

describe('hostile bytes', () => {
  const SEED = 63;
  const CASES = 100;
  it(`answers ${CASES} random ids, methods and bodies (seed ${SEED}) under chaos in a well-formed form, stays healthy`, async () => {
    await fake('mo-fuzz');
    await save('mo-fuzz/chaos', { rate: 1, faults: ['503'] });
    const random = prng(SEED);
    const { url } = await daemon();
    for (let i = 0; i < CASES; i++) {
      const noise = randomText(random, 1 + Math.floor(random() * 40));
      // The id travels as JSON text with every non-ASCII unit escaped (lone surrogates too).
      const body = `{"jsonrpc":"2.0","id":${jsonString(noise)},"method":${jsonString(noise)}}`;
      const answer = await fetch(`${url}/endpoint/mo-fuzz/mcp`, { method: 'POST', headers: HEADERS, body });
      const text = await answer.text();
      expect(answer.status, text).toBe(200);
      const parsed = JSON.parse(text) as { id: unknown; error: { code: number; data: unknown } };
      expect(parsed.id).toBe(noise);
      expect(parsed.error).toMatchObject({ code: -32050, data: { code: 'CHAOS_UNAVAILABLE', status: 503 } });
      // The same noise as the whole body is no JSON-RPC request: the HTTP form.
      const raw = await fetch(`${url}/endpoint/mo-fuzz/mcp`, { method: 'POST', headers: HEADERS, body: noise });
      expect(raw.status).toBe(503);
      await raw.arrayBuffer();
    }
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  });
});
