/**
 * The admin API calls a mock file needs (read, write and list endpoints with
 * their routes, queued answers and collections), each `data` kept as its exact text. Over
 * any fetch: a daemon's URL, or an app in this process.
 *
 * @module
 */

import { answerJson, type QueuedAnswer } from '../api/answer-json.js';
import { type ChaosSettings, chaosSettingsJson, decodeChaosSettings } from '../api/chaos.js';
import type { GrpcDefinitions } from '../api/grpc-json.js';
import { decodeRoutes, routesJson } from '../api/route.js';
import { queueBodyFromMembers } from '../api/schemas.js';
import type { States } from '../api/state-json.js';
import { JsonText, scanJson, stringifyExact } from '../codec/json-text.js';
import type { HostEntry, HostMove } from '../pattern/host-mapping.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import {
  decodeSignatureSettings,
  type SignatureSettings,
  signatureSettingsJson,
} from '../signing/signature-settings.js';
import { decodeTwinSetting, type TwinSetting, twinSettingJson } from '../twin/twin-setting.js';
import type { MockFileEndpoint } from './parse-mock-file.js';
import { collectionsBody, collectionsByName, statesText, writeBodies } from './write-bodies.js';

/** Which daemon (or app) to talk to. */
export interface AdminTarget {
  /** Base URL, e.g. `http://127.0.0.1:16540`. */
  url: string;
  /** The admin token, sent as a bearer token on every call. @default none */
  token?: string;
  /** How requests are sent. @default the global fetch */
  fetch?: (request: Request) => Promise<Response>;
}

/** What a name holds on the server, in a mock file's terms. */
export type EndpointState = MockFileEndpoint;

/** One admin call; answers the body text, or `undefined` for a 404 when `missingOk`. */
async function call(
  target: AdminTarget,
  method: string,
  path: string,
  body?: string,
  missingOk = false,
): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  const url = `${target.url.replace(/\/+$/, '')}${path}`;
  const send = target.fetch ?? ((request: Request) => fetch(request));
  let response: Response;
  try {
    response = await send(new Request(url, { method, headers, body }));
  } catch (error) {
    if ((error as { code?: unknown }).code !== undefined && error instanceof MockpointError) throw error;
    // No answer at all (Node's bare "fetch failed"): say why, and what to do about it.
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const own = (error as { code?: unknown }).code;
    const reason =
      typeof cause?.code === 'string'
        ? cause.code
        : typeof own === 'string'
          ? own
          : typeof cause?.message === 'string'
            ? cause.message
            : (error as Error).message;
    throw new MockpointError(
      'CONNECTION_FAILED',
      `no mockpoint daemon answered at ${target.url} (${method} ${path}: ${reason}): start one (mockpoint, or npx -y pnpm@10.34.9 start in a clone), or give its address with --url or MOCKPOINT_URL`,
      { cause: error, status: 502 },
    );
  }
  const text = await response.text();
  if (response.ok) return text;
  if (response.status === 404 && missingOk) return undefined;
  let code: ErrorCode = 'UNEXPECTED_RESPONSE';
  let message = `${method} ${url} answered ${response.status}: ${text.slice(0, 200)}`;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (parsed.error?.code && parsed.error.message) {
      code = parsed.error.code as ErrorCode;
      message = parsed.error.message;
    }
  } catch {
    // not a mockpoint error body: reported as it is
  }
  throw new MockpointError(code, message, { status: response.status });
}

const seg = encodeURIComponent;

/** Every endpoint name with a record, in name order. */
export async function listNames(target: AdminTarget): Promise<string[]> {
  const names: string[] = [];
  let after: string | null = '';
  while (after !== null) {
    const query = new URLSearchParams({ limit: '1000', summary: 'true' });
    if (after) query.set('after', after);
    const page = JSON.parse((await call(target, 'GET', `/api/endpoints?${query}`)) as string) as {
      endpoints: { name: string }[];
      next: string | null;
    };
    for (const endpoint of page.endpoints) names.push(endpoint.name);
    after = page.next;
  }
  return names;
}

