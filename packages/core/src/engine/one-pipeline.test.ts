// One pipeline for every protocol (docs/design.md#one-path): a throw-away cross-cutting step, added once to the
// app's steps, acts on an HTTP request, a Connect call, a gRPC-Web call, a native gRPC call (h2c)
// and an MCP call; its refusal is said in each protocol's own form, and each call journaled once.
import { connect } from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedApp, serve } from '../adapter/node/index.js';
import { errorAnswer, type FaultAnswer } from '../answer/endpoint-answer.js';
import { headersAdded } from '../answer/match-answer.js';
import { createApp } from '../index.js';
import { BY_NONE } from '../journal/journal-entry.js';
import { PIPELINE } from './endpoint-handler.js';
import { FIRST_BYTES, type Step } from './pipeline/step.js';

const PROTO = `syntax = "proto3";
package echo.v1;
service Echo { rpc Say(SayRequest) returns (SayRequest); }
message SayRequest { string text = 1; }
`;
const MCP_ROUTES = {
  routes: [{ id: 'fake', match: { path: '/mcp' }, answer: { mcp: { tools: [{ name: 'ping', result: 'pong' }] } } }],
};
const REFUSAL = 'refused by the probe step';

let served: ServedApp | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The step: notes each exchange it sees; refuses (503) those that carry `x-probe: refuse`. */
function probe(seen: string[]): Step {
  return {
    name: 'probe',
    reads: FIRST_BYTES,
    run(exchange) {
      seen.push(`${exchange.name} ${exchange.subpath}`);
      if (exchange.view.headers['x-probe'] !== 'refuse') return undefined;
      return { answer: errorAnswer(503, 'CHAOS_UNAVAILABLE', REFUSAL, { cors: true }), mark: BY_NONE };
    },
  };
}

/**
 * A step that holds what carries `x-probe: hang` (a hang, as chaos `timeout` and a queued hang are),
 * released on the event loop's next turn (no pause to wait out: a sink that finds it released
 * already answers at once), then answered with what answers then: its 503 refusal.
 */
function holding(): Step {
  return {
    name: 'holding probe',
    reads: FIRST_BYTES,
    run(exchange) {
      if (exchange.view.headers['x-probe'] !== 'hang') return undefined;
      const release = new AbortController();
      setImmediate(() => release.abort());
      const answer: FaultAnswer = {
        kind: 'fault',
        fault: 'hang',
        status: 0,
        headers: {},
        body: null,
        delay: 0,
        release: release.signal,
        next: () => errorAnswer(503, 'CHAOS_UNAVAILABLE', REFUSAL, { cors: true }),
      };
      return { answer, mark: BY_NONE };
    },
  };
}

/** A step that notes the bytes of each call's body it is given, reading bodies whole when `whole`. */
function bodyReader(seen: number[], whole: boolean): Step {
  return {
    name: 'body reader',
    reads: () => (whole ? 'whole-body' : 'first-bytes'),
    run(exchange) {
      if (exchange.call !== undefined) seen.push(exchange.request.body.length);
      return undefined;
    },
  };
}

/** The probe with after-work: adds `x-probe-after` to whatever answer comes back out through it. */
function wrapping(seen: string[]): Step {
  return {
    ...probe(seen),
    after: (verdict) => ({ ...verdict, answer: headersAdded(verdict.answer, { 'x-probe-after': 'seen' }) }),
  };
}

async function start(seen: string[], step = probe(seen)): Promise<string> {
  // Added once, first, as a cross-cutting step sits, and plain: each protocol's edge says its refusal.
  served = await serve(createApp({ steps: [step, ...PIPELINE] }), { overrideGlobalObjects: false });
  const { url } = served;
  const puts: [string, unknown][] = [
    ['plain', { data: { ok: true } }],
    ['echo/grpc', { protos: { 'echo.proto': PROTO } }],
    ['fake/routes', MCP_ROUTES],
  ];
  for (const [path, body] of puts) {
    const put = await fetch(`${url}/api/endpoints/${path}`, { method: 'PUT', body: JSON.stringify(body) });
    expect(put.status, await put.text()).toBeLessThan(300);
  }
  return url;
}

