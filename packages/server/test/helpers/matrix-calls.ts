/**
 * One call of each protocol the composition matrix (compose-matrix.test.ts)
 * makes, read into one protocol-neutral {@link Outcome}: HTTP statuses, the
 * Connect protocol's JSON error codes, gRPC-Web's trailers frame, native
 * gRPC's `grpc-status` (over `node:http2`, h2c), a WebSocket handshake, an MCP
 * call's JSON-RPC error code (engine/mcp-edge.ts); a
 * connection or stream reset is `reset`, a call still unanswered when the
 * client gives up `timeout`.
 *
 * @module
 */
import { connect as connectH2, constants as h2 } from 'node:http2';
import WebSocket from 'ws';

/** What a call came to, whatever its protocol. */
export type Outcome =
  | 'ok'
  | 'unavailable'
  | 'internal'
  | 'exhausted'
  | 'unauthenticated'
  | 'reset'
  | 'timeout'
  | `status ${number}`
  | `grpc ${number}`
  | `rpc ${number}`;

/** A call's outcome, how long it took, and how many answer bytes arrived. */
export interface Result {
  outcome: Outcome;
  ms: number;
  bytes: number;
  /** What the answer said, for a failing assertion's message. */
  said: string;
  /** An HTTP call's answer: its content type, whole body text and bytes. */
  http?: { status: number; type: string; text: string; body: Uint8Array };
}

/** How to make one call. */
export interface CallOptions {
  /** Extra request headers (a signature, the namespace's `mockpoint-session`). */
  headers?: Record<string, string>;
  /** The client gives up after this long. @default 10000 */
  timeoutMs?: number;
}

const OF_STATUS: Readonly<Record<number, Outcome>> = {
  401: 'unauthenticated',
  429: 'exhausted',
  500: 'internal',
  503: 'unavailable',
};

/** The gRPC codes the pipeline's outcomes are written as (engine/grpc-edge.ts). */
const OF_GRPC: Readonly<Record<number, Outcome>> = {
  0: 'ok',
  8: 'exhausted',
  13: 'internal',
  14: 'unavailable',
  16: 'unauthenticated',
};

const OF_CONNECT: Readonly<Record<string, Outcome>> = {
  resource_exhausted: 'exhausted',
  internal: 'internal',
  unavailable: 'unavailable',
  unauthenticated: 'unauthenticated',
};

/** The JSON-RPC error codes an MCP call's refusals are written as (engine/mcp-edge.ts). */
const OF_RPC: Readonly<Record<number, Outcome>> = {
  [-32050]: 'unavailable',
  [-32051]: 'exhausted',
  [-32052]: 'unauthenticated',
  [-32603]: 'internal',
};

function ofStatus(status: number): Outcome {
  if (status >= 200 && status < 300) return 'ok';
  return OF_STATUS[status] ?? `status ${status}`;
}

function ofGrpc(code: number): Outcome {
  return OF_GRPC[code] ?? `grpc ${code}`;
}

/** A thrown fetch: the client's own timeout, or the connection broken under it. */
function ofThrown(error: unknown): Outcome {
  return (error as Error).name === 'TimeoutError' ? 'timeout' : 'reset';
}

/** An HTTP request read to its end: its status as an outcome (a Connect error by its JSON `code`). */
export async function httpCall(url: string, init: RequestInit, options: CallOptions = {}): Promise<Result> {
  const started = performance.now();
  const headers = { ...(init.headers as Record<string, string>), ...options.headers };
  try {
    const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    const body = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(body);
    const said = text.slice(0, 300);
    let outcome = ofStatus(response.status);
    if (response.headers.get('content-type')?.startsWith('application/json') === true && response.status >= 400) {
      const code = (JSON.parse(said.length === body.length ? said : '{}') as { code?: string }).code;
      if (code !== undefined && OF_CONNECT[code] !== undefined) outcome = OF_CONNECT[code] as Outcome;
    }
    const http = { status: response.status, type: response.headers.get('content-type') ?? '', text, body };
    return { outcome, ms: performance.now() - started, bytes: body.length, said: `${response.status} ${said}`, http };
  } catch (error) {
    return { outcome: ofThrown(error), ms: performance.now() - started, bytes: 0, said: String(error) };
  }
}

/** The JSON-RPC message of an MCP answer: its JSON body, or the `data:` of its one SSE event. */
function rpcMessage(text: string, type: string): { result?: unknown; error?: { code?: unknown } } | undefined {
  const json = type.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  try {
    return json === undefined ? undefined : (JSON.parse(json) as { result?: unknown; error?: { code?: unknown } });
  } catch {
    return undefined;
  }
}

/**
 * An MCP call (a JSON-RPC request over Streamable HTTP): `ok` for a result, a
 * JSON-RPC error by its code. An HTTP error status is not MCP's form for a
 * refused call (docs/design.md#every-feature-composes): it reads as `status N`, whatever the status.
 */
export async function mcpCall(url: string, init: RequestInit, options: CallOptions = {}): Promise<Result> {
  const result = await httpCall(url, init, options);
  const { http } = result;
  if (http === undefined) return result;
  if (http.status !== 200) return { ...result, outcome: `status ${http.status}` };
  const message = rpcMessage(http.text, http.type);
  const code = message?.error?.code;
  if (typeof code === 'number') return { ...result, outcome: OF_RPC[code] ?? `rpc ${code}` };
  return { ...result, outcome: message?.result === undefined ? 'status 200' : 'ok' };
}

