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
import { INTERCEPT_KEY, type InterceptProvided, OPTIONS_KEY } from './provided.js';

// Type-only: brings the `inject('mockpoint')` and matcher typings to any program that loads the config.
export type { RequestMatch } from './matchers.js';
export type { MockpointProvided } from './provided.js';

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
}

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