/** A message of `text` in gRPC's envelope, as bytes (`json`: gRPC-Web's JSON codec). */
function envelope(text: string, json: boolean): Buffer {
  const message = json
    ? Buffer.from(JSON.stringify({ text }))
    : Buffer.concat([Buffer.from([0x0a, text.length]), Buffer.from(text)]);
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

/** What each protocol's answer came to: `ok`, or the refusal as its protocol says it. */
async function http(url: string, headers: Record<string, string>): Promise<string> {
  const answer = await fetch(`${url}/endpoint/plain`, { headers });
  const body = (await answer.json()) as { error?: { message: string } };
  return answer.status === 200 ? 'ok' : `${answer.status} ${body.error?.message}`;
}

async function connectCall(url: string, headers: Record<string, string>): Promise<string> {
  const answer = await fetch(`${url}/echo.v1.Echo/Say`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text: 'hi' }),
  });
  const body = (await answer.json()) as { code?: string; message?: string };
  return answer.status === 200 ? 'ok' : `${body.code} ${body.message}`;
}

async function grpcWeb(url: string, headers: Record<string, string>): Promise<string> {
  const answer = await fetch(`${url}/echo.v1.Echo/Say`, {
    method: 'POST',
    headers: { 'content-type': 'application/grpc-web+json', ...headers },
    body: envelope('hi', true),
  });
  // The status: in the headers (Trailers-Only), else in the trailers frame that ends the body.
  const text = Buffer.from(await answer.arrayBuffer()).toString('latin1');
  const status = answer.headers.get('grpc-status') ?? /grpc-status:\s*(\d+)/.exec(text)?.[1];
  const message = answer.headers.get('grpc-message') ?? /grpc-message:\s*([^\r\n]*)/.exec(text)?.[1] ?? '';
  return status === '0' ? 'ok' : `grpc ${status} ${decodeURIComponent(message)}`;
}

function nativeGrpc(url: string, headers: Record<string, string>): Promise<string> {
  const session = connect(url);
  return new Promise<string>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/echo.v1.Echo/Say',
      'content-type': 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    let status: string | undefined;
    let message = '';
    const read = (got: Record<string, unknown>) => {
      if (got['grpc-status'] !== undefined) status = String(got['grpc-status']);
      if (got['grpc-message'] !== undefined) message = decodeURIComponent(String(got['grpc-message']));
    };
    stream.on('response', read);
    stream.on('trailers', read);
    stream.resume();
    stream.on('end', () => resolve(status === '0' ? 'ok' : `grpc ${status} ${message}`));
    stream.on('error', reject);
    stream.end(envelope('hi', false));
  }).finally(() => session.close());
}

