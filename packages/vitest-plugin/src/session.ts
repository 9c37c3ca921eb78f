/**
 * Test sessions: every test gets a namespace of its own in the run's daemon,
 * opened when the test first asks for it (the `session` fixture,
 * `currentSession()`, an intercepted request, a request to the daemon's plain
 * URL) and deleted after the test. The
 * current test is found through AsyncLocalStorage, so tests running at once
 * (`test.concurrent`) each find their own.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { applyMockFile, type MockFile } from '@mockpoint/core/files';
import { SESSION_HEADER } from '@mockpoint/core/session';
import { connectMockServer, type MockServerClient } from './connect.js';
import { recordSessionCoverage } from './coverage-record.js';
import { MockServerError } from './errors.js';
import {
  createNamespace,
  deleteNamespace,
  endNamespace,
  type NamespaceApi,
  type UnhandledRequest,
  unhandledRequests,
} from './namespaces.js';
import type { OnUnhandledRequest } from './provided.js';
import type { NamespacePool } from './session-pool.js';
import { describeUnhandled } from './unhandled.js';

/** The header (also a W3C `baggage` entry) that puts a request in a session: the daemon's own name for it. */
export { SESSION_HEADER };

/**
 * One test's session: the whole client API (`add`, `api`, `endpoint`, the
 * matchers on its handles…) acting in a namespace of its own. Its `url` and
 * every URL its handles give out include `/ns/{name}`.
 */
export interface MockSession extends MockServerClient {
  /** The namespace's name (random). */
  readonly name: string;
  /** The namespace's own token: it manages this namespace and no other. */
  readonly token: string;
  /** The daemon's base URL, without `/ns/{name}`. */
  readonly daemonUrl: string;
  /**
   * The headers that put a request in this session with the daemon's plain URLs,
   * e.g. for an app server or Playwright's `extraHTTPHeaders`.
   * @example { 'mockpoint-session': 'k3v9x2c8q1' }
   */
  readonly headers: Readonly<Record<typeof SESSION_HEADER, string>>;
  /** The requests in this session that no endpoint or route answered so far, oldest first. */
  unhandledRequests(): Promise<UnhandledRequest[]>;
}

/** What a worker knows to open sessions: the daemon, and the plugin's `sessions` options. */
export interface SessionSettings extends NamespaceApi {
  ttlMs: number;
  onUnhandledRequest: OnUnhandledRequest;
  /** Host → endpoint name, mapped in every session. */
  hosts: Readonly<Record<string, string>>;
  /** The mock file every session starts with (the plugin's `config`). */
  mockFile?: MockFile;
  /** The folder each session's coverage is written to before it is deleted (the plugin's `coverage`). */
  coverageDir?: string;
  /** The file's namespaces opened in batches (session-pool.ts); absent: one request per session. */
  pool?: NamespacePool;
}

/** One test's claim on a session, opened on first use. */
interface SessionScope {
  open(): Promise<MockSession>;
}

interface Registry {
  storage: AsyncLocalStorage<SessionScope>;
  /** The tests of this worker running now that may open a session. */
  active: Set<SessionScope>;
  enabled: boolean;
}

// On globalThis: the setup file and the test's own import of the package may be two copies of this module.
const KEY = Symbol.for('mockpoint.vitest.sessions');
const registry: Registry = ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ?? {
  storage: new AsyncLocalStorage<SessionScope>(),
  active: new Set(),
  enabled: false,
};
(globalThis as Record<symbol, unknown>)[KEY] = registry;

/** Opens a namespace for one test, with the run's host mappings and mock file, and a client acting in it. */
export async function openSession(settings: SessionSettings): Promise<MockSession> {
  const created = await (settings.pool?.take() ?? createNamespace(settings, { ttlMs: settings.ttlMs }));
  const daemonUrl = settings.url.replace(/\/+$/, '');
  const client = connectMockServer({
    url: `${daemonUrl}/ns/${encodeURIComponent(created.name)}`,
    token: created.token,
    fetch: settings.fetch,
  });
  try {
    const byName = new Map<string, string[]>();
    for (const [host, name] of Object.entries(settings.hosts)) byName.set(name, [...(byName.get(name) ?? []), host]);
    for (const [name, hosts] of byName) await client.setHosts(name, hosts);
    if (settings.mockFile !== undefined) {
      await applyMockFile(settings.mockFile, { url: client.url, token: created.token, fetch: settings.fetch });
    }
  } catch (error) {
    await deleteNamespace(settings, created.name).catch(() => undefined);
    throw error;
  }
  return {
    ...client,
    name: created.name,
    token: created.token,
    daemonUrl,
    headers: { [SESSION_HEADER]: created.name },
    unhandledRequests: () => unhandledRequests(settings, created.name, created.token),
  };
}

