/**
 * Native gRPC (`application/grpc`) over HTTP/2 on the Node listener: the one
 * protocol of the family that needs HTTP/2 trailers, which the Fetch path
 * cannot send. The call is found and opened for the journal as on the Fetch
 * path (engine/grpc-calls.ts). A binary, uncompressed call is answered on its HTTP/2
 * stream without Connect's handler (grpc-direct.ts); any other call streams
 * into Connect's handler as it arrives, and the answer and its trailers are
 * written as they are produced (grpc-answer-writer.ts).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';
import { GRPC_CODE_NAMES } from '../../api/grpc-json.js';
import { concatBytes } from '../../codec/concat-bytes.js';
import { type FoundGrpcCall, findGrpcCall, openCall, unknownCallMessage } from '../../engine/grpc-calls.js';
import { unimplementedCall } from '../../engine/grpc-edge.js';
import type { GrpcCall } from '../../grpc/grpc-server.js';
import type { MockpointApp } from '../../http/create-app.js';
import { writeGrpcAnswer } from './grpc-answer-writer.js';
import { type BodyCopy, keepCopy } from './grpc-body-copy.js';
import { stopSending } from './grpc-stop-sending.js';
import { openGrpcStream, tooManyStreams } from './grpc-stream-count.js';

/** Whether `req` is a native gRPC call over HTTP/2 (not gRPC-Web, which the Fetch path answers). */
export function isNativeGrpc(req: IncomingMessage): boolean {
  if (req.httpVersionMajor !== 2 || req.method !== 'POST') return false;
  const type = req.headers['content-type'] ?? '';
  return type.startsWith('application/grpc') && !type.startsWith('application/grpc-web');
}

/** Whether `req` (a native gRPC call) can be answered directly: binary (`application/grpc`, `+proto`), uncompressed. */
function directable(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type !== 'application/grpc' && type !== 'application/grpc+proto') return false;
  const encoding = req.headers['grpc-encoding'];
  return encoding === undefined || encoding === 'identity';
}

/** grpc-direct.ts, once imported: on the first call answered directly, when the protobuf libraries are loaded. */
let directModule: typeof import('./grpc-direct.js') | undefined;

/**
 * The request body as it arrives, each chunk passed on at once (a streaming
 * call reads its messages as the client sends them); the journal's copy kept in `copy`.
 */
async function* streamedBody(req: IncomingMessage, copy: BodyCopy): AsyncGenerator<Uint8Array> {
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    keepCopy(copy, chunk);
    yield chunk;
  }
}

/** The whole request body (its journal copy kept in `copy`), or `null` past `max` bytes. */
async function wholeBody(req: IncomingMessage, copy: BodyCopy, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return null;
    keepCopy(copy, chunk);
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/** `body` as a request body read already. */
async function* once(body: Uint8Array): AsyncGenerator<Uint8Array> {
  yield body;
}

/** `req`'s headers as raw pairs without the pseudo-headers (for the journal). */
function rawHeadersOf(req: IncomingMessage): string[] {
  const rawHeaders: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (name.startsWith(':')) continue;
    rawHeaders.push(name, req.rawHeaders[i + 1] as string);
  }
  return rawHeaders;
}

/**
 * Answers `req` when it calls a method some name's definitions declare (`only`
 * that name, when given); resolves `false`, having read nothing, when none does.
 * A binary, uncompressed call is answered on its HTTP/2 stream directly
 * (grpc-direct.ts); any other through Connect's handler ({@link answerByConnect}).
 * Either way the request is read as it arrives and the call journaled when answered.
 */
export async function answerNativeGrpc(
  app: MockpointApp,
  req: IncomingMessage,
  res: ServerResponse,
  only?: string,
): Promise<boolean> {
  const { endpoints, handler, options } = app.mockpoint;
  const target = req.url ?? '/';
  const path = target.split('?')[0] as string;
  const found = await findGrpcCall(endpoints, path, options);
  if (found === undefined && only === undefined) return unimplemented(req, res, endpoints, path);
  if (found === undefined || (only !== undefined && found.name !== only)) return false;
  const startedAt = performance.now();
  const rawHeaders = rawHeadersOf(req);
  const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
  // The journal step waits for the call's end (refused or answered) to write its entry.
  const end = openCall(handler.parts, found, { target, rawHeaders, startedAt }, call);
  const release = openGrpcStream(req, options.maxGrpcStreams);
  if (release === undefined) {
    const answer = refused(call, tooManyStreams(options.maxGrpcStreams));
    sendTrailersOnly(req, res, answer.header as Headers);
    end.over(answer.status);
    return true;
  }
  res.once('close', release);
  const copy: BodyCopy = { chunks: [], kept: 0, seen: 0 };
  // A unary or server-streaming call a step reads whole (a signature check: over the bytes as sent) has its
  // framed messages read whole first, as the steps' `reads` say for an HTTP request.
  const whole =
    found.daemon !== true && !found.server.takesStream(path) && (await handler.callReadsWholeBody(found.name));
  const body = whole ? await wholeBody(req, copy, options.maxBodyBytes) : undefined;
  if (body === null) {
    const answer = refused(call, `the request is over the body limit (${options.maxBodyBytes} bytes)`);
    sendTrailersOnly(req, res, answer.header as Headers);
    release();
    end.over(answer.status);
    return true;
  }
  if (body !== undefined) call.body = body;
  const direct = body === undefined && directable(req) ? found.server.direct(path) : undefined;
  let status = 200;
  if (direct !== undefined) {
    directModule ??= await import('./grpc-direct.js');
    await directModule.answerDirect(direct, req, res, rawHeaders, call, copy);
  } else {
    const messages = body === undefined ? streamedBody(req, copy) : once(body);
    status = await answerByConnect(found, path, req, res, rawHeaders, call, messages);
  }
  release();
  end.over(status, concatBytes(copy.chunks));
  return true;
}