/** Every host mapped on the daemon, with its endpoint and source (a daemon older than host mappings: none). */
export async function listHosts(target: AdminTarget): Promise<HostEntry[]> {
  const text = await call(target, 'GET', '/api/hosts', undefined, true);
  return text === undefined ? [] : (JSON.parse(text) as { hosts: HostEntry[] }).hosts;
}

/** What `name` holds now: its record (exact), routes and queued answers. */
export async function readState(target: AdminTarget, name: string): Promise<EndpointState> {
  const [recordText, routesText, queueText, collectionsText, hostsText, graphqlText, chaosText, grpcText, more] =
    await Promise.all([
      call(target, 'GET', `/api/endpoints/${seg(name)}`, undefined, true),
      call(target, 'GET', `/api/endpoints/${seg(name)}/routes`),
      call(target, 'GET', `/api/endpoints/${seg(name)}/queue`),
      call(target, 'GET', `/api/endpoints/${seg(name)}/collections`),
      // A daemon older than host mappings answers 404: it holds none.
      call(target, 'GET', `/api/endpoints/${seg(name)}/hosts`, undefined, true),
      call(target, 'GET', `/api/endpoints/${seg(name)}/graphql`, undefined, true),
      // 404: no chaos (or a daemon older than chaos).
      call(target, 'GET', `/api/endpoints/${seg(name)}/chaos`, undefined, true),
      // 404: no definitions (or a daemon older than gRPC).
      call(target, 'GET', `/api/endpoints/${seg(name)}/grpc`, undefined, true),
      Promise.all([readSignature(target, name), readStart(target, name), readTwin(target, name)]),
    ]);
  const state: EndpointState = { name, routes: [], queue: [] };
  if (recordText !== undefined) {
    const members = scanJson(recordText).members ?? new Map<string, string>();
    state.record = {
      data: new JsonText(members.get('data') ?? 'null'),
      statusCode: JSON.parse(members.get('statusCode') ?? '200') as number,
      delay: JSON.parse(members.get('delay') ?? '0') as number,
    };
  }
  state.routes = decodeRoutes(scanJson(routesText as string).members?.get('routes') ?? '[]');
  const queue = queueBodyFromMembers(scanJson(queueText as string).members ?? new Map()).answers;
  state.queue = (queue as QueuedAnswer[] | undefined) ?? [];
  const collections = scanJson(collectionsText as string).members ?? new Map<string, string>();
  if (collections.size > 0) {
    state.collections = new Map([...collections].map(([collection, text]) => [collection, new JsonText(text)]));
  }
  // Those of MOCKPOINT_HOSTS are the daemon's settings, not the endpoint's: a file never holds them.
  const hosts =
    hostsText === undefined ? [] : (JSON.parse(hostsText) as { hosts: { host: string; source: string }[] }).hosts;
  const own = hosts.filter((entry) => entry.source === 'api').map((entry) => entry.host);
  if (own.length > 0) state.hosts = own.sort();
  if (graphqlText !== undefined) state.graphql = (JSON.parse(graphqlText) as { schema: string }).schema;
  if (chaosText !== undefined) state.chaos = decodeChaosSettings(chaosText);
  if (grpcText !== undefined) {
    const { services: _services, ...input } = JSON.parse(grpcText) as GrpcDefinitions;
    state.grpc = input;
  }
  const [signature, start, twin] = more;
  if (signature !== undefined) state.signature = signature;
  if (twin !== undefined) state.twin = twin;
  if (start !== undefined && Object.keys(start).length > 0) state.state = start;
  return state;
}

/**
 * The signature check of `name` with its secrets (`GET …/signature?secrets=true`, asked only
 * when the name has one: with an admin token set, only that token reads the secrets);
 * `undefined` when it has none, or the daemon is older than signature checks.
 */
