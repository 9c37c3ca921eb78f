/**
 * The web page at `/` and its assets under `/static/`: correct MIME types,
 * long-lived caching for content-hashed names, 404 for anything missing and no
 * way out of the asset directory.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { MockpointError } from '@mockpoint/core';
import type { Hono } from 'hono';

/** Options for {@link registerWebRoutes}. */
export interface WebOptions {
  /** Directory holding `index.html` and `static/`. */
  root: string;
  /** Injected into the page so it reports its errors; absent = no reporting code runs. */
  clientReportingDsn?: string | undefined;
}

const MIME_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
/** A file name like `app.3f9a1c2b.js` is content-hashed and never changes. */
const HASHED_NAME = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function assetNotFound(path: string): MockpointError {
  return new MockpointError('ROUTE_NOT_FOUND', `no static asset at ${path}`);
}

export function registerWebRoutes(app: Hono, options: WebOptions): void {
  let page: Promise<string> | undefined;
  const renderPage = async () => {
    const html = await readFile(join(options.root, 'index.html'), 'utf8');
    const meta = options.clientReportingDsn
      ? `<meta name="mockpoint-reporting-dsn" content="${escapeAttribute(options.clientReportingDsn)}">`
      : '';
    return html.replace('</head>', `${meta}</head>`);
  };

  app.get('/', async (c) => {
    page ??= renderPage();
    return c.html(await page, 200, { 'cache-control': 'no-cache' });
  });

  app.get('/static/*', async (c) => {
    const rest = c.req.path.slice('/static/'.length);
    let segments: string[];
    try {
      segments = rest.split('/').map((s) => decodeURIComponent(s));
    } catch {
      throw assetNotFound(c.req.path);
    }
    // Only plain names: no `..`, no dot-files, no encoded separators.
    if (segments.length === 0 || !segments.every((s) => SAFE_SEGMENT.test(s))) throw assetNotFound(c.req.path);
    const file = join(options.root, 'static', ...segments);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw assetNotFound(c.req.path);
    }
    const name = segments.at(-1) as string;
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': MIME_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': HASHED_NAME.test(name) ? IMMUTABLE : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
  });
}
