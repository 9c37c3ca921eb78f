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
import type { GrpcCall } from '../../grpc/grpc-server.js';
import type { RecordedRequest } from '../../journal/journal-entry.js';
import { readBodyBytes } from '../../wire/body.js';
import { JOURNAL_BODY_LIMIT } from '../../wire/limits.js';
import type { AppContext } from '../context.js';

/** `/{package.Service}/{Method}`: dotted identifiers, then one identifier. */
const CALL_PATH = /^\/([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\/([A-Za-z_][A-Za-z0-9_]*)$/;

function rawHeadersOf(headers: Headers): string[] {
  const raw: string[] = [];
  for (const [name, value] of headers) raw.push(name, value);
  return raw;
}

export function registerGrpcCalls(app: Hono, ctx: AppContext): void {
  const { endpoints, journal, options } = ctx;
  app.use('*', async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const path = c.req.path;
    const match = CALL_PATH.exec(path);
    if (match === null) return next();
    const name = (await endpoints.grpc.owners()).get(match[1] as string);
    if (name === undefined) return next();
    const server = await endpoints.grpc.server(name, options.maxBodyBytes);
    if (server === null || !server.has(path)) return next();
    const startedAt = performance.now();
    const body = await readBodyBytes(c.req.raw, options.maxBodyBytes);
    const request = new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body });
    const call: GrpcCall = { protocol: 'connect', code: 'ok' };
    const response = await server.answer(request, call);
    const recorded: RecordedRequest = {
      method: 'POST',
      target: `/endpoint/${name}${path}`,
      rawHeaders: rawHeadersOf(c.req.raw.headers),
      body: body.subarray(0, JOURNAL_BODY_LIMIT),
      bodyTruncated: body.length > JOURNAL_BODY_LIMIT,
      startedAt,
    };
    journal.record(name, recorded, response.status, {
      answeredBy: 'grpc',
      grpc: { service: match[1] as string, method: match[2] as string, ...call },
    });
    return response;
  });
}
