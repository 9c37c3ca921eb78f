/**
 * Browser error reporting: with CLIENT_REPORTING_DSN the page loads the Sentry
 * chunk and a thrown error reaches the (fake) collector; without it no Sentry
 * code is requested and nothing is sent.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { type SentryCollector, startSentryCollector } from './helpers/sentry-collector.js';
import { closeBrowser, eventually, openPage, poll, startWebDaemon, useBrowser } from './web-support.js';

let collector: SentryCollector;
let server: RunningServer | undefined;

beforeAll(async () => {
  collector = await startSentryCollector();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await closeBrowser();
  await collector?.close();
});

function messages(event: Record<string, unknown>): string[] {
  const values = (event.exception as { values?: { type?: string; value?: string }[] } | undefined)?.values ?? [];
  return values.map((v) => `${v.type}: ${v.value}`);
}

describe('with CLIENT_REPORTING_DSN', () => {
  test('an uncaught error in the page reaches the collector', async () => {
    server = await startWebDaemon({ clientReportingDsn: collector.dsn });
    const { page, requests } = await openPage(await useBrowser());
    await page.goto(`${server.url}/`);
    await poll(() => page.locator('#version').textContent()).toMatch(/^v/);
    await eventually(
      () => requests.some((url) => /\/static\/reporting\.[A-Z2-7]{8}\.js$/.test(url)),
      5000,
      'the Sentry chunk',
    );
    // Sentry is initialised once its chunk has run.
    await eventually(() => page.evaluate(() => '__SENTRY__' in window), 5000, 'Sentry to start');

    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom');
      });
    });
    const event = await eventually(
      () => collector.events().find((e) => messages(e).includes('Error: boom')),
      10_000,
      'the boom event at the collector',
    );
    expect(event.release).toMatch(/^mockpoint@\d+\.\d+\.\d+/);
    expect((event.request as { url?: string } | undefined)?.url).toBe(`${server.url}/`);
    expect(collector.envelopes.every((e) => e.path.startsWith('/api/1/envelope/'))).toBe(true);
    await page.context().close();
  });
});

describe('without CLIENT_REPORTING_DSN', () => {
  test('no Sentry code is requested and nothing is sent', async () => {
    server = await startWebDaemon();
    const before = collector.hits;
    const { page, requests } = await openPage(await useBrowser());
    await page.goto(`${server.url}/`);
    await poll(() => page.locator('#version').textContent()).toMatch(/^v/);
    expect(await page.locator('meta[name="mockpoint-reporting-dsn"]').count()).toBe(0);

    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom');
      });
    });
    // Give a (wrongly) loaded SDK ample time to send; then nothing may have arrived.
    await page.waitForTimeout(1500);
    expect(collector.hits).toBe(before);
    expect(requests.filter((url) => url.includes('reporting.'))).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${server?.url}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(await page.evaluate(() => '__SENTRY__' in window)).toBe(false);
    await page.context().close();
  });
});
