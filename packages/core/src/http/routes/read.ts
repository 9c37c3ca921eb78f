/**
 * `/endpoint/{name}` for Fetch-API runtimes: a thin adapter that hands the
 * request to the {@link EndpointHandler} and turns its answer into a `Response`.
 * (On Node, `@mockpoint/core/node` answers these requests natively.)
 *
 * @module
 */
import type { Hono } from 'hono';
import { fetchHeaders, type RespondAnswer, type StreamAnswer } from '../../answer/endpoint-answer.js';
import { READ_METHODS } from '../../answer/endpoint-handler.js';
import { faultResponse } from '../../answer/queue/queued-answer.js';
import type { OpenStreams, StreamPlayback } from '../../answer/stream/open-streams.js';
import { captureRequest } from '../../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../../wire/limits.js';
import type { AppContext } from '../context.js';
import type { RouteDoc } from '../openapi.js';
import { describeErrors, errorResponses } from './responses.js';

/** Resolves after `ms`, or early (with `false`) when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves `true` when `release` aborts (a queued hang is cleared), `false` when the client goes away first. */
function hang(signal: AbortSignal, release: AbortSignal | undefined): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (release?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (released: boolean) => () => {
      signal.removeEventListener('abort', gone);
      release?.removeEventListener('abort', freed);
      resolve(released);
    };
    const gone = done(false);
    const freed = done(true);
    signal.addEventListener('abort', gone, { once: true });
    release?.addEventListener('abort', freed, { once: true });
  });
}

function toResponse(answer: RespondAnswer): Response {
  return new Response(answer.body as ConstructorParameters<typeof Response>[0], {
    status: answer.status,
    headers: fetchHeaders(answer.headers),
  });
}

/**
 * workerd's `FixedLengthStream` (an identity stream that must carry exactly
 * `length` bytes), where the runtime has it: `undefined` on Bun, Deno and Node.
 */
type FixedLengthStreamClass = new (length: number) => TransformStream<Uint8Array, Uint8Array>;
const FixedLength = (globalThis as { FixedLengthStream?: FixedLengthStreamClass }).FixedLengthStream;

/**
 * A streamed answer as a `ReadableStream`: each frame enqueued as it is due
 * (runtimes that stream bodies send each chunk at once). A client that leaves
 * cancels it (or aborts the request): the stream stops and frees its timer.
 *
 * `reset` errors the stream, which Bun and Deno turn into a broken connection
 * (Bun a TCP reset, Deno a close without the last chunk). An error drops the
 * frames still queued in the stream, so it waits until the runtime has taken
 * the last one (its next pull). workerd ends an errored chunked body normally,
 * so there the body is sent with a Content-Length one byte past its frames
 * (`FixedLengthStream`): the error then closes the connection short of it, and
 * the client sees a truncated body.
 */
function streamResponse(answer: StreamAnswer, streams: OpenStreams, signal: AbortSignal): Response {
  let playback: StreamPlayback | undefined;
  let resetting = false;
  const onAbort = () => playback?.cancel();
  let failing = false;
  // One turn of the event loop later: Bun writes a frame it has taken out only then.
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (failing) return;
    failing = true;
    setTimeout(() => controller.error(new Error('mockpoint: the streamed answer ends with reset')), 0);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener('abort', onAbort, { once: true });
      playback = streams.play(answer, {
        write: (bytes) => controller.enqueue(bytes),
        end: () => {
          signal.removeEventListener('abort', onAbort);
          controller.close();
        },
        reset: () => {
          signal.removeEventListener('abort', onAbort);
          resetting = true;
          // Nothing queued: the runtime has taken every frame.
          if ((controller.desiredSize ?? 0) > 0) fail(controller);
        },
      });
    },
    pull(controller) {
      if (resetting) fail(controller);
    },
    cancel() {
      signal.removeEventListener('abort', onAbort);
      playback?.cancel();
    },
  });
  const headers = fetchHeaders(answer.headers);
  if (answer.end !== 'reset' || FixedLength === undefined || answer.frames.length === 0) {
    return new Response(body, { status: answer.status, headers });
  }
  const length = answer.frames.reduce((sum, frame) => sum + frame.bytes.byteLength, 0) + 1;
  const fixed = new FixedLength(length);
  body.pipeTo(fixed.writable).catch(() => undefined);
  return new Response(fixed.readable, { status: answer.status, headers });
}

