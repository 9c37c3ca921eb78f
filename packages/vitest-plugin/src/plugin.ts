/**
 * `@mockpoint/vitest/plugin`: the config side. `mockpoint()` adds the per-run
 * global setup and the matchers' setup file to a Vitest project. No server or
 * worker code is loaded here.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vitest/config';
import type { CreateMockServerOptions } from './create-mock-server.js';
import { MockServerError } from './errors.js';
import {
  COVERAGE_KEY,
  type CoverageProvided,
  INTERCEPT_KEY,
  type InterceptProvided,
  type OnUnhandledRequest,
  OPTIONS_KEY,
  SESSIONS_KEY,
  type SessionsProvided,
} from './provided.js';

// Type-only: brings the `inject('mockpoint')` and matcher typings to any program that loads the config.
export type { RequestMatch } from './matchers.js';
export type { MockpointProvided, OnUnhandledRequest } from './provided.js';

/** Options of test sessions ({@link MockpointPluginOptions.sessions}). */
export interface MockpointSessionsOptions {
  /**
   * A request in a test's session that reached no endpoint or route: `'error'`
   * fails that test (and no other), naming each such request and the daemon's
   * nearest miss; `'warn'` prints the same; `'off'` does not look.
   * @default 'error'
   */
  onUnhandledRequest?: OnUnhandledRequest;
  /**
   * The daemon deletes a session's namespace after this long without a request:
   * the safety net for a run that crashed before deleting it.
   * @default 600000 (10 minutes)
   */
  ttlMs?: number;
}

/** Options of the coverage report ({@link MockpointPluginOptions.coverage}). */
export interface MockpointCoverageOptions {
  /** Fail the run (`DEAD_MOCKS`) when a route was never hit. @default false */
  failOnDead?: boolean;
  /** Also write the result as JSON to this file, relative to the Vitest root. @default undefined */
  file?: string;
}

/** Server options that can cross into the global setup (plain data only). */
export type SharedMockServerOptions = Pick<
  CreateMockServerOptions,
  'store' | 'dir' | 'journalSize' | 'maxDelayMs' | 'maxBodyBytes' | 'config' | 'deliveryAllowHosts' | 'hosts'
>;

/** Options for {@link mockpoint}. */
export interface MockpointPluginOptions {
  /**
   * Start one instance for the whole run (global setup) and give tests its URL as
   * `inject('mockpoint')`. `false` leaves instances to each file (the `test`
   * fixture or `useMockServer()`), and the plugin then only adds the matchers.
   * @default true
   * @example mockpoint({ server: { store: 'level' } })
   */
  server?: boolean | SharedMockServerOptions;
  /**
   * A mock file (`mockpoint.yaml` or `.json`, relative to the Vitest root) the
   * run's instance starts with, and starts with again on every watch-mode rerun.
   * Shorthand for `server: { config }`.
   * @default undefined
   * @example mockpoint({ config: 'mockpoint.yaml' })
   */
  config?: string;
  /** Register the matchers (`toHaveBeenRequested`, `toHaveBeenRequestedTimes`, `toHaveBeenRequestedWith`, `toHaveBeenRequestedWithin`, `toHaveState`). @default true */
  matchers?: boolean;
  /**
   * Origins whose requests from the tests (the global `fetch`, `node:http`,
   * `node:https`) go to the run's instance, with no base URL change; each host
   * picks its endpoint through `server.hosts` (docs/intercept.md). Needs the
   * run's instance (`server` not `false`).
   * @default [] (nothing intercepted)
   * @example mockpoint({ server: { hosts: { 'api.github.com': 'github' } }, intercept: ['https://api.github.com'] })
   */
  intercept?: readonly string[];
  /** With `intercept`: other hosts go to the network, or fail with `HOST_NOT_MOCKED`. @default 'network' */
  interceptUnmatched?: 'network' | 'error';
  /**
   * Test sessions (docs/sessions.md): one daemon for the run (this run's
   * instance, or the one at `MOCKPOINT_URL`), and every test a namespace of
   * its own in it, created when the test first uses it (the `session`
   * fixture, `currentSession()`, an intercepted request, a request to the
   * daemon's plain URL) and deleted after it. Tests in parallel files and
   * `test.concurrent` use the same endpoint names and never see each other's;
   * the test process's requests to the daemon's plain URL carry the current
   * test's session. Needs the run's instance (`server` not `false`).
   * @default false
   * @example mockpoint({ sessions: { onUnhandledRequest: 'warn' } })
   */
  sessions?: boolean | MockpointSessionsOptions;
  /**
   * At the end of the run, print the routes no request hit (dead mocks), per
   * endpoint (docs/coverage.md): with `sessions`, added up over every test's
   * session (each read before it is deleted); without, the run's instance's.
   * Needs the run's instance (`server` not `false`).
   * @default false
   * @example mockpoint({ sessions: true, coverage: { failOnDead: true, file: 'mockpoint-coverage.json' } })
   */
  coverage?: boolean | MockpointCoverageOptions;
}