/**
 * Answers `req` through Connect's universal handler: the body (`body`) streamed to it as it arrives,
 * the answer written as the handler produces it (grpc-answer-writer.ts). Resolves with the
 * HTTP status once the call is over (its trailers sent, or the stream closed).
 */
async function answerByConnect(
  found: FoundGrpcCall,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  rawHeaders: string[],
  call: GrpcCall,
  body: AsyncIterable<Uint8Array>,
): Promise<number> {
  const header = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    header.append(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  const abort = new AbortController();
  // The client went away (RST_STREAM, or the connection lost) before the call was over: the stream
  // closes with an error code. A call answered to its end closes with 0 (NO_ERROR), and is not
  // aborted (an abort costs a DOMException in Connect's handler). `writableFinished` cannot tell:
  // Node's compat response is finished by a reset too.
  const stream = (res as unknown as Http2ServerResponse).stream;
  res.once('close', () => {
    if (stream?.rstCode !== 0) abort.abort();
  });
  // The call is over when the response is finished (trailers sent) or closed; listened for before
  // any wait, so that a stream closed meanwhile still ends it.
  const done = new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
  const answer = await found.server.handle(
    {
      httpVersion: '2.0',
      method: 'POST',
      url: `http://${req.headers[':authority'] ?? req.headers.host ?? 'localhost'}${path}`,
      header,
      body,
      signal: abort.signal,
    },
    call,
  );
  await writeGrpcAnswer(answer, res).catch(() => res.destroy());
  // The answer is written: a client still sending is told to stop once its trailers are out.
  stopSending(req, true);
  await done;
  const status = answer.trailer?.get('grpc-status') ?? answer.header?.get('grpc-status');
  if (call.code === 'ok' && status !== null && status !== undefined && status !== '0') {
    call.code = GRPC_CODE_NAMES[Number(status)] ?? status;
    call.statusMessage = decodeURIComponent(
      answer.trailer?.get('grpc-message') ?? answer.header?.get('grpc-message') ?? '',
    );
  }
  return answer.status;
}

/**
 * Sends a Trailers-Only answer as one HEADERS frame that ends the stream, before the
 * request is read: the client sees the status first, then the stream reset (NO_ERROR)
 * that tells it to stop sending (RFC 9113 §8.1).
 */
function sendTrailersOnly(req: IncomingMessage, res: ServerResponse, header: Headers): void {
  const stream = (req as unknown as Http2ServerRequest).stream;
  if (stream === undefined || stream.destroyed || stream.headersSent) {
    res.destroy();
    return;
  }
  stream.respond({ ':status': 200, ...Object.fromEntries(header) }, { endStream: true });
  stopSending(req, false);
}

/**
 * A call of a method no definitions declare, at the root (no `--serve` endpoint
 * to hand it to): Trailers-Only `unimplemented`, saying what to put
 * (engine/grpc-edge.ts), as one HEADERS frame; not journaled, as it belongs to
 * no name. `false` for a path that is no call's (the app's 404 answers).
 */
async function unimplemented(
  req: IncomingMessage,
  res: ServerResponse,
  endpoints: MockpointApp['mockpoint']['endpoints'],
  path: string,
): Promise<boolean> {
  const message = await unknownCallMessage(endpoints, path);
  if (message === undefined) return false;
  const type = new Headers({ 'content-type': req.headers['content-type'] ?? 'application/grpc' });
  sendTrailersOnly(req, res, (unimplementedCall(type, message) as Response).headers);
  return true;
}

/** A call refused before it is read: Trailers-Only `resource_exhausted`, saying why. */
function refused(call: GrpcCall, message: string): UniversalServerResponse {
  call.code = 'resource_exhausted';
  call.statusMessage = message;
  return {
    status: 200,
    header: new Headers({
      'content-type': 'application/grpc',
      'grpc-status': '8',
      'grpc-message': encodeURIComponent(call.statusMessage),
    }),
  };
}
