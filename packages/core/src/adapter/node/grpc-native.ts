/**
 * Native gRPC (`application/grpc`) over HTTP/2 on the Node listener: the one
 * protocol of the family that needs HTTP/2 trailers, which the Fetch path
 * cannot send. The call is found and journaled as on the Fetch path
 * (engine/grpc-calls.ts); Connect's Node adapter (`@connectrpc/connect-node`,
 * imported only here, on the first such call) writes the answer and its trailers.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';
import { findGrpcCall, journalGrpcCall } from '../../engine/grpc-calls.js';
import type { GrpcCall } from '../../grpc/grpc-server.js';
import type { MockpointApp } from '../../http/create-app.js';
import { concatBytes } from '../../wire/concat-bytes.js';
import { GRPC_CODE_NAMES } from '../../wire/grpc-json.js';

/** Whether `req` is a native gRPC call over HTTP/2 (not gRPC-Web, which the Fetch path answers). */
export function isNativeGrpc(req: IncomingMessage): boolean {
  if (req.httpVersionMajor !== 2 || req.method !== 'POST') return false;
  const type = req.headers['content-type'] ?? '';
  return type.startsWith('application/grpc') && !type.startsWith('application/grpc-web');
}

/** Reads the body, at most `maxBytes`; `undefined` past it (the rest is dropped). */
async function bodyOf(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  return size > maxBytes ? undefined : concatBytes(chunks);
}

/**
 * Answers `req` when it calls a method some name's definitions declare;
 * resolves `false`, having read nothing, when none does.
 */
export async function answerNativeGrpc(app: MockpointApp, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const { endpoints, journal, options } = app.mockpoint;
  const path = (req.url ?? '/').split('?')[0] as string;
  const found = await findGrpcCall(endpoints, path, options.maxBodyBytes);
  if (found === undefined) return false;
  const startedAt = performance.now();
  const [{ universalResponseToNodeResponse }, body] = await Promise.all([
    import('@connectrpc/connect-node'),
    bodyOf(req, options.maxBodyBytes),
  ]);
  const rawHeaders: string[] = [];
  const header = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (name.startsWith(':')) continue;
    rawHeaders.push(name, req.rawHeaders[i + 1] as string);
    header.append(name, req.rawHeaders[i + 1] as string);
  }
  const call: GrpcCall = { protocol: 'grpc', code: 'ok' };
  const bytes = body ?? new Uint8Array(0);
  const abort = new AbortController();
  res.once('close', () => abort.abort());
  const answer =
    body === undefined
      ? tooLarge(call, options.maxBodyBytes)
      : await found.server.handle(
          {
            httpVersion: '2.0',
            method: 'POST',
            url: `http://${req.headers[':authority'] ?? req.headers.host ?? 'localhost'}${path}`,
            header,
            body: (async function* () {
              yield bytes;
            })(),
            signal: abort.signal,
          },
          call,
        );
  // Connect's writer resolves on the response's `end`, which a compat HTTP/2 response here may not
  // emit: the call is done when the response is finished (trailers sent) or closed.
  const done = new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
  const written = universalResponseToNodeResponse(answer, res as unknown as Http2ServerResponse);
  written.catch(() => undefined);
  await Promise.race([written, done]);
  const status = answer.trailer?.get('grpc-status') ?? answer.header?.get('grpc-status');
  if (call.code === 'ok' && status !== null && status !== undefined && status !== '0') {
    call.code = GRPC_CODE_NAMES[Number(status)] ?? status;
    call.statusMessage = decodeURIComponent(
      answer.trailer?.get('grpc-message') ?? answer.header?.get('grpc-message') ?? '',
    );
  }
  journalGrpcCall(journal, found, { rawHeaders, body: bytes, startedAt }, answer.status, call);
  return true;
}

/** A request over the body limit: Trailers-Only `resource_exhausted`. */
function tooLarge(call: GrpcCall, maxBytes: number): UniversalServerResponse {
  call.code = 'resource_exhausted';
  call.statusMessage = `the request is over ${maxBytes} bytes (MOCKPOINT_MAX_BODY_BYTES)`;
  return {
    status: 200,
    header: new Headers({
      'content-type': 'application/grpc',
      'grpc-status': '8',
      'grpc-message': encodeURIComponent(call.statusMessage),
    }),
  };
}
