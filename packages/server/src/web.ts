/**
 * The web page at `/` and its assets under `/static/`: correct MIME types,
 * long-lived caching for content-hashed names, 404 for anything missing and no
 * way out of the asset directory.
 *
 * The page is built by `scripts/build-web.mjs` into `dist/web`. Every URL in it
 * is relative, so it works behind a reverse proxy under a path prefix (the proxy
 * must redirect `/prefix` to `/prefix/`).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { MockpointError } from '@mockpoint/core';
import type { Hono } from 'hono';

/** Options for {@link registerWebRoutes}. */
export interface WebOptions {
  /** Directory holding `index.html` and `static/` (the build's `dist/web`). */
  root: string;
  /**
   * Sentry DSN the page reports its errors to, injected as
   * `<meta name="mockpoint-reporting-dsn">`. It replaces a DSN baked in at build
   * time; when both are absent the page loads no reporting code.
   */
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
/**
 * A content-hashed name never changes: `app.ULRKPLRQ.js` (esbuild's 8-character
 * base32 hash) or `app.3f9a1c2b.js` (lower-case hex). Source maps are not.
 */
export const HASHED_NAME = /\.(?:[A-Z2-7]{8}|[0-9a-f]{8,})\.(?:js|mjs|css|svg|png|ico|woff2)$/;
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DSN_META = /<meta name="mockpoint-reporting-dsn" content="([^"]*)">\n?/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function assetNotFound(path: string): MockpointError {
  return new MockpointError('ROUTE_NOT_FOUND', `no static asset at ${path}`);
}

/** The origin the page may send error reports to, for its Content-Security-Policy. */
function reportingOrigin(dsn: string | undefined): string {
  if (!dsn) return '';
  try {
    return ` ${new URL(dsn).origin}`;
  } catch {
    return '';
  }
}

interface RenderedPage {
  html: string;
  etag: string;
  csp: string;
}

/** Reads `index.html` and puts the reporting DSN in it (the start-time one wins over a baked one). */
async function renderPage(options: WebOptions): Promise<RenderedPage> {
  let html: string;
  try {
    html = await readFile(join(options.root, 'index.html'), 'utf8');
  } catch (error) {
    throw new MockpointError(
      'INTERNAL',
      `the web page is not built (no index.html in ${options.root}); run pnpm build`,
      { cause: error },
    );
  }
  let dsn = options.clientReportingDsn;
  if (dsn) {
    const meta = `<meta name="mockpoint-reporting-dsn" content="${escapeAttribute(dsn)}">\n`;
    html = DSN_META.test(html) ? html.replace(DSN_META, meta) : html.replace('</head>', `${meta}</head>`);
  } else {
    const baked = DSN_META.exec(html)?.[1];
    dsn = baked ? unescapeAttribute(baked) : undefined;
  }
  const csp = [
    "default-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${reportingOrigin(dsn)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
  return { html, etag, csp };
}

/** Registers `GET /` (the page) and `GET /static/*` (its assets) on `app`. */
export function registerWebRoutes(app: Hono, options: WebOptions): void {
  let page: Promise<RenderedPage> | undefined;

  app.get('/', async (c) => {
    page ??= renderPage(options).catch((error: unknown) => {
      page = undefined; // try again on the next request (e.g. after a build)
      throw error;
    });
    const { html, etag, csp } = await page;
    const headers = {
      'cache-control': 'no-cache',
      etag,
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(html, 200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
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
