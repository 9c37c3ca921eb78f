/**
 * A gRPC-family call as every adapter sees it: which name's server answers
 * `/{package.Service}/{Method}`, and the journal entry of a call answered. The
 * Fetch path (Connect, gRPC-Web) and the Node listener (native gRPC over
 * HTTP/2) both use these, so a call is found and journaled one way.
 *
 * @module
 */
import type { GrpcCall, GrpcServer } from '../grpc/grpc-server.js';
import type { Journal } from '../journal/journal.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import { GRPC_DAEMON_SERVICES } from '../wire/grpc-json.js';
import { JOURNAL_BODY_LIMIT } from '../wire/limits.js';
import type { EndpointService } from './endpoint-service.js';

/** `/{package.Service}/{Method}`: dotted identifiers, then one identifier. */
const CALL_PATH = /^\/([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\/([A-Za-z_][A-Za-z0-9_]*)$/;

/** A call found: the name whose definitions declare the method, and their server. */
export interface FoundGrpcCall {
  name: string;
  service: string;
  method: string;
  server: GrpcServer;
  /** A call to the daemon's own health or reflection service: it belongs to no name and is not journaled. */
  daemon?: true;
}

/**
 * The name and server that answer a `POST` to `path`, or `undefined` when no
 * definitions declare it (the request then passes on, untouched).
 */
export async function findGrpcCall(
  endpoints: EndpointService,
  path: string,
  readMaxBytes: number,
): Promise<FoundGrpcCall | undefined> {
  const match = CALL_PATH.exec(path);
  if (match === null) return undefined;
  const [, service, method] = match as unknown as [string, string, string];
  const owners = await endpoints.grpc.owners();
  const name = owners.get(service);
  if (name === undefined) {
    // Health and reflection answer while some name holds definitions, unless a name holds them itself.
    if (owners.size === 0 || !GRPC_DAEMON_SERVICES.includes(service)) return undefined;
    const server = await endpoints.grpc.daemonServer(readMaxBytes);
    return server.has(path) ? { name: '', service, method, server, daemon: true } : undefined;
  }
  const server = await endpoints.grpc.server(name, readMaxBytes);
  if (server === null || !server.has(path)) return undefined;
  return { name, service, method, server };
}

/** Journals a call answered with `status` under its name, with its `grpc` mark. */
export function journalGrpcCall(
  journal: Journal,
  found: FoundGrpcCall,
  request: { rawHeaders: string[]; body: Uint8Array; startedAt: number },
  status: number,
  call: GrpcCall,
): void {
  if (found.daemon === true) return;
  const recorded: RecordedRequest = {
    method: 'POST',
    target: `/endpoint/${found.name}/${found.service}/${found.method}`,
    rawHeaders: request.rawHeaders,
    body: request.body.subarray(0, JOURNAL_BODY_LIMIT),
    bodyTruncated: request.body.length > JOURNAL_BODY_LIMIT,
    startedAt: request.startedAt,
  };
  journal.record(found.name, recorded, status, {
    answeredBy: 'grpc',
    grpc: { service: found.service, method: found.method, ...call },
  });
}
