/**
 * Calls to `/{package.Service}/{Method}` at the root of the host (where gRPC,
 * gRPC-Web and Connect clients send them) reach the endpoint whose protobuf
 * definitions declare the service, and are answered by its server (schema
 * mode) and journaled under that name. A path no definitions declare passes
 * on untouched; a daemon without definitions reads the store once to know it
 * has none, and never loads the protobuf libraries.
 *
 * @module
 */
import type { Hono } from 'hono';
import { urlTarget } from '../../api/endpoint-target.js';
import { readBodyBytes } from '../../codec/body.js';
import { resetResponse } from '../../engine/fetch-sink.js';
import { findGrpcCall, openCall } from '../../engine/grpc-calls.js';
import { callRouting } from '../../engine/grpc-edge.js';
import type { GrpcCall } from '../../grpc/grpc-server.js';
import type { AppContext } from '../context.js';

function rawHeadersOf(headers: Headers): string[] {
  const raw: string[] = [];
  for (const [name, value] of headers) raw.push(name, value);
  return raw;
}

/**
 * `response`, `done` called once its body has been sent, cut or cancelled: a
 * stream's messages and status are journaled when the stream ends.
 */
function afterBody(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    done();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          controller.close();
          once();
        } else controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * A streaming call's answer once its first chunk is there (its first message, or its end), or
 * `undefined` when the call was reset before it (a chaos `reset`, a route's or queued `reset` with no
 * message before it): then nothing is sent, as for a unary call. Without this wait the headers went
 * out first, and Node's Fetch layer answered a body that broke before its first byte with a 500 text.
 */
async function firstChunk(response: Response, call: GrpcCall): Promise<Response | undefined> {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  let first: Awaited<ReturnType<typeof reader.read>>;
  try {
    first = await reader.read();
  } catch (error) {
    if (call.reset === true) return undefined;
    throw error;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Lets the app's gRPC servers answer through the pipeline (engine/grpc-edge.ts), before anything is stored through the API. */
export function routeGrpcCalls(ctx: Pick<AppContext, 'endpoints' | 'handler'>): void {
  ctx.endpoints.routeGrpc((name) => callRouting(ctx.handler, name));
}

export function registerGrpcCalls(app: Hono, ctx: Pick<AppContext, 'endpoints' | 'handler' | 'options'>): void {
  const { endpoints, handler, options } = ctx;
  routeGrpcCalls(ctx);
  app.use('*', async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const found = await findGrpcCall(endpoints, c.req.path, options);
    if (found === undefined) return next();
    const startedAt = performance.now();
    const body = await readBodyBytes(c.req.raw, options.maxBodyBytes);
    const request = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body });
    const call: GrpcCall = { protocol: 'connect', code: 'ok', body };
    const end = openCall(
      handler.parts,
      found,
      { target: urlTarget(c.req.url), rawHeaders: rawHeadersOf(c.req.raw.headers), startedAt },
      call,
    );
    const response = await found.server.answer(request, call);
    const done = () => end.over(response.status, body);
    if (!found.server.streams(c.req.path)) {
      done();
      // A reset known before anything was sent (a unary call's chaos or route `reset`): the connection
      // (or HTTP/2 stream) is reset, nothing sent, as an HTTP request's reset.
      return call.reset === true ? resetResponse() : response;
    }
    const started = await firstChunk(response, call);
    if (started === undefined) {
      done();
      return resetResponse();
    }
    return afterBody(started, done);
  });
}
