/**
 * How `/api` JSON answers travel: every `GET` answer carries a weak `ETag` (a
 * hash of its JSON text) and a matching `If-None-Match` gets `304` with no body;
 * an answer of at least `minBytes` is compressed (brotli or gzip) for a client
 * that accepts it. Only `application/json` answers are touched, so the journal's
 * event streams pass as they are; the middleware is registered on `/api/*` only,
 * so `/endpoint/*` answers (whose bytes users assert on) are never compressed.
 *
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { BODILESS_STATUS } from '../answer/read-response.js';
import { etagMatches, weakEtag } from '../codec/etag.js';

/** Compresses a whole answer body. */
export type Encoder = (bytes: Uint8Array) => Promise<Uint8Array>;

/** The content codings `/api` answers may be sent in, by name. */
export type ApiEncoders = Partial<Record<'br' | 'gzip', Encoder>>;

/** gzip through the runtime's `CompressionStream` (Node, Bun, Deno and workerd all have it). */
export const gzipEncoder: Encoder = async (bytes) => {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

/** Options for {@link apiEncoding}. */
export interface ApiEncodingOptions {
  /**
   * The codings offered, brotli preferred; none: answers are sent uncompressed (ETags still apply).
   * @default {}
   */
  encoders?: ApiEncoders;
  /**
   * Answers smaller than this many bytes are sent as they are (compressing them gains nothing).
   * @default 1024
   */
  minBytes?: number;
}

/**
 * The coding to answer with among `offered` (brotli first), given the request's
 * `Accept-Encoding`; `q=0` refuses a coding.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  offered: ApiEncoders,
): keyof ApiEncoders | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (coding && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(coding.trim());
  }
  if (offered.br && accepted.has('br')) return 'br';
  if (offered.gzip && (accepted.has('gzip') || accepted.has('x-gzip'))) return 'gzip';
  return undefined;
}

function addVary(headers: Headers, value: string): void {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', value);
  else if (
    !vary
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  )
    headers.set('vary', `${vary}, ${value}`);
}

/** The middleware; see the module's description. */
export function apiEncoding(options: ApiEncodingOptions = {}): MiddlewareHandler {
  const encoders = options.encoders ?? {};
  const minBytes = options.minBytes ?? 1024;
  const compressing = Object.keys(encoders).length > 0;
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === 'HEAD' || (method !== 'GET' && !compressing)) return;
    const res = c.res;
    if (!res.headers.get('content-type')?.startsWith('application/json')) return;
    if (res.headers.has('content-encoding') || BODILESS_STATUS.has(res.status) || res.body === null) return;
    if (res.headers.get('cache-control')?.includes('no-transform')) return;
    const bytes = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    let body: Uint8Array | null = bytes;
    let status = res.status;
    if (method === 'GET' && status === 200) {
      const etag = await weakEtag(bytes);
      headers.set('etag', etag);
      if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
      if (etagMatches(c.req.header('if-none-match'), etag)) {
        status = 304;
        body = null;
        headers.delete('content-type');
      }
    }
    if (compressing) addVary(headers, 'accept-encoding');
    const coding = chooseEncoding(c.req.header('accept-encoding'), encoders);
    if (body !== null && coding !== undefined && bytes.byteLength >= minBytes) {
      body = await (encoders[coding] as Encoder)(bytes);
      headers.set('content-encoding', coding);
    }
    // Replace rather than merge: the old answer's headers are already in `headers`.
    c.res = undefined;
    c.res = new Response(body as Uint8Array<ArrayBuffer> | null, { status, statusText: res.statusText, headers });
  };
}
