/**
 * The web page at `/` and its assets under `/static/`: correct MIME types,
 * long-lived caching for content-hashed names, brotli or gzip for clients that
 * accept it, 404 for anything missing and no way out of the asset directory.
 *
 * The page is the private `@mockpoint/web` package; its build output (with a
 * `.br` and a `.gz` copy of each asset) is copied into `dist/web` by
 * `scripts/copy-web.mjs`. Every URL in it
 * is relative, so it works behind a reverse proxy under a path prefix (the proxy
 * must redirect `/prefix` to `/prefix/`).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { type MockpointApp, MockpointError } from '@mockpoint/core';

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
  /** The page compressed, by content coding. */
  encoded: { br: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> };
  etag: string;
  csp: string;
}

/** The content coding to answer with: brotli, then gzip, when the client accepts it (`q=0` refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (coding && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(coding.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
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
  const encoded = { br: new Uint8Array(brotliCompressSync(html)), gzip: new Uint8Array(gzipSync(html)) };
  return { html, encoded, etag, csp };
}

/** Registers `GET /` (the page) and `GET /static/*` (its assets) on `app`. */
export function registerWebRoutes(app: MockpointApp, options: WebOptions): void {
  let page: Promise<RenderedPage> | undefined;

  app.get('/', async (c) => {
    page ??= renderPage(options).catch((error: unknown) => {
      page = undefined; // try again on the next request (e.g. after a build)
      throw error;
    });
    const { html, encoded, etag, csp } = await page;
    const headers = {
      'cache-control': 'no-cache',
      etag,
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      vary: 'accept-encoding',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    const type = { 'content-type': 'text/html; charset=utf-8' };
    if (encoding === undefined) return c.body(html, 200, { ...headers, ...type });
    return c.body(encoded[encoding], 200, { ...headers, ...type, 'content-encoding': encoding });
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
    const name = segments.at(-1) as string;
    const headers: Record<string, string> = {
      'content-type': MIME_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': HASHED_NAME.test(name) ? IMMUTABLE : 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
    };
    // The build's compressed copy when the client takes it, else the file itself.
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    if (encoding !== undefined) {
      const compressed = await readFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`).catch(() => undefined);
      if (compressed !== undefined) {
        return c.body(new Uint8Array(compressed), 200, { ...headers, 'content-encoding': encoding });
      }
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw assetNotFound(c.req.path);
    }
    return c.body(new Uint8Array(bytes), 200, headers);
  });
}
