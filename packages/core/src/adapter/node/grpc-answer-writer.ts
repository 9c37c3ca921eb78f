/**
 * Writes a Connect universal answer (status, headers, body chunks, trailers) to
 * a Node HTTP/2 compat response. Unlike `@connectrpc/connect-node`'s writer, a
 * chunk is not awaited until it has reached the socket (only when the
 * response asks to wait, `write()` returning `false`): a unary answer's
 * headers, message and trailers then leave in one flush, which is what makes
 * a call one round trip for the client instead of several wake-ups.
 *
 * @module
 */
import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';

function nodeHeaders(headers: Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  headers?.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/**
 * Whether the response can take no more: its HTTP/2 stream is closed or
 * destroyed (a compat response has no `destroyed` of its own; after a reset,
 * `write()` returns `false` and neither `drain` nor `close` comes again).
 */
function gone(res: ServerResponse): boolean {
  const stream = (res as unknown as { stream?: { destroyed: boolean; closed: boolean } }).stream;
  return stream === undefined ? res.destroyed : stream.destroyed || stream.closed;
}

/** Resolves when `target` (a response or an HTTP/2 stream) may take more (`drain`), or is closed. */
export function drained(target: Pick<EventEmitter, 'once' | 'off'>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.once('drain', done);
    target.once('close', done);
  });
}

/**
 * Writes `answer` to `res`: the headers once the first chunk is ready (the
 * handler may still set some), each chunk as it comes, then the trailers and
 * the end. Resolves once all is handed to the response (or it closed).
 */
export async function writeGrpcAnswer(answer: UniversalServerResponse, res: ServerResponse): Promise<void> {
  const body = answer.body?.[Symbol.asyncIterator]();
  try {
    if (body !== undefined) {
      let chunk = await body.next();
      if (!gone(res)) res.writeHead(answer.status, nodeHeaders(answer.header));
      for (; chunk.done !== true && !gone(res); chunk = await body.next()) {
        if (!res.write(chunk.value) && !gone(res)) await drained(res);
      }
    }
    if (gone(res)) return;
    if (!res.headersSent) res.writeHead(answer.status, nodeHeaders(answer.header));
    if (answer.trailer !== undefined) res.addTrailers(nodeHeaders(answer.trailer));
    res.end();
  } finally {
    await body?.return?.();
  }
}