async function mcp(url: string, headers: Record<string, string>): Promise<string> {
  const answer = await fetch(`${url}/endpoint/fake/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
  });
  const body = (await answer.json()) as { error?: { code: number; message: string } };
  return body.error === undefined ? 'ok' : `rpc ${body.error.code} ${body.error.message}`;
}

const PROTOCOLS = { http, connect: connectCall, grpcWeb, nativeGrpc, mcp };

async function everyProtocol(url: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, call] of Object.entries(PROTOCOLS)) out[name] = await call(url, headers);
  return out;
}

describe('a step added once acts on every protocol', () => {
  it('sees an HTTP request, a Connect, a gRPC-Web and a native gRPC call and an MCP call, which answer as before', async () => {
    const seen: string[] = [];
    const url = await start(seen);
    expect(await everyProtocol(url, {})).toEqual({
      http: 'ok',
      connect: 'ok',
      grpcWeb: 'ok',
      nativeGrpc: 'ok',
      mcp: 'ok',
    });
    const call = 'echo /echo.v1.Echo/Say';
    expect(seen).toEqual(['plain /', call, call, call, 'fake /mcp']);
  });

  it("its refusal is said in each protocol's form, and each call is journaled once", async () => {
    const url = await start([]);
    expect(await everyProtocol(url, { 'x-probe': 'refuse' })).toEqual({
      http: `503 ${REFUSAL}`,
      connect: `unavailable ${REFUSAL}`,
      grpcWeb: `grpc 14 ${REFUSAL}`,
      nativeGrpc: `grpc 14 ${REFUSAL}`,
      mcp: `rpc -32050 ${REFUSAL}`,
    });
    const journal = (await (await fetch(`${url}/api/endpoints/echo/requests`)).json()) as {
      requests: { answeredBy: unknown; grpc: { code: string } }[];
    };
    expect(journal.requests.map(({ answeredBy, grpc }) => [answeredBy, grpc.code])).toEqual([
      ['none', 'unavailable'],
      ['none', 'unavailable'],
      ['none', 'unavailable'],
    ]);
  });

  it('its after-work acts on every answer on the way out: a header it adds reaches each protocol', async () => {
    const url = await start([], wrapping([]));
    const post = (type: string, body: string | Buffer) =>
      fetch(`${url}/echo.v1.Echo/Say`, { method: 'POST', headers: { 'content-type': type }, body });
    const answers = [
      await fetch(`${url}/endpoint/plain`),
      await post('application/json', JSON.stringify({ text: 'hi' })),
      await post('application/grpc-web+json', envelope('hi', true)),
    ];
    const seen = answers.map((answer) => answer.headers.get('x-probe-after'));
    const session = connect(url);
    const native = await new Promise<unknown>((resolve, reject) => {
      session.on('error', reject);
      const stream = session.request({
        ':method': 'POST',
        ':path': '/echo.v1.Echo/Say',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      stream.on('response', (headers) => resolve(headers['x-probe-after']));
      stream.on('error', reject);
      stream.resume();
      stream.end(envelope('hi', false));
    }).finally(() => session.close());
    expect([...seen, native]).toEqual(['seen', 'seen', 'seen', 'seen']);
  });

  it('a hang it gives is held, then sent what answers at its release, by the one sink of every protocol', async () => {
    const url = await start([], holding());
    const { mcp: _mcp, ...calls } = PROTOCOLS;
    const out: Record<string, string> = {};
    for (const [name, call] of Object.entries(calls)) out[name] = await call(url, { 'x-probe': 'hang' });
    expect(out).toEqual({
      http: `503 ${REFUSAL}`,
      connect: `unavailable ${REFUSAL}`,
      grpcWeb: `grpc 14 ${REFUSAL}`,
      nativeGrpc: `grpc 14 ${REFUSAL}`,
    });
  });

  it("its reads decide what a native call's adapter keeps: the framed messages as sent, or none", async () => {
    const framed = envelope('hi', false).length;
    const whole: number[] = [];
    await start([], bodyReader(whole, true));
    expect(await nativeGrpc((served as ServedApp).url, {})).toBe('ok');
    await served?.close();
    const first: number[] = [];
    await start([], bodyReader(first, false));
    expect(await nativeGrpc((served as ServedApp).url, {})).toBe('ok');
    expect({ whole, first }).toEqual({ whole: [framed], first: [0] });
  });

  it('a native call is read whole for a signature check, not for queued answers or routes matching the body', async () => {
    const framed = envelope('hi', false).length;
    const seen: number[] = [];
    const url = await start([], bodyReader(seen, false));
    const send = async (method: string, path: string, body: unknown) => {
      const put = await fetch(`${url}/api/endpoints/echo/${path}`, { method, body: JSON.stringify(body) });
      expect(put.status, await put.text()).toBeLessThan(300);
    };
    // Queued answers pending (an HTTP request's, matching the body, and the call's): the call takes its own.
    const answers = [
      { match: { body: { kind: 'big' } }, body: 'for HTTP' },
      { match: { grpc: { method: 'Say' }, body: { text: 'hi' } }, grpc: { message: { text: 'queued' } } },
    ];
    await send('POST', 'queue', { answers });
    expect(await nativeGrpc(url, {})).toBe('ok');
    // Routes matching the body, an HTTP request's and the call's (on its decoded message).
    const routes = [
      { id: 'http', match: { body: { kind: 'big' } }, answer: { data: {} } },
      { id: 'call', match: { body: { text: 'hi' } }, answer: { grpc: { message: { text: 'routed' } } } },
    ];
    await send('PUT', 'routes', { routes });
    expect(await nativeGrpc(url, {})).toBe('ok');
    // A signature is over the bytes as sent: the call's framed messages are read whole first.
    await send('PUT', 'signature', { scheme: 'standard', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expect(await nativeGrpc(url, {})).toBe('ok');
    const journal = (await (await fetch(`${url}/api/endpoints/echo/requests`)).json()) as {
      requests: { answeredBy: unknown }[];
    };
    expect(journal.requests.map(({ answeredBy }) => answeredBy)).toEqual([
      { queue: true },
      { route: 'call' },
      { route: 'call' },
    ]);
    expect(seen).toEqual([0, 0, framed]);
  });
});
