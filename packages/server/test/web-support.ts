/**
 * Shared parts of the web page tests: the built page, a real daemon
 * (in-process `startServer` on 127.0.0.1 port 0, memory store), Debian's
 * Chromium driven by playwright-core, a path-prefix proxy and a fake Sentry
 * collector. Everything listens on 127.0.0.1 only.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../src/start-server.js';

/** The built page (`pnpm build` → `scripts/build-web.mjs`). */
export const WEB_ROOT = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** Debian's Chromium; never downloaded by these tests. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots go here (gitignored) for a person to look at. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-artifacts/web/', import.meta.url));

/** The README's and docs/web.md's picture of the page: rewritten only when asked (see {@link docsScreenshot}). */
export const DOCS_SCREENSHOT = fileURLToPath(new URL('../../../docs/screenshot.png', import.meta.url));

/**
 * Copies a screenshot the tests took to docs/screenshot.png when
 * `MOCKPOINT_WRITE_SCREENSHOT=1` (docs/web.md#screenshots); otherwise does
 * nothing, so a test run never changes the git tree. Returns whether it wrote.
 */
export async function docsScreenshot(path: string): Promise<boolean> {
  if (process.env.MOCKPOINT_WRITE_SCREENSHOT !== '1') return false;
  await copyFile(path, DOCS_SCREENSHOT);
  return true;
}

/** How two PNG pictures differ: each one's size, and the share of pixels of the first that differ. */
export interface PictureDifference {
  sizes: [string, string];
  /** Pixels where a channel differs by more than 48 of 255, over all pixels (1 when the sizes differ). */
  changed: number;
}

/**
 * Compares two PNG pictures in Chromium (a canvas of each, pixel by pixel), so
 * that no image library is needed: `changed` is the share of pixels that differ
 * visibly (a channel by more than 48 of 255).
 */
export async function comparePictures(page: Page, a: Buffer, b: Buffer): Promise<PictureDifference> {
  const other = await page.context().newPage();
  try {
    return await other.evaluate(
      async ([first, second]) => {
        const load = async (base64: string) => {
          const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
          context.drawImage(bitmap, 0, 0);
          return context.getImageData(0, 0, bitmap.width, bitmap.height);
        };
        const [x, y] = [await load(first), await load(second)];
        const sizes: [string, string] = [`${x.width}x${x.height}`, `${y.width}x${y.height}`];
        if (sizes[0] !== sizes[1]) return { sizes, changed: 1 };
        let changed = 0;
        for (let i = 0; i < x.data.length; i += 4) {
          for (let c = 0; c < 3; c++) {
            if (Math.abs((x.data[i + c] as number) - (y.data[i + c] as number)) > 48) {
              changed++;
              break;
            }
          }
        }
        return { sizes, changed: changed / (x.width * x.height) };
      },
      [a.toString('base64'), b.toString('base64')] as const,
    );
  } finally {
    await other.close();
  }
}

/** Throws a clear error when the page has not been built. */
export function assertWebBuilt(): void {
  if (!existsSync(`${WEB_ROOT}index.html`)) {
    throw new Error(`${WEB_ROOT}index.html is missing: run \`pnpm build\` first (these tests serve the built page)`);
  }
}

/** Throws a clear error when Chromium is missing: the browser tests fail, never skip. */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install chromium\` (or set CHROMIUM_PATH). ` +
        'The web page tests drive a real browser and never download one.',
    );
  }
}

/** Starts a daemon serving the built page, in memory, on 127.0.0.1 and a free port. */
export async function startWebDaemon(options: StartServerOptions = {}): Promise<RunningServer> {
  assertWebBuilt();
  return startServer({ port: 0, host: '127.0.0.1', memory: true, webRoot: WEB_ROOT, shutdownGraceMs: 100, ...options });
}

/** Launches headless Chromium. */
export async function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--disable-gpu', '--disable-quic'] });
}

let launched: Promise<Browser> | undefined;

