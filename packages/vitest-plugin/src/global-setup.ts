/**
 * `@mockpoint/vitest/global-setup`: one instance for the whole run. It starts in
 * Vitest's main process, its URL reaches tests as `inject('mockpoint')`, it is
 * reset before every watch-mode rerun and closed when Vitest exits. The
 * `mockpoint()` plugin registers it; it can also be listed in `test.globalSetup`.
 *
 * @module
 */
import { resolve } from 'node:path';
import { applyMockFile, loadMockFile } from '@mockpoint/core/files';
import type { TestProject } from 'vitest/node';
import { runCoverage } from './coverage-gather.js';
import { type CreateMockServerOptions, createMockServer } from './create-mock-server.js';
import { MockServerError } from './errors.js';
import { MOCK_FILE_KEY, OPTIONS_KEY, PROVIDE_KEY, SESSIONS_KEY, TOKEN_KEY } from './provided.js';

/** The server options the plugin passed along (plain data), or none. */
function serverOptions(project: TestProject): CreateMockServerOptions {
  const provided = project.config.provide as Record<string, unknown> | undefined;
  const options = (provided?.[OPTIONS_KEY] as CreateMockServerOptions | undefined) ?? {};
  // A mock file is named relative to the Vitest root, wherever Vitest was started from.
  if (options.config !== undefined) return { ...options, config: resolve(project.config.root, options.config) };
  return options;
}

/**
 * With sessions, `MOCKPOINT_URL` names a daemon the run shares instead of an
 * instance of its own (`MOCKPOINT_ADMIN_TOKEN` its admin token, if it has one).
 */
async function useExternal(
  project: TestProject,
  url: string,
  coverage: ReturnType<typeof runCoverage>,
): Promise<() => Promise<void>> {
  const base = url.replace(/\/+$/, '');
  const health = await fetch(`${base}/api/health`).catch((error: unknown) => error as Error);
  if (health instanceof Error || !health.ok) {
    throw new MockServerError(
      'INVALID_SETUP',
      `MOCKPOINT_URL=${url}: no mockpoint daemon answers there (${health instanceof Error ? health.message : `GET /api/health: ${health.status}`})`,
    );
  }
  project.provide(PROVIDE_KEY, { url: base });
  const token = process.env.MOCKPOINT_ADMIN_TOKEN;
  if (token) project.provide(TOKEN_KEY as never, token as never);
  // Shared with others: nothing to reset or close; each test deletes its own session.
  return async () => {
    await coverage?.finish(base, token || undefined);
  };
}

/**
 * Starts the per-run instance and provides `{ url }` under `'mockpoint'`.
 * @returns the teardown, which closes the instance.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (typeof project?.provide !== 'function') {
    throw new MockServerError('INVALID_SETUP', 'the global setup needs Vitest >= 4.1 (it receives the test project)');
  }
  const sessions = (project.config.provide as Record<string, unknown> | undefined)?.[SESSIONS_KEY] !== undefined;
  const options = serverOptions(project);
  // Every session starts with the mock file, read by each worker.
  if (sessions && options.config !== undefined) project.provide(MOCK_FILE_KEY as never, options.config as never);
  const coverage = runCoverage(project);
  const external = process.env.MOCKPOINT_URL;
  if (sessions && external) return useExternal(project, external, coverage);
  const server = await createMockServer(options);
  project.provide(PROVIDE_KEY, { url: server.url });
  // Watch mode keeps this process (and the instance) between runs: start each rerun empty.
  project.onTestsRerun(async () => {
    await coverage?.reset();
    await server.reset();
    // …with the mock file as it is now.
    if (options.config !== undefined) {
      await applyMockFile(loadMockFile(options.config), { url: server.url, fetch: (request) => fetch(request) });
    }
  });
  return async () => {
    try {
      await coverage?.finish(server.url);
    } finally {
      await server.close();
    }
  };
}