/**
 * Runs one test (`body`) as the current test of a session that opens on first
 * use; afterwards, when it was opened, applies `onUnhandledRequest` (with
 * `'error'`, throws `UNHANDLED_REQUEST`, failing that test) and deletes it.
 */
export async function runInSession(settings: SessionSettings, body: () => Promise<void>): Promise<void> {
  let opened: Promise<MockSession> | undefined;
  let ended = false;
  const scope: SessionScope = {
    open: () => {
      // Asked for once the test is over (a timer or request it left behind): it would never be deleted.
      if (ended && opened === undefined) {
        return Promise.reject(
          new MockServerError(
            'NO_SESSION',
            "this test's session was asked for after the test ended (a timer or request it left running): it has no session any more",
          ),
        );
      }
      opened ??= openSession(settings);
      return opened;
    },
  };
  registry.active.add(scope);
  let failed: { error: unknown } | undefined;
  try {
    await registry.storage.run(scope, body);
  } catch (error) {
    failed = { error };
  } finally {
    registry.active.delete(scope);
    ended = true;
  }
  // A session that failed to open has failed the test that asked for it already.
  const session = await opened?.catch(() => undefined);
  if (session !== undefined) await closeSession(settings, session, failed === undefined);
  if (failed !== undefined) throw failed.error;
}

/**
 * Ends a session: its coverage written (when asked), then its namespace deleted whatever happened,
 * in the same request that reads what nothing answered in it (when `check`): `onUnhandledRequest`
 * applied to those.
 */
async function closeSession(settings: SessionSettings, session: MockSession, check: boolean): Promise<void> {
  const report = check && settings.onUnhandledRequest !== 'off';
  let requests: UnhandledRequest[] = [];
  try {
    // Read before the namespace (and its journal) is gone; a test that failed counts too.
    if (settings.coverageDir !== undefined) {
      await recordSessionCoverage(settings, settings.coverageDir, session.name, session.token);
    }
  } finally {
    if (report) requests = await endNamespace(settings, session.name);
    else await deleteNamespace(settings, session.name);
  }
  if (requests.length === 0) return;
  const text = describeUnhandled(requests, settings.onUnhandledRequest);
  if (settings.onUnhandledRequest === 'error') throw new MockServerError('UNHANDLED_REQUEST', text);
  console.warn(`mockpoint: ${text}`);
}

/** Marks sessions on in this worker (the plugin's setup file does). */
export function enableSessions(): void {
  registry.enabled = true;
}

/**
 * The current test's session, opened on first use (the same one for every call
 * in one test). Works in a test, its `beforeEach`/`afterEach` hooks and
 * anything they call, also with `test.concurrent`.
 * @throws MockServerError `NO_SESSION` outside a test, or when sessions are off.
 * @example
 * const session = await currentSession()
 * const users = await session.add({ name: 'users', data: [] })
 */
export async function currentSession(): Promise<MockSession> {
  const scope = registry.storage.getStore();
  if (scope === undefined) {
    throw new MockServerError(
      'NO_SESSION',
      registry.enabled
        ? 'there is no test session here: a session belongs to one test (use it in the test, or its beforeEach/afterEach)'
        : 'test sessions are off: add mockpoint({ sessions: true }) to the Vitest config',
    );
  }
  return scope.open();
}

/**
 * The session an intercepted request belongs to: the current test's; outside any
 * test's context, the one test running in this worker (if it is alone); none
 * when no test runs. Several at once and no context: `NO_SESSION`.
 */
export async function sessionOfRequest(): Promise<MockSession | undefined> {
  const scope = registry.storage.getStore() ?? (registry.active.size === 1 ? [...registry.active][0] : undefined);
  if (scope !== undefined) return scope.open();
  if (registry.active.size > 1) {
    throw new MockServerError(
      'NO_SESSION',
      `${registry.active.size} tests run at once and this request came from outside all of them (its async context was lost): it cannot be given a session`,
    );
  }
  return undefined;
}