/**
 * The worker's browser, launched on first use: the browser files run in the `server-web` project
 * (packages/server/vitest.web.config.ts), whose workers run file after file without starting a new
 * process, so one Chromium serves every browser test file of a worker. Each file works in contexts
 * of its own (fresh storage, cookies and cache), closed after it by {@link closeBrowser}. Playwright
 * ends the browser when the worker's process ends (it handles the process's exit and SIGTERM).
 * Called from each test (or `beforeEach`), so a missing Chromium fails every browser test with the
 * install message rather than leaving them skipped.
 */
export function useBrowser(): Promise<Browser> {
  launched ??= launchBrowser().then((browser) => {
    // A browser that crashed or was closed is launched again for the next file.
    browser.once('disconnected', () => {
      launched = undefined;
    });
    return browser;
  });
  return launched;
}

/**
 * Ends the test file's use of the worker's browser ({@link useBrowser}): closes every context it
 * has (the file's pages and their storage), so the next file starts from none; the browser itself
 * stays for the worker's next file. Call it after the file's last test.
 */
export async function closeBrowser(): Promise<void> {
  const browser = await launched?.catch(() => undefined);
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** A page plus every problem it reported (uncaught errors, console errors) and every URL it requested. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  requests: string[];
}

/** Opens a page in a fresh context that records its errors and requests. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; clipboard?: boolean } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every answer >= 400 (the API's 404/409/413 are expected); bad static answers are caught below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('request', (request) => requests.push(request.url()));
  page.on('requestfailed', (request) => {
    if (!request.url().includes('/api/')) problems.push(`request failed: ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !/\/(api|endpoint)\//.test(response.url())) {
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
    }
  });
  return { page, problems, requests };
}

/** A test file's daemon and browser pages, from {@link useWebTest}. */
export interface WebTest {
  /** The daemon (started before the file's first test). */
  readonly server: RunningServer;
  /**
   * Opens a page ({@link openPage}); it is closed after the test, and the test
   * fails if the page reported a problem (an uncaught error, a console error, a
   * static file that did not load) that `allow` does not match.
   */
  open(options?: Parameters<typeof openPage>[1]): Promise<WatchedPage>;
}

/**
 * The set-up every web page test file shares: a daemon ({@link startWebDaemon}
 * with `options`) for the file, pages closed and checked for problems after
 * each test, then the browser and the daemon stopped. Call it at the top of a file.
 */
export function useWebTest(options: StartServerOptions = {}, check: { allow?: RegExp } = {}): WebTest {
  let server: RunningServer | undefined;
  const pages: WatchedPage[] = [];
  beforeAll(async () => {
    server = await startWebDaemon(options);
  });
  afterEach(async () => {
    for (const watched of pages.splice(0)) {
      await watched.page.context().close();
      expect(watched.problems.filter((problem) => !check.allow?.test(problem))).toEqual([]);
    }
  });
  afterAll(async () => {
    await closeBrowser();
    await server?.close();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the web daemon has not started (useWebTest runs it in beforeAll)');
      return server;
    },
    async open(pageOptions) {
      const watched = await openPage(await useBrowser(), pageOptions);
      pages.push(watched);
      return watched;
    },
  };
}

/** Saves a screenshot under test-artifacts/web/. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = `${ARTIFACTS_DIR}${name}.png`;
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A running path-prefix proxy. */
export interface PrefixProxy {
  /** The page's URL through the proxy, e.g. `http://127.0.0.1:40000/mock/`. */
  url: string;
  /** Every path the proxy was asked for. */
  paths: string[];
  /** Every request's path and its `Last-Event-ID` header, if any. */
  asked: { path: string; lastEventId: string | undefined }[];
  /** Cuts every answer still being sent (an open event stream, a held long-poll): a network hiccup. */
  cut(): void;
  close(): Promise<void>;
}

/** Options for {@link startPrefixProxy}. */
export interface PrefixProxyOptions {
  /** Paths (after the prefix) the proxy refuses with a 404 of its own, as a proxy configured without them would. */
  refuse?: RegExp;
  /** Paths (after the prefix) the proxy takes and never answers, as a proxy that buffers an event stream seems to. */
  hold?: RegExp;
}