async function readSignature(target: AdminTarget, name: string): Promise<SignatureSettings | undefined> {
  const path = `/api/endpoints/${seg(name)}/signature`;
  if ((await call(target, 'GET', path, undefined, true)) === undefined) return undefined;
  let text: string | undefined;
  try {
    text = await call(target, 'GET', `${path}?secrets=true`, undefined, true);
  } catch (error) {
    if (!(error instanceof MockpointError) || error.code !== 'UNAUTHORIZED') throw error;
    throw new MockpointError(
      'UNAUTHORIZED',
      `"${name}" checks signatures, and their secrets are read with the admin token only: give it with --token or MOCKPOINT_ADMIN_TOKEN`,
      { status: 401 },
    );
  }
  if (text === undefined) return undefined;
  const secrets = (JSON.parse(text) as { secrets?: unknown[] }).secrets;
  if (!secrets?.every((secret) => typeof secret === 'string')) {
    // A daemon older than ?secrets=true answers the hints only: the secrets cannot be read back.
    throw new MockpointError(
      'UNEXPECTED_RESPONSE',
      `"${name}" checks signatures, and this daemon does not answer their secrets (GET …/signature?secrets=true): update it to export them`,
    );
  }
  return decodeSignatureSettings(text);
}

/** The twin of `name` as put (`GET …/twin?setting=true`); `undefined` when it has none (or the daemon is older than twins). */
async function readTwin(target: AdminTarget, name: string): Promise<TwinSetting | undefined> {
  const text = await call(target, 'GET', `/api/endpoints/${seg(name)}/twin?setting=true`, undefined, true);
  return text === undefined ? undefined : decodeTwinSetting(text);
}

/** The start of `name`'s scenarios (`GET …/state?start=true`): what was put, `{}` when nothing was. */
async function readStart(target: AdminTarget, name: string): Promise<States | undefined> {
  const text = await call(target, 'GET', `/api/endpoints/${seg(name)}/state?start=true`, undefined, true);
  return text === undefined ? undefined : (JSON.parse(text) as States);
}

/** A queued answer as exact JSON text, its fields in the one documented order. */
function queueFields(answer: QueuedAnswer): JsonText {
  return new JsonText(answerJson(answer));
}

/** One text for a state, equal exactly when two states answer the same. */
export function stateKey(state: EndpointState): string {
  const record = state.record;
  return stringifyExact({
    record: record && { data: record.data, statusCode: record.statusCode, delay: record.delay },
    routes: new JsonText(routesJson(state.routes)),
    queue: state.queue.map(queueFields),
    collections: state.collections === undefined ? null : new JsonText(collectionsBody(state.collections)),
    hosts: state.hosts ?? [],
    graphql: state.graphql ?? null,
    grpc: state.grpc ?? null,
    chaos: state.chaos === undefined ? null : new JsonText(chaosSettingsJson(state.chaos)),
    signature: state.signature === undefined ? null : new JsonText(signatureSettingsJson(state.signature)),
    twin: state.twin === undefined ? null : new JsonText(twinSettingJson(state.twin)),
    state: state.state === undefined ? null : new JsonText(statesText(state.state)),
  });
}

/** The state as an endpoint of a mock file (the JSON form: `data` exact; empty routes and queue left out). */
export function stateEntry(state: EndpointState): Record<string, unknown> {
  const out: Record<string, unknown> = { name: state.name };
  if (state.record) {
    out.data = state.record.data;
    out.statusCode = state.record.statusCode;
    out.delay = state.record.delay;
  }
  // Decoded from their stored form: fields in the documented order, each answer's data exact.
  if (state.routes.length > 0) out.routes = decodeRoutes(routesJson(state.routes));
  if (state.queue.length > 0) out.queue = state.queue.map(queueFields);
  if (state.collections !== undefined) out.collections = collectionsByName(state.collections);
  if (state.hosts !== undefined) out.hosts = state.hosts;
  if (state.graphql !== undefined) out.graphql = state.graphql;
  if (state.grpc !== undefined) out.grpc = state.grpc;
  if (state.chaos !== undefined) out.chaos = JSON.parse(chaosSettingsJson(state.chaos));
  // The secrets as stored: a mock file is a fixture, kept like the configuration that holds them (docs/files.md).
  if (state.signature !== undefined) out.signature = JSON.parse(signatureSettingsJson(state.signature));
  if (state.twin !== undefined) out.twin = JSON.parse(twinSettingJson(state.twin));
  if (state.state !== undefined) out.state = JSON.parse(statesText(state.state));
  return out;
}