/** `bytes` as one gRPC / gRPC-Web message frame: flag 0, the length, the bytes. */
export function framed(bytes: Uint8Array, flag = 0): Uint8Array {
  const out = new Uint8Array(5 + bytes.length);
  out[0] = flag;
  new DataView(out.buffer).setUint32(1, bytes.length);
  out.set(bytes, 5);
  return out;
}

/**
 * A Connect server-streaming call (`application/connect+json`, the enveloped request `body`): `ok`
 * when its end-stream message (flag 0x02) carries no error, else the error's code; an HTTP error
 * status by the status.
 */
export async function connectStreamCall(url: string, body: Uint8Array, options: CallOptions = {}): Promise<Result> {
  const headers = { 'content-type': 'application/connect+json', 'connect-protocol-version': '1' };
  const result = await httpCall(url, { method: 'POST', headers, body: Buffer.from(body) }, options);
  const { http } = result;
  if (http === undefined || http.status !== 200) return result;
  const bytes = http.body;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getUint32(0);
    if ((bytes[at] ?? 0) & 0x02) {
      const end = JSON.parse(new TextDecoder().decode(bytes.subarray(at + 5, at + 5 + length))) as {
        error?: { code?: string };
      };
      const code = end.error?.code;
      if (code === undefined) return { ...result, outcome: 'ok' };
      return { ...result, outcome: OF_CONNECT[code] ?? (`status ${0}` as Outcome), said: `${result.said} ${code}` };
    }
    at += 5 + length;
  }
  // No end-stream message: the stream was cut.
  return { ...result, outcome: 'reset' };
}

/** The `grpc-status` of a gRPC-Web answer: in its headers (trailers-only) or its trailers frame (flag 0x80). */
function grpcWebStatus(headers: Headers, body: Uint8Array): number | undefined {
  const inHeaders = headers.get('grpc-status');
  if (inHeaders !== null) return Number(inHeaders);
  let at = 0;
  while (at + 5 <= body.length) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0);
    if ((body[at] ?? 0) & 0x80) {
      const text = new TextDecoder().decode(body.subarray(at + 5, at + 5 + length));
      const status = /grpc-status:\s*(\d+)/i.exec(text)?.[1];
      return status === undefined ? undefined : Number(status);
    }
    at += 5 + length;
  }
  return undefined;
}

/** A unary gRPC-Web call (binary) of `path` with the message `bytes`. */
export async function grpcWebCall(base: string, path: string, bytes: Uint8Array, options: CallOptions = {}) {
  const started = performance.now();
  const headers = { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1', ...options.headers };
  try {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers,
      body: Buffer.from(framed(bytes)),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const body = new Uint8Array(await response.arrayBuffer());
    const status = response.status === 200 ? grpcWebStatus(response.headers, body) : undefined;
    const outcome: Outcome = status === undefined ? ofStatus(response.status) : ofGrpc(status);
    const said = `${response.status} grpc-status ${status}`;
    return { outcome, ms: performance.now() - started, bytes: body.length, said } satisfies Result;
  } catch (error) {
    return {
      outcome: ofThrown(error),
      ms: performance.now() - started,
      bytes: 0,
      said: String(error),
    } satisfies Result;
  }
}

/** A unary native gRPC call over h2c (`node:http2`): a reset is the stream reset (RST_STREAM) or the connection's. */
export function grpcNativeCall(base: string, path: string, bytes: Uint8Array, options: CallOptions = {}) {
  const started = performance.now();
  const session = connectH2(base);
  session.on('error', () => {});
  return new Promise<Result>((resolve) => {
    let status: string | undefined;
    let httpStatus = 0;
    let received = 0;
    const done = (outcome: Outcome, said: string) => {
      clearTimeout(timer);
      session.destroy();
      resolve({ outcome, ms: performance.now() - started, bytes: received, said });
    };
    const timer = setTimeout(() => done('timeout', 'no answer'), options.timeoutMs ?? 10_000);
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...options.headers,
    });
    stream.on('response', (headers) => {
      httpStatus = Number(headers[':status']);
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
    });
    stream.on('trailers', (trailers) => {
      if (trailers['grpc-status'] !== undefined) status = String(trailers['grpc-status']);
    });
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    stream.on('error', () => {});
    stream.on('close', () => {
      if (status !== undefined) done(ofGrpc(Number(status)), `grpc-status ${status}`);
      else if (httpStatus !== 0 && httpStatus !== 200) done(ofStatus(httpStatus), `HTTP ${httpStatus}, no grpc-status`);
      else done('reset', `closed, RST_STREAM ${stream.rstCode ?? h2.NGHTTP2_NO_ERROR}`);
    });
    stream.end(framed(bytes));
  });
}

/** A WebSocket handshake, then its first message: `ok` once it arrives; a refused handshake by its status. */
export function webSocketCall(url: string, options: CallOptions = {}): Promise<Result> {
  const started = performance.now();
  const socket = new WebSocket(url, { headers: options.headers });
  return new Promise<Result>((resolve) => {
    let settled = false;
    const done = (outcome: Outcome, bytes: number, said: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.terminate();
      resolve({ outcome, ms: performance.now() - started, bytes, said });
    };
    const timer = setTimeout(() => done('timeout', 0, 'no first message'), options.timeoutMs ?? 10_000);
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => done(ofStatus(response.statusCode ?? 0), 0, `${response.statusCode} ${body}`));
      response.on('error', () => done('reset', 0, 'handshake answer cut'));
    });
    socket.on('message', (data: Buffer) => done('ok', data.length, data.toString('utf8').slice(0, 100)));
    socket.on('error', (error) => done('reset', 0, String(error)));
  });
}