/**
 * A small reverse proxy: `/mock/<rest>` is forwarded to `<target>/<rest>`,
 * `/mock` is redirected to `/mock/` (as a real proxy must be configured to do),
 * anything else is 404 — so an absolute URL in the page would break.
 */
export async function startPrefixProxy(
  target: string,
  prefix = '/mock',
  options: PrefixProxyOptions = {},
): Promise<PrefixProxy> {
  const upstream = new URL(target);
  const paths: string[] = [];
  const asked: PrefixProxy['asked'] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    paths.push(path);
    const lastEventId = req.headers['last-event-id'];
    asked.push({ path, lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined });
    if (options.refuse?.test(path.slice(prefix.length))) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
      return;
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    if (options.hold?.test(path.slice(prefix.length))) return;
    if (path === prefix || path.startsWith(`${prefix}?`)) {
      res.writeHead(301, { location: `${prefix}/${path.slice(prefix.length)}` }).end();
      return;
    }
    if (!path.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not behind this proxy');
      return;
    }
    const forward = httpRequest(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: path.slice(prefix.length),
        headers: {
          ...req.headers,
          host: upstream.host,
          'x-forwarded-host': req.headers.host,
          'x-forwarded-prefix': prefix,
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The browser went away (e.g. a long-poll cancelled): drop the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    paths,
    asked,
    cut: () => {
      for (const res of open) res.destroy();
    },
    close: () => closeServer(server),
  };
}

/** Polls `check` every 50 ms until it returns a value other than `undefined`/`false`, or throws after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined || value === false)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/**
 * `expect.poll` with a deadline fit for a loaded 2-core machine (Vitest's default is 1 s).
 * The deadline bounds a wait for the page; it is not the behaviour under test.
 */
export function poll<T>(check: () => T | Promise<T>): ReturnType<typeof expect.poll<T>> {
  return expect.poll(check, { timeout: 10_000, interval: 50 });
}

/** The layout shifts a page reported (not those right after input), with what moved. */
export interface LayoutShifts {
  /** The sum of their values: the page's cumulative layout shift (CLS) since it loaded. */
  value: number;
  /** One line per shift: its value, the route and the elements that moved. */
  shifts: string[];
}

/**
 * Records every layout shift of the page from its next navigation on
 * (Chromium's `layout-shift` performance entries); read them with {@link layoutShifts}.
 */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
    const w = window as unknown as { layoutShifts: { value: number; shifts: string[] } };
    w.layoutShifts = { value: 0, shifts: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        w.layoutShifts.value += entry.value;
        const nodes = entry.sources.map((s) =>
          s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : '',
        );
        w.layoutShifts.shifts.push(`${entry.value.toFixed(4)} ${location.hash} ${nodes.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** What {@link watchLayoutShifts} recorded so far. */
export function layoutShifts(page: Page): Promise<LayoutShifts> {
  return page.evaluate(() => {
    const recorded = (window as unknown as { layoutShifts: LayoutShifts }).layoutShifts;
    return { value: recorded.value, shifts: [...recorded.shifts] };
  });
}

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** axe-core's violations (any impact) on the page as it is now, as `impact rule: help (targets)` lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } }).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: Violation[] };
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes }));
  });
  return found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** The controls in view smaller than 24×24 CSS px (WCAG 2.2 target size, minimum), as `tag "text" w×h`. */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], summary, input, select, textarea')]
      // Shown (the skip link waits off-screen until focused, then is large enough).
      .filter(
        (el) =>
          el.offsetParent !== null &&
          getComputedStyle(el).visibility !== 'hidden' &&
          el.getBoundingClientRect().right > 0,
      )
      .map((el) => {
        const r = el.getBoundingClientRect();
        return {
          what: `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`,
          w: r.width,
          h: r.height,
        };
      })
      .filter((t) => t.w < 24 || t.h < 24)
      .map((t) => `${t.what} ${t.w.toFixed(0)}×${t.h.toFixed(0)}`),
  );
}
