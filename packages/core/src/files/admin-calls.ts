/**
 * The admin API calls a mock file needs (read, write and list endpoints with
 * their routes, queued answers and collections), each `data` kept as its exact text. Over
 * any fetch: a daemon's URL, or an app in this process.
 *
 * @module
 */

import { answerJson, type QueuedAnswer } from '../api/answer-json.js';
import { type ChaosSettings, chaosSettingsJson, decodeChaosSettings } from '../api/chaos.js';
import { decodeRoutes, routesJson } from '../api/route.js';
import { queueBodyFromMembers } from '../api/schemas.js';
import type { States } from '../api/state-json.js';
import { JsonText, scanJson, stringifyExact } from '../codec/json-text.js';
import type { HostEntry, HostMove } from '../pattern/host-mapping.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import { NAME_SETTINGS, SETTING_KINDS, settingFile } from '../settings/name-settings.js';
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

/** What `name` holds now: its record (exact), routes, queued answers, collections, every per-name setting and the state's start. */
export async function readState(target: AdminTarget, name: string): Promise<EndpointState> {
  const get = (path: string) => call(target, 'GET', `/api/endpoints/${seg(name)}/${path}`, undefined, true);
  const [recordText, routesText, queueText, collectionsText, settings, start] = await Promise.all([
    call(target, 'GET', `/api/endpoints/${seg(name)}`, undefined, true),
    call(target, 'GET', `/api/endpoints/${seg(name)}/routes`),
    call(target, 'GET', `/api/endpoints/${seg(name)}/queue`),
    call(target, 'GET', `/api/endpoints/${seg(name)}/collections`),
    // Each setting's own read: a 404 is none (or a daemon older than the setting).
    Promise.all(SETTING_KINDS.map((kind) => settingFile(kind).read(get, name))),
    readStart(target, name),
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
  SETTING_KINDS.forEach((kind, i) => {
    if (settings[i] !== undefined) (state as unknown as Record<string, unknown>)[kind] = settings[i];
  });
  if (start !== undefined && Object.keys(start).length > 0) state.state = start;
  return state;
}

/** The start of `name`'s scenarios (`GET …/state?start=true`): what was put, `{}` when nothing was. */
async function readStart(target: AdminTarget, name: string): Promise<States | undefined> {
  const text = await call(target, 'GET', `/api/endpoints/${seg(name)}/state?start=true`, undefined, true);
  return text === undefined ? undefined : (JSON.parse(text) as States);
}

/** Whether `state` holds any per-name setting. */
export function holdsSetting(state: EndpointState): boolean {
  return SETTING_KINDS.some((kind) => state[kind] !== undefined);
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
    ...Object.fromEntries(
      SETTING_KINDS.map((kind) => {
        const value = state[kind];
        return [kind, value === undefined ? null : new JsonText(settingFile(kind).body(value))];
      }),
    ),
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
  for (const kind of SETTING_KINDS) {
    const value = state[kind];
    if (value !== undefined) out[kind] = settingFile(kind).entry(value);
  }
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
  // After the record: deleting the record above removed the settings with the name.
  const moved = await writeSettings(target, path, bodies, current);
  // Putting the start puts every scenario there too; nothing put (`{}`) is no state at all.
  if (bodies.state !== undefined) await call(target, 'PUT', `${path}/state`, bodies.state);
  else if (current === undefined || current.state !== undefined) await call(target, 'PUT', `${path}/state`, '{}', true);
  return moved;
}

/**
 * Every per-name setting of one name, as {@link writeState} writes them (the file wins), each by its
 * export form: a PUT of its body, or a DELETE where the name held one. Answers the hosts moved here.
 */
async function writeSettings(
  target: AdminTarget,
  path: string,
  bodies: ReturnType<typeof writeBodies>,
  current: EndpointState | undefined,
): Promise<HostMove[]> {
  const moved: HostMove[] = [];
  for (const kind of SETTING_KINDS) {
    const form = settingFile(kind);
    const at = `${path}/${NAME_SETTINGS[kind].key}`;
    const body = bodies.settings[kind];
    if (body !== undefined) {
      const answer = await call(target, 'PUT', form.put === undefined ? at : `${at}?${form.put.query}`, body);
      if (form.put !== undefined) moved.push(...form.put.moved(answer as string));
    } else if (current === undefined ? form.clear.unknown : current[kind] !== undefined) {
      await call(target, 'DELETE', at, undefined, form.clear.olderOk);
    }
  }
  return moved;
}

/**
 * `PUT /api/endpoints/{name}/hosts?move=true` with `body` (`{ hosts: [...] }`):
 * answers the `moved` list of the daemon's answer. A daemon that answers no
 * `moved` does not know `move` (older than 2026-11): it moved nothing (a host
 * another endpoint held was refused 409 HOST_TAKEN), so nothing moved.
 */
export async function putHosts(target: AdminTarget, name: string, body: string): Promise<HostMove[]> {
  const put = NAME_SETTINGS.hosts.file.put as NonNullable<typeof NAME_SETTINGS.hosts.file.put>;
  const text = await call(target, 'PUT', `/api/endpoints/${seg(name)}/hosts?${put.query}`, body);
  return put.moved(text as string);
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