/** Ten minutes: a session's namespace outlives no crashed run by more. */
const SESSION_TTL_MS = 600_000;

// The entry points sit next to this file: dist/*.js when built, src/*.ts from source.
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const sibling = (name: string) => fileURLToPath(new URL(`./${name}${EXTENSION}`, import.meta.url));

/**
 * The mockpoint Vitest plugin.
 * @example
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import { mockpoint } from '@mockpoint/vitest/plugin'
 * export default defineConfig({ plugins: [mockpoint()] })
 */
export function mockpoint(options: MockpointPluginOptions = {}): Plugin {
  const server = options.server ?? true;
  const matchers = options.matchers ?? true;
  return {
    name: 'mockpoint',
    config() {
      const test: { globalSetup?: string[]; setupFiles?: string[]; provide?: Record<string, unknown> } = {};
      if (server !== false) {
        test.globalSetup = [sibling('global-setup')];
        const shared: SharedMockServerOptions = server === true ? {} : { ...server };
        if (options.config !== undefined) shared.config = options.config;
        test.provide = { [OPTIONS_KEY]: shared };
      }
      if (matchers) test.setupFiles = [sibling('setup')];
      if (options.sessions !== undefined && options.sessions !== false) {
        if (server === false) {
          throw new MockServerError(
            'INVALID_SETUP',
            "mockpoint({ sessions }) needs the run's instance: leave `server` on",
          );
        }
        const chosen = options.sessions === true ? {} : options.sessions;
        const provided: SessionsProvided = {
          onUnhandledRequest: chosen.onUnhandledRequest ?? 'error',
          ttlMs: chosen.ttlMs ?? SESSION_TTL_MS,
          hosts: { ...(server === true ? {} : server.hosts) },
        };
        // Before the intercept's setup file: a test's hooks all run inside its session.
        test.setupFiles = [...(test.setupFiles ?? []), sibling('session-setup')];
        (test.provide as Record<string, unknown>)[SESSIONS_KEY] = provided;
      }
      if (options.coverage !== undefined && options.coverage !== false) {
        if (server === false) {
          throw new MockServerError(
            'INVALID_SETUP',
            "mockpoint({ coverage }) needs the run's instance: leave `server` on",
          );
        }
        const chosen = options.coverage === true ? {} : options.coverage;
        const provided: CoverageProvided = {
          failOnDead: chosen.failOnDead ?? false,
          sessions: options.sessions !== undefined && options.sessions !== false,
        };
        if (chosen.file !== undefined) provided.file = chosen.file;
        (test.provide as Record<string, unknown>)[COVERAGE_KEY] = provided;
      }
      if (server !== false && options.intercept !== undefined && options.intercept.length > 0) {
        test.setupFiles = [...(test.setupFiles ?? []), sibling('intercept-setup')];
        const provided: InterceptProvided = {
          origins: [...options.intercept],
          unmatched: options.interceptUnmatched ?? 'network',
        };
        (test.provide as Record<string, unknown>)[INTERCEPT_KEY] = provided;
      }
      return { test };
    },
  };
}