export function registerReadRoutes(app: Hono, ctx: AppContext): void {
  const { handler, options, streams } = ctx;

  // Other methods and paths under /endpoint/ reach the app's 404/405 answers, which say the same.
  // The bare URL and every path below it reach the endpoint (its subpath).
  app.on([...READ_METHODS, 'OPTIONS'], ['/endpoint/:name', '/endpoint/:name/*'], async (c) => {
    const request = c.req.raw;
    // The rest of a long body is read and dropped up to the body limit, so the connection stays usable;
    // where the answer needs it (see readsWholeBody) it is kept (the journal keeps its first bytes).
    const name = c.req.param('name');
    const recorded = await captureRequest(request, JOURNAL_BODY_LIMIT, options.maxBodyBytes, () =>
      handler.readsWholeBody(name),
    );
    let wholeBody: Uint8Array | undefined;
    if (recorded.body.byteLength > JOURNAL_BODY_LIMIT) {
      if (!recorded.bodyTruncated) wholeBody = recorded.body;
      recorded.body = recorded.body.slice(0, JOURNAL_BODY_LIMIT);
      recorded.bodyTruncated = true;
    }
    let answer = await handler.handle(recorded, wholeBody, () => request.signal);
    for (;;) {
      // A timer, never a busy wait; cancelled when the client goes away.
      if (answer.delay > 0 && !(await sleep(answer.delay, request.signal))) {
        return new Response(null, { status: 499 });
      }
      if (answer.kind === 'respond') return toResponse(answer);
      if (answer.kind === 'stream') return streamResponse(answer, streams, request.signal);
      if (answer.kind === 'relay') {
        return new Response(answer.body, { status: answer.status, headers: fetchHeaders(answer.headers) });
      }
      // Queued faults: the Fetch API's best (see faultResponse); a released hang answers after all.
      if (answer.fault !== 'hang') return faultResponse(answer);
      if (!(await hang(request.signal, answer.release)) || answer.next === undefined) {
        return new Response(null, { status: 499 });
      }
      answer = await answer.next();
    }
  });

  const params = { name: 'Endpoint name.' };
  const below = { ...params, subpath: 'The rest of the path (may hold several segments): matched against the routes.' };
  for (const method of READ_METHODS) {
    const body = method === 'HEAD' ? undefined : ctx.schemas.record.shape.data;
    // A check with enforce refuses a badly signed request (HEAD: without the body).
    const refusedSignature =
      method === 'HEAD'
        ? { 401: { description: describeErrors(['SIGNATURE_INVALID']) } }
        : errorResponses(ctx.schemas, 'SIGNATURE_INVALID');
    ctx.docs.push({
      method: method.toLowerCase() as Lowercase<typeof method>,
      path: '/endpoint/{name}',
      summary: `Answer with a matching queued answer (see /api/endpoints/{name}/queue), else the first matching route (see /api/endpoints/{name}/routes), else the stored data, status and delay (${method}; the request is recorded).`,
      tag: 'read',
      params,
      // The status is the stored statusCode, any of 200-599; HEAD answers without a body.
      responses: {
        ...(Object.fromEntries(
          (['2XX', '3XX', '4XX', '5XX'] as const).map((range) => [
            range,
            {
              description: `The stored data, when the stored statusCode is ${range}${method === 'HEAD' ? ' (headers only)' : ''}.`,
              schema: body,
            },
          ]),
        ) as RouteDoc['responses']),
        ...refusedSignature,
        404: {
          description: `${describeErrors(['NOT_FOUND'])} Or the stored data of one whose statusCode is 404${method === 'HEAD' ? ' (headers only)' : ''}.`,
          schema: body,
        },
      },
    });
    ctx.docs.push({
      method: method.toLowerCase() as Lowercase<typeof method>,
      path: '/endpoint/{name}/{subpath}',
      summary: `Answer a path below the endpoint: a matching queued answer, else the first route whose match holds (its status, headers and body) (${method}; the request is recorded with its subpath, params and answeredBy).`,
      tag: 'read',
      params: below,
      responses: {
        ...(Object.fromEntries(
          (['2XX', '3XX', '4XX', '5XX'] as const).map((range) => [
            range,
            { description: `The route's answer, when its statusCode is ${range}.` },
          ]),
        ) as RouteDoc['responses']),
        ...refusedSignature,
        404: {
          description: `${describeErrors(['NOT_FOUND', 'NO_ROUTE_MATCHED'])} Or a route answering 404 with its own body.`,
          schema: ctx.schemas.errorBody,
          errors: ['NOT_FOUND', 'NO_ROUTE_MATCHED'],
        },
        // A proxy route: its upstream's answer, or one of these; a route that enforces its schemas: 400;
        // a route kept by an earlier version with a header HTTP cannot carry, or a template that
        // would render past the body limit: 500.
        ...errorResponses(
          ctx.schemas,
          'REQUEST_INVALID',
          'PROXY_PATH_OUTSIDE_BASE',
          'PROXY_HOST_NOT_ALLOWED',
          'UPSTREAM_FAILED',
          'UPSTREAM_TIMEOUT',
          'ANSWER_NOT_SENDABLE',
          'TEMPLATE_TOO_LARGE',
        ),
      },
    });
  }
  for (const path of ['/endpoint/{name}', '/endpoint/{name}/{subpath}']) {
    ctx.docs.push({
      method: 'options',
      path,
      summary: 'CORS preflight: every origin, method and header is allowed.',
      tag: 'read',
      params: path === '/endpoint/{name}' ? params : below,
      responses: { 204: { description: 'Preflight answer.' } },
    });
  }
}
