/**
 * The page's view of the mockpoint HTTP API: @mockpoint/core's typed client,
 * with its base URL resolved against the page's own location
 * (`document.baseURI`), so the page works behind a reverse proxy that serves it
 * under a path prefix such as `/mock/`.
 *
 * @module
 */
import {
  ConnectionError,
  createClient,
  DEFAULT_MAX_DELAY_MS,
  type Endpoint,
  isMockpointError,
  type JsonText,
  MockpointError,
  scanJson,
} from '@mockpoint/core/client';

export type {
  JournalEntry,
  QueuedAnswer,
  Route,
  RouteAnswer,
  SignatureInput,
  SignatureSchemeView,
  SignatureView,
  SummaryAnswer,
} from '@mockpoint/core/client';
export { JsonText } from '@mockpoint/core/client';

/**
 * A record as the page shows and edits it: `data` is the stored JSON text
 * exactly (never parsed into JavaScript values, which would round big numbers
 * and reorder keys).
 */
export type ExactRecord = Endpoint<JsonText>;

/** A record as the list shows it: everything but `data`. */
export type EndpointSummary = import('@mockpoint/core/client').SummaryAnswer['endpoints'][number];

/**
 * An answer the page expects and explains itself: an API error (with the
 * server's stable `code`) or no answer at all (`CONNECTION_FAILED`). Anything
 * else is a bug in the page and is reported.
 */
export type ApiFailure = MockpointError | ConnectionError;

/** True for an {@link ApiFailure}. */
export function isApiFailure(error: unknown): error is ApiFailure {
  return isMockpointError(error) || error instanceof ConnectionError;
}

/** What a person reads for a failure: the server's message, or a hint when it cannot be reached. */
export function failureMessage(error: unknown): string {
  if (error instanceof ConnectionError) return 'Cannot reach the mockpoint server. Is it running?';
  return error instanceof Error ? error.message : String(error);
}

const TOKEN_KEY = 'mockpoint-admin-token';