/**
 * Makes `name` hold exactly `desired`: the record (or none), the routes, the
 * queued answers. `current` is what it holds now, when known. Answers the hosts
 * the daemon moved to `name` from other endpoints (its answer, not a guess).
 */
export async function writeState(
  target: AdminTarget,
  desired: EndpointState,
  current?: EndpointState,
): Promise<HostMove[]> {
  const path = `/api/endpoints/${seg(desired.name)}`;
  const bodies = writeBodies(desired);
  if (bodies.record !== undefined) await call(target, 'PUT', path, bodies.record);
  else if (current === undefined || current.record !== undefined) {
    // Removes the record and the routes; the routes are written again below.
    await call(target, 'DELETE', path, undefined, true);
  }
  await call(target, 'PUT', `${path}/routes`, bodies.routes);
  if (current === undefined || current.queue.length > 0) await call(target, 'DELETE', `${path}/queue`);
  if (bodies.queue !== undefined) await call(target, 'POST', `${path}/queue`, bodies.queue);
  if (bodies.collections !== undefined) await call(target, 'PUT', `${path}/collections`, bodies.collections);
  else if (current === undefined || current.collections !== undefined) {
    await call(target, 'DELETE', `${path}/collections`);
  }
  // The file wins for its hosts too: one another endpoint holds through the API moves here (those of MOCKPOINT_HOSTS never).
  let moved: HostMove[] = [];
  if (bodies.hosts !== undefined) moved = await putHosts(target, desired.name, bodies.hosts);
  else if (current?.hosts !== undefined) await call(target, 'DELETE', `${path}/hosts`);
  // After the record: deleting the record above removed the schema with the name.
  if (bodies.graphql !== undefined) await call(target, 'PUT', `${path}/graphql`, bodies.graphql);
  else if (current === undefined || current.graphql !== undefined) await call(target, 'DELETE', `${path}/graphql`);
  // 404: a daemon older than gRPC (which holds none).
  if (bodies.grpc !== undefined) await call(target, 'PUT', `${path}/grpc`, bodies.grpc);
  else if (current === undefined || current.grpc !== undefined)
    await call(target, 'DELETE', `${path}/grpc`, undefined, true);
  // Last, for the same reason; a PUT starts its sequence of decisions again. 404: a daemon older than chaos.
  if (bodies.chaos !== undefined) await call(target, 'PUT', `${path}/chaos`, bodies.chaos);
  else if (current === undefined || current.chaos !== undefined)
    await call(target, 'DELETE', `${path}/chaos`, undefined, true);
  await writeChecks(target, path, bodies, current);
  return moved;
}

/** The signature check and the state's start of one name, as {@link writeState} writes them (the file wins). */
async function writeChecks(
  target: AdminTarget,
  path: string,
  bodies: ReturnType<typeof writeBodies>,
  current: EndpointState | undefined,
): Promise<void> {
  if (bodies.signature !== undefined) await call(target, 'PUT', `${path}/signature`, bodies.signature);
  else if (current === undefined || current.signature !== undefined)
    await call(target, 'DELETE', `${path}/signature`, undefined, true);
  // 404: a daemon older than twins (which holds none).
  if (bodies.twin !== undefined) await call(target, 'PUT', `${path}/twin`, bodies.twin);
  else if (current === undefined || current.twin !== undefined)
    await call(target, 'DELETE', `${path}/twin`, undefined, true);
  // Putting the start puts every scenario there too; nothing put (`{}`) is no state at all.
  if (bodies.state !== undefined) await call(target, 'PUT', `${path}/state`, bodies.state);
  else if (current === undefined || current.state !== undefined) await call(target, 'PUT', `${path}/state`, '{}', true);
}

