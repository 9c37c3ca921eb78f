/**
 * The setup file the `mockpoint({ sessions })` plugin option adds: every test of
 * the file runs as the current test of a session of its own (a namespace in the
 * run's daemon, opened when the test first uses it, with the run's mock file and
 * hosts), checked for unhandled requests and deleted after the test. The
 * file's requests to the daemon's plain URLs carry the current test's session
 * (daemon-carry.ts); the hook is removed after the file.
 *
 * @module
 */
import { loadMockFile } from '@mockpoint/core/files';
import { afterAll, aroundEach, beforeAll, inject } from 'vitest';
import { carrySessionToDaemon } from './daemon-carry.js';
import {
  COVERAGE_DIR_KEY,
  MOCK_FILE_KEY,
  PROVIDE_KEY,
  SESSIONS_KEY,
  type SessionsProvided,
  TOKEN_KEY,
} from './provided.js';
import { enableSessions, runInSession, type SessionSettings, sessionOfRequest } from './session.js';
import { NamespacePool } from './session-pool.js';

// The plugin's own calls (making, reading and deleting sessions, the session client) go by the
// fetch this file found, before the hooks below: they name their namespace already, and skip the
// hook's cost (about five requests a test).
const unhooked = globalThis.fetch;
const settings: SessionSettings = {
  ...(inject(SESSIONS_KEY as never) as SessionsProvided),
  url: inject(PROVIDE_KEY).url,
  token: (inject(TOKEN_KEY as never) as string | undefined) ?? undefined,
  fetch: (request) => unhooked(request),
};
const mockFile = inject(MOCK_FILE_KEY as never) as string | undefined;
if (mockFile !== undefined) settings.mockFile = loadMockFile(mockFile);
const coverageDir = inject(COVERAGE_DIR_KEY as never) as string | undefined;
if (coverageDir !== undefined) settings.coverageDir = coverageDir;
// The file's sessions are opened in batches; what no test took is deleted after the file.
settings.pool = new NamespacePool(settings, settings.ttlMs);
enableSessions();

aroundEach(async (runTest) => {
  await runInSession(settings, runTest);
});

let stopCarrying: (() => void) | undefined;

beforeAll(() => {
  stopCarrying = carrySessionToDaemon(settings.url, async () => (await sessionOfRequest())?.name);
});

afterAll(async () => {
  stopCarrying?.();
  await settings.pool?.drain();
});