/** The admin token for writes, kept for this browser tab only. */
export const adminToken = {
  get(): string | undefined {
    try {
      return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(token: string): void {
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // storage disabled: the token lasts until reload
    }
  },
};

/** An absolute URL for a path relative to the page (no leading slash). */
export function pageUrl(path: string): string {
  return new URL(path, document.baseURI).href;
}

/**
 * Sends every request fresh (never from the HTTP cache), with the admin token
 * (read at each write, so a token entered later applies at once).
 */
function send(request: Request): Promise<Response> {
  const token = adminToken.get();
  if (token && request.method !== 'GET' && !request.headers.has('authorization')) {
    request.headers.set('authorization', `Bearer ${token}`);
  }
  return fetch(request, { cache: 'no-store' });
}

/** The client, talking to the server that served the page. */
export const api = createClient({ baseUrl: pageUrl('.'), fetch: send });

/** The public URL of an endpoint. */
export function endpointUrl(name: string): string {
  return api.endpointUrl(name);
}

/** The server's limits the page checks input against; core's defaults until `/api/health` answers. */
export const serverLimits = { maxDelayMs: DEFAULT_MAX_DELAY_MS, journalSize: 100 };

/**
 * Sends a request through the page's fetch and resolves with the answer's text;
 * a failure throws like the client does ({@link ApiFailure}).
 */
async function sendText(method: string, path: string, body?: string): Promise<string> {
  const target = pageUrl(path);
  const headers = body === undefined ? undefined : { 'content-type': 'application/json' };
  let response: Response;
  try {
    response = await send(new Request(target, { method, headers, body }));
  } catch (error) {
    throw new ConnectionError(target, error);
  }
  const text = await response.text();
  if (response.ok) return text;
  throw answerFailure(`${method} ${target}`, response.status, text);
}

/** The error a refused request throws: the server's code and message, or `UNEXPECTED_RESPONSE`. */
function answerFailure(request: string, status: number, text: string): MockpointError {
  let failure: { code?: string; message?: string } | undefined;
  try {
    failure = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
  } catch {
    // not a mockpoint error body
  }
  if (failure?.code && failure.message) {
    return new MockpointError(failure.code as MockpointError['code'], failure.message, { status });
  }
  return new MockpointError('UNEXPECTED_RESPONSE', `${request} answered ${status}`, { status });
}

const routesPath = (name: string) => `api/endpoints/${encodeURIComponent(name)}/routes`;

/** The routes of `name` as the exact JSON text of the list the server holds (`[]` when none). */
export async function routesText(name: string): Promise<string> {
  return scanJson(await sendText('GET', routesPath(name))).members?.get('routes') ?? '[]';
}

/**
 * Replaces the routes of `name` with `text`, the list exactly as typed: it goes
 * into the body as is (never parsed and re-serialised, so big integers and key
 * order in `data` survive); a bad list throws the server's error.
 */
export async function putRoutesText(name: string, text: string): Promise<void> {
  await sendText('PUT', routesPath(name), `{"routes":${text}}`);
}

const queuePath = (name: string) => `api/endpoints/${encodeURIComponent(name)}/queue`;

/** The answers queued for `name`, each as the exact JSON text the server lists (`data` byte for byte), next first. */
export async function queueTexts(name: string): Promise<string[]> {
  const answers = scanJson(await sendText('GET', queuePath(name))).members?.get('answers') ?? '[]';
  return scanJson(answers).elements ?? [];
}

/**
 * Queues `text` for `name`, exactly as typed: one answer (a JSON object) or a
 * list of them goes into the body as is (never parsed and re-serialised, so big
 * integers and key order in `data` survive); a bad answer throws the server's error.
 */
export async function queueText(name: string, text: string): Promise<void> {
  const list = text.trimStart().startsWith('[');
  await sendText('POST', queuePath(name), list ? `{"answers":${text}}` : `{"answers":[${text}]}`);
}

const collectionsPath = (name: string) => `api/endpoints/${encodeURIComponent(name)}/collections`;

/** The last answer of {@link collectionsText}: read again only when the server's `ETag` changes. */
let heldCollections: { url: string; etag: string; text: string } | undefined;

/**
 * Every collection of `name` as the exact JSON text the server answers
 * (`{"<collection>":[items…]}`, items byte for byte; `{}` when none). Read
 * conditionally (`If-None-Match`), so an unchanged set of collections, which may
 * be large, is not sent again on every refresh.
 */
export async function collectionsText(name: string): Promise<string> {
  const url = pageUrl(collectionsPath(name));
  const held = heldCollections?.url === url ? heldCollections : undefined;
  const headers = held ? { 'if-none-match': held.etag } : undefined;
  let response: Response;
  try {
    response = await send(new Request(url, { headers }));
  } catch (error) {
    throw new ConnectionError(url, error);
  }
  if (response.status === 304 && held) return held.text;
  const text = await response.text();
  if (!response.ok) throw answerFailure(`GET ${url}`, response.status, text);
  const etag = response.headers.get('etag');
  heldCollections = etag ? { url, etag, text } : undefined;
  return text;
}

/** Splits the text of {@link collectionsText} into each collection's items, each as its exact text, in the server's order. */
export function collectionItems(text: string): Map<string, string[]> {
  const items = new Map<string, string[]>();
  for (const [collection, list] of scanJson(text).members ?? []) items.set(collection, scanJson(list).elements ?? []);
  return items;
}

/**
 * Replaces (or creates) `collection` of `name` with `text`, a JSON array of
 * objects exactly as typed (never parsed and re-serialised, so big integers
 * and `1.50` survive); it becomes the collection's seed too. A bad list throws
 * the server's error (`INVALID_COLLECTION`, `COLLECTION_TOO_LARGE`).
 */
export async function putCollectionText(name: string, collection: string, text: string): Promise<void> {
  await sendText('PUT', `${collectionsPath(name)}/${encodeURIComponent(collection)}`, text);
}