/**
 * `PUT /api/endpoints/{name}/hosts?move=true` with `body` (`{ hosts: [...] }`):
 * answers the `moved` list of the daemon's answer. A daemon that answers no
 * `moved` does not know `move` (older than 2026-11): it moved nothing (a host
 * another endpoint held was refused 409 HOST_TAKEN), so nothing moved.
 */
export async function putHosts(target: AdminTarget, name: string, body: string): Promise<HostMove[]> {
  const text = await call(target, 'PUT', `/api/endpoints/${seg(name)}/hosts?move=true`, body);
  const moved = (JSON.parse(text as string) as { moved?: unknown }).moved;
  return Array.isArray(moved) ? (moved as HostMove[]) : [];
}

/**
 * Whether the daemon knows `PUT …/hosts?move=` (a daemon older than it would
 * ignore the query and refuse a host another endpoint holds). Asked with a
 * `move` value it refuses and a body it refuses: nothing is written either way
 * (a daemon that knows `move` answers 400 INVALID_QUERY, an older one 400
 * INVALID_HOSTS for the body).
 */
export async function knowsHostMove(target: AdminTarget, name: string): Promise<boolean> {
  try {
    await call(target, 'PUT', `/api/endpoints/${seg(name)}/hosts?move=ask`, '{}');
  } catch (error) {
    if (error instanceof MockpointError && error.code === 'INVALID_QUERY') return true;
    if (error instanceof MockpointError && error.code === 'INVALID_HOSTS') return false;
    throw error;
  }
  return false;
}

/** Removes `name`: its record, routes, queued answers, hosts, chaos and signature check (its state goes with the record). */
export async function removeState(target: AdminTarget, name: string): Promise<void> {
  const path = `/api/endpoints/${seg(name)}`;
  await call(target, 'DELETE', path, undefined, true);
  await call(target, 'DELETE', `${path}/queue`);
  await call(target, 'DELETE', `${path}/hosts`, undefined, true);
  await call(target, 'DELETE', `${path}/chaos`, undefined, true);
  await call(target, 'DELETE', `${path}/signature`, undefined, true);
}

/** The namespace's chaos (`GET /api/chaos`); `undefined` when there is none (or the daemon is older than it). */
export async function readNamespaceChaos(target: AdminTarget): Promise<ChaosSettings | undefined> {
  const text = await call(target, 'GET', '/api/chaos', undefined, true);
  return text === undefined ? undefined : decodeChaosSettings(text);
}

/** Sets (`PUT /api/chaos`) or, with `undefined`, removes the namespace's chaos. */
export async function writeNamespaceChaos(target: AdminTarget, chaos: ChaosSettings | undefined): Promise<void> {
  if (chaos === undefined) await call(target, 'DELETE', '/api/chaos', undefined, true);
  else await call(target, 'PUT', '/api/chaos', chaosSettingsJson(chaos));
}

/** The journal as a HAR 1.2 document (`GET /api/requests.har`): every name, or only `name`. */
export async function journalHar(target: AdminTarget, name?: string): Promise<string> {
  const query = name === undefined ? '' : `?name=${seg(name)}`;
  return (await call(target, 'GET', `/api/requests.har${query}`)) as string;
}

/** The journal as a Pact V4 contract (`GET /api/requests.pact`): every name's, or those of `names`. */
export async function journalPact(
  target: AdminTarget,
  contract: { consumer: string; provider: string; names?: string[]; secrets?: boolean; types?: boolean },
): Promise<string> {
  const query = new URLSearchParams({ consumer: contract.consumer, provider: contract.provider });
  if (contract.names !== undefined && contract.names.length > 0) query.set('names', contract.names.join(','));
  if (contract.secrets === true) query.set('secrets', 'true');
  if (contract.types === true) query.set('types', 'true');
  return (await call(target, 'GET', `/api/requests.pact?${query}`)) as string;
}
