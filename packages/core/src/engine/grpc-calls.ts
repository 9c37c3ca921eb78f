/**
 * A gRPC-family call as every adapter sees it: which name's server answers
 * `/{package.Service}/{Method}`, and the call opened for its journal entry,
 * which the journal step writes once the call is over ({@link openCall}). The
 * Fetch path (Connect, gRPC-Web) and the Node listener (native gRPC over
 * HTTP/2) both use these, so a call is found and journaled one way.
 *
 * @module
 */

import { ENDPOINT_PREFIX } from '../api/endpoint-target.js';
import { GRPC_DAEMON_SERVICES } from '../api/grpc-json.js';
import { NAMESPACE_PREFIX } from '../api/session.js';
import type { GrpcCall, GrpcServer } from '../grpc/grpc-server.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import type { EndpointService } from './endpoint-service.js';
import type { GrpcCallLimits } from './grpc-catalog.js';
import { CallEnd } from './pipeline/call-end.js';
import { Exchange, type PipelineParts } from './pipeline/exchange.js';
import { callAnswer } from './pipeline/grpc-answer.js';
import { journalStep } from './pipeline/journal-step.js';
import { FIRST_BYTES, runSteps, type Step, type Verdict } from './pipeline/step.js';

/** `/{package.Service}/{Method}`: dotted identifiers, then one identifier. */
const CALL_PATH = /^\/([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\/([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * The app's own path prefixes: a `POST` under one is never a gRPC call, so it
 * never pays the owner lookup (and no service named `endpoint`, `api` or `ns`
 * takes it over).
 */
const RESERVED_PREFIXES: readonly string[] = [ENDPOINT_PREFIX, '/api/', NAMESPACE_PREFIX];

/** Whether `path` is under one of the app's own prefixes ({@link RESERVED_PREFIXES}). */
function isReservedPath(path: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

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
 * The service and method a `POST` to `path` calls, the services' owners and the name owning that
 * service, or `undefined` when `path` is no call path or is under one of the app's own prefixes.
 */
async function callOf(endpoints: EndpointService, path: string) {
  if (isReservedPath(path)) return undefined;
  const match = CALL_PATH.exec(path);
  if (match === null) return undefined;
  const [, service, method] = match as unknown as [string, string, string];
  const owners = await endpoints.grpc.owners();
  return { service, method, owners, name: owners.get(service) };
}

/**
 * The name and server that answer a `POST` to `path`, or `undefined` when no
 * definitions declare it or `path` is under one of the app's own prefixes
 * (the request then passes on, untouched).
 */
export async function findGrpcCall(
  endpoints: EndpointService,
  path: string,
  limits: GrpcCallLimits,
): Promise<FoundGrpcCall | undefined> {
  const asked = await callOf(endpoints, path);
  if (asked === undefined) return undefined;
  const { service, method, owners, name } = asked;
  if (name === undefined) {
    // Health and reflection answer while some name holds definitions, unless a name holds them itself.
    if (owners.size === 0 || !GRPC_DAEMON_SERVICES.includes(service)) return undefined;
    const server = await endpoints.grpc.daemonServer(limits);
    return server.has(path) ? { name: '', service, method, server, daemon: true } : undefined;
  }
  const server = await endpoints.grpc.server(name, limits);
  // The record's `delay` is its own answer's, as on HTTP: the record answers no call, so no call waits it.
  if (server === null || !server.has(path)) return undefined;
  return { name, service, method, server };
}

/** The services named in a message about a service no definitions declare: the first few. */
const LISTED_SERVICES = 5;

/**
 * Why no definitions answer a `POST` to `path` (a call path {@link findGrpcCall}
 * found no method for), for a gRPC-family client's `unimplemented`: the method
 * its service's definitions lack, or the service none declare (with the ones
 * they do). `undefined` when `path` is no call path or is under the app's own
 * prefixes (the app's 404 stands).
 */
export async function unknownCallMessage(endpoints: EndpointService, path: string): Promise<string | undefined> {
  const asked = await callOf(endpoints, path);
  if (asked === undefined) return undefined;
  const { service, method, owners, name } = asked;
  if (name !== undefined) {
    return `the protobuf definitions of endpoint "${name}" declare ${service} without a method ${method}: call one they declare, or add ${method} to them (PUT /api/endpoints/${name}/grpc; docs/grpc.md)`;
  }
  if (GRPC_DAEMON_SERVICES.includes(service) && owners.size > 0) {
    return `the daemon's ${service} has no method ${method}`;
  }
  const listed = [...owners.keys()].slice(0, LISTED_SERVICES);
  const more = owners.size > listed.length ? ` and ${owners.size - listed.length} more` : '';
  const declared = listed.length === 0 ? 'none are stored' : `those declared: ${listed.join(', ')}${more}`;
  return `no endpoint's protobuf definitions declare the service ${service} (${declared}): put a .proto that declares it with PUT /api/endpoints/{name}/grpc (docs/grpc.md)`;
}

/** A call opened: a call's answer, which its handler plays (the call's own steps walk once its messages are read). */
const OPENED: Verdict = Object.freeze({ answer: callAnswer(undefined) });

/** What a call opened walks: the journal step around the call, answered by its handler. */
const OPENING: readonly Step[] = [
  journalStep,
  { name: 'the call, answered by its handler', run: () => OPENED, reads: FIRST_BYTES },
];

/** No body kept yet: the adapter gives the call's body when the call is over. */
const NO_BODY = new Uint8Array(0);

/**
 * Opens `found`'s call for the journal, as the adapter received it (`target` as
 * the client sent it, its headers as raw pairs, when it started): the call
 * walks the journal step, whose after-work waits for the call's end. The
 * adapter says when the call is over (`CallEnd.over`: its status and body as
 * sent), refused or answered; then its entry is written. A call to the
 * daemon's own services belongs to no name: its end is waited by nothing.
 */
export function openCall(
  parts: PipelineParts,
  found: FoundGrpcCall,
  request: { target: string; rawHeaders: string[]; startedAt: number },
  call: GrpcCall,
): CallEnd {
  const end = new CallEnd(found.service, found.method, call);
  if (found.daemon === true) return end;
  const recorded: RecordedRequest = {
    method: 'POST',
    target: request.target,
    rawHeaders: request.rawHeaders,
    body: NO_BODY,
    bodyTruncated: false,
    startedAt: request.startedAt,
  };
  const exchange = new Exchange(parts, found.name, `/${found.service}/${found.method}`, recorded, undefined, undefined);
  exchange.callEnd = end;
  runSteps(OPENING, exchange);
  return end;
}
