/**
 * What the per-run global setup hands to tests, and its `inject()` typing.
 *
 * @module
 */

/** The value of `inject('mockpoint')`. Plain data: provided values must be serializable. */
export interface MockpointProvided {
  /**
   * Base URL of the per-run instance, e.g. `http://127.0.0.1:41234`.
   * @example connectMockServer(inject('mockpoint'))
   */
  url: string;
}

/** The `provide`/`inject` key of the per-run instance. */
export const PROVIDE_KEY = 'mockpoint';
/** Key under which the plugin passes its server options to the global setup (internal). */
export const OPTIONS_KEY = 'mockpoint:server-options';
export const INTERCEPT_KEY = 'mockpoint:intercept';
/** Key under which the plugin passes the sessions options to each worker (internal). */
export const SESSIONS_KEY = 'mockpoint:sessions';
/** Key under which the global setup passes the mock file every session starts with, as an absolute path (internal). */
export const MOCK_FILE_KEY = 'mockpoint:session-mock-file';
/** Key under which the plugin passes the coverage options to the global setup (internal). */
export const COVERAGE_KEY = 'mockpoint:coverage';
/** Key under which the global setup passes the folder each session's coverage is written to (internal). */
export const COVERAGE_DIR_KEY = 'mockpoint:coverage-dir';
/** Key under which the global setup passes an external daemon's admin token to each worker (internal). */
export const TOKEN_KEY = 'mockpoint:admin-token';

/** What to do with requests of a test's session that reached no endpoint or route. */
export type OnUnhandledRequest = 'error' | 'warn' | 'off';

/** What the plugin's `sessions` option gives each worker (plain data). */
export interface SessionsProvided {
  onUnhandledRequest: OnUnhandledRequest;
  /** The namespace's idle TTL: the daemon deletes it after this long without a request. */
  ttlMs: number;
  /** The run's host mappings (`server.hosts`), applied to every session: host → endpoint name. */
  hosts: Record<string, string>;
}

/** What the plugin's `coverage` option gives the global setup (plain data). */
export interface CoverageProvided {
  failOnDead: boolean;
  /** Where to write the result as JSON, relative to the Vitest root. */
  file?: string;
  /** Whether the coverage is read from each test's session (else from the run's instance). */
  sessions: boolean;
}

/** What the plugin's `intercept` option gives each worker. */
export interface InterceptProvided {
  origins: string[];
  unmatched: 'network' | 'error';
}

declare module 'vitest' {
  /** Values provided by global setups; `inject('mockpoint')` is typed from here. */
  export interface ProvidedContext {
    /** Set by the `mockpoint()` plugin's global setup (`@mockpoint/vitest/global-setup`). */
    mockpoint: MockpointProvided;
  }
}
