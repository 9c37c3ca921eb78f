// SERVER_REPORTING_DSN: unexpected errors reach a (fake) Sentry collector when it
// is set; without it nothing is sent and @sentry/node is never even loaded.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '@mockpoint/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReporter } from '../src/reporting.js';
import { startServer } from '../src/start-server.js';
import {
  assertBuilt,
  killAll,
  makeTempDir,
  ON_BUN,
  removeTempDirs,
  requestJson,
  startDaemon,
} from './helpers/daemon.js';
import { type SentryCollector, startSentryCollector } from './helpers/sentry-collector.js';

const PROBE = fileURLToPath(new URL('./fixtures/sentry-probe.mjs', import.meta.url));
const INTERNAL_BODY = { success: false, error: { code: 'INTERNAL', message: 'internal error; see the server log' } };

/** A store whose reads fail with a plain (unexpected) Error carrying `marker`. */
class FailingStore extends MemoryStore {
  constructor(readonly marker: string) {
    super();
  }
  override async get(): Promise<never> {
    throw new Error(`disk on fire ${this.marker}`);
  }
}

let collector: SentryCollector;
beforeAll(async () => {
  collector = await startSentryCollector();
});
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await killAll();
});
afterAll(async () => {
  await collector.close();
  await removeTempDirs();
});

function eventsMentioning(marker: string) {
  return collector.events().filter((event) => JSON.stringify(event).includes(marker));
}

// In-process, one Sentry client per worker: the test without a DSN runs first.
describe('in process', () => {
  it('without a DSN: no reporter, the 500 is standard, and nothing is sent (not even to SENTRY_DSN)', async () => {
    expect(await createReporter(undefined, '0.0.0')).toBeUndefined();
    expect(await createReporter('', '0.0.0')).toBeUndefined();
    // Were the SDK initialised without a DSN, it would fall back to SENTRY_DSN and report here.
    vi.stubEnv('SENTRY_DSN', collector.dsn);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await startServer({ port: 0, host: '127.0.0.1', store: new FailingStore('no-dsn-marker') });
    try {
      expect(await requestJson(`${server.url}/endpoint/anything`)).toEqual({ status: 500, body: INTERNAL_BODY });
      expect(logged).toHaveBeenCalledWith('mockpoint: unexpected error:', expect.any(Error));
    } finally {
      await server.close();
    }
    expect(collector.envelopes).toEqual([]);
  });

  it('with a DSN: the 500 is standard and the collector receives the event with the message, the URL without its query', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const marker = `marker-${process.pid}-${Date.now()}`;
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      store: new FailingStore(marker),
      serverReportingDsn: collector.dsn,
    });
    try {
      expect(await requestJson(`${server.url}/endpoint/boom?token=s3cret-${marker}`)).toEqual({
        status: 500,
        body: INTERNAL_BODY,
      });
    } finally {
      await server.close(); // flushes the reporter
    }
    const [event, ...more] = eventsMentioning(marker);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      release: expect.stringMatching(/^mockpoint@\d+\.\d+\.\d+/),
      exception: { values: [{ type: 'Error', value: `disk on fire ${marker}` }] },
      contexts: { request: { method: 'GET', url: expect.stringMatching(/\/endpoint\/boom$/) } },
    });
    expect(JSON.stringify(event)).not.toContain('s3cret');
    expect(collector.envelopes.some((envelope) => envelope.path.startsWith('/api/1/envelope/'))).toBe(true);
  });
});

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the probe is a Node `--import` hook.
describe.skipIf(ON_BUN)('the daemon', () => {
  beforeAll(() => assertBuilt());

  /** Runs a daemon with the probe loaded, serves one request, stops it; resolves the `@sentry/*` modules it resolved. */
  async function sentryModulesLoaded(env: Record<string, string>): Promise<{ modules: string[]; startLine: string }> {
    const dir = await makeTempDir('mockpoint-probe-');
    const probeFile = join(dir, 'resolved.txt');
    const daemon = await startDaemon({
      args: ['--memory'],
      nodeArgs: ['--import', PROBE],
      env: { ...env, MOCKPOINT_TEST_SENTRY_PROBE: probeFile },
    });
    expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
    expect((await daemon.stop()).code).toBe(0);
    const modules = existsSync(probeFile) ? (await readFile(probeFile, 'utf8')).split('\n').filter(Boolean) : [];
    return { modules, startLine: daemon.startLine };
  }

  it('with SERVER_REPORTING_DSN it loads @sentry/node and says so (the probe works)', async () => {
    const { modules, startLine } = await sentryModulesLoaded({ SERVER_REPORTING_DSN: collector.dsn });
    expect(modules).toContain('@sentry/node');
    expect(startLine).toContain('server error reporting on');
  });

  it('without SERVER_REPORTING_DSN it never loads @sentry/node and sends nothing', async () => {
    const before = collector.envelopes.length;
    const { modules, startLine } = await sentryModulesLoaded({ SENTRY_DSN: collector.dsn });
    expect(modules).toEqual([]);
    expect(startLine).not.toContain('reporting');
    expect(collector.envelopes.length).toBe(before);
  });
});
