/**
 * The Node.js adapter: a `node:http` request listener for a mockpoint app. Every
 * request to `/endpoint/{name}` is read here and answered by the app's
 * {@link EndpointHandler}, whose answer goes out through the Node sink
 * (`sink.ts`, no Fetch-API objects); everything else goes to the Hono app.
 *
 * @module
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type ClientGone, errorAnswer } from '../../answer/endpoint-answer.js';
import { splitEndpointTarget } from '../../api/endpoint-target.js';
import { declaresBody } from '../../codec/raw-headers.js';
import type { EndpointHandler } from '../../engine/endpoint-handler.js';
import { type AnswerSink, sendAnswer } from '../../engine/sink.js';
import type { MockpointApp } from '../../http/create-app.js';
import { front, type Routing } from '../../http/front.js';
import type { NamespaceChoice } from '../../http/namespace-choice.js';
import { type RecordedRequest, recordedRequest } from '../../journal/journal-entry.js';
import { isMockpointError } from '../../registry/errors.js';
import { JOURNAL_BODY_LIMIT } from '../../registry/limits.js';
import { isValidName } from '../../registry/rules.js';
import { bodilessRequest, clientSide, moveTarget, NODE_HEAD } from './endpoint-request.js';
import { lazyFetchListener } from './fetch-fallback.js';
import { answerNativeGrpc, isNativeGrpc } from './grpc-native.js';
import { holdingListener } from './held-requests.js';
import { nodeUpstream } from './node-upstream.js';
import { passThroughRequest } from './pass-through.js';
import { createNodeSink, trackAnswer } from './sink.js';

/** A `.` or `..` path segment, literal or percent-encoded: the URL parser would resolve it. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=[/?#]|$)/i;

// ---- answering: the handler's answer through the Node sink ----

/** What answering needs besides the response: the handler, and the sink that sends. */
interface Outlet {
  readonly handler: EndpointHandler;
  readonly sink: AnswerSink<ServerResponse, void>;
}

/** Asks the handler for the answer to `recorded` and sends it; a throw or a rejection goes to the sink's last resort. */
function answer(res: ServerResponse, out: Outlet, recorded: RecordedRequest, whole?: Uint8Array): void {
  try {
    trackAnswer(res, recorded);
    sendAnswer(out.handler.handle(recorded, whole, clientGone(res)), out.sink, res);
  } catch (error) {
    out.sink.fail(res, error);
  }
}

/** A signal, made when first asked for, that aborts when `res` closes before its answer was all sent. */
function clientGone(res: ServerResponse): ClientGone {
  return () => {
    const controller = new AbortController();
    if (res.destroyed) controller.abort();
    else {
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return controller.signal;
  };
}

// ---- reading a body: the first bytes kept, the rest read and dropped ----
// (or, where the answer needs it, kept whole up to maxBytes: see EndpointHandler.readsWholeBody)

const BODY = Symbol('mockpoint.body');

interface BodyState {
  out: Outlet;
  res: ServerResponse;
  target: string;
  /** The host it was sent to, when it came by way of one (the front door's `HostTarget`). */
  host: string | undefined;
  /** Past this many bytes in all, the request is answered and the connection closed. */
  maxBytes: number;
  /** Bytes kept at most: the journal's copy, or `maxBytes` once the handler wants the whole body. */
  keep: number;
  /** The first chunk kept: a webhook's whole body comes in one, and then no array is made. */
  first: Uint8Array | undefined;
  /** Every chunk kept, from the second one on (`first` included). */
  chunks: Uint8Array[] | undefined;
  kept: number;
  seen: number;
  done: boolean;
  /** The handler is being asked whether to keep the whole body: reading is paused until it answers. */
  deciding: boolean;
  /** The body ended while `deciding`: it is finished once the handler has answered. */
  ended: boolean;
}

type ReadingRequest = IncomingMessage & { [BODY]: BodyState };

/** A chunk's buffer this small is kept as it is rather than copied (see {@link keptBytes}). */
const SMALL_BUFFER = 4096;
const EMPTY = new Uint8Array(0);

/**
 * The first `length` kept bytes as one array. When one chunk holds them and its whole buffer is
 * small (Node's HTTP/1 parser copies each body chunk into a buffer of its own), a view of it,
 * which holds at most twice the bytes the journal counts plus 1 KiB: a second copy per request
 * cost 0.6 µs of a webhook POST's ~30. Otherwise copied, so no large buffer (a TLS or HTTP/2
 * read) is retained by the journal.
 */
function keptBytes(state: BodyState, length: number = state.kept): Uint8Array {
  const first = state.first;
  if (first === undefined) return EMPTY;
  if (first.byteLength >= length) {
    const held = first.buffer.byteLength;
    if (held <= SMALL_BUFFER && held <= 2 * length + 1024)
      return new Uint8Array(first.buffer, first.byteOffset, length);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of state.chunks ?? [first]) {
    if (offset + chunk.byteLength > length) {
      bytes.set(chunk.subarray(0, length - offset), offset);
      break;
    }
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function finishBody(req: ReadingRequest, state: BodyState): void {
  state.done = true;
  // A body kept whole (complete, within maxBytes) goes to the signature check; the journal gets its own first bytes.
  const whole = state.kept > JOURNAL_BODY_LIMIT && state.seen === state.kept ? keptBytes(state) : undefined;
  const body = keptBytes(state, Math.min(state.kept, JOURNAL_BODY_LIMIT));
  const recorded = clientSide(
    req,
    recordedRequest(req.method ?? 'GET', state.target, req.rawHeaders, body, state.seen > body.byteLength),
  );
  recorded.host = state.host;
  // Past the body limit: refused (413) before any step reads it, whatever would have answered.
  if (state.seen > state.maxBytes) recorded.bodyTooLarge = true;
  answer(state.res, state.out, recorded, whole);
}

/** Whether the body of a request to `target` is kept whole (a Promise while the name is looked up). */
function readsWholeBody(state: BodyState): boolean | Promise<boolean> {
  const name = splitEndpointTarget(state.target)?.name;
  return name !== undefined && state.out.handler.readsWholeBody(name);
}

/**
 * Asks once, when the body first outgrows the journal's copy, whether to keep
 * all of it. While a name is looked up, the request is paused (TCP holds the
 * rest back) and only the chunk at hand is kept; a "no" drops what is past the
 * journal's copy.
 */
function decideKeep(req: ReadingRequest, state: BodyState): void {
  const whole = readsWholeBody(state);
  if (whole === true) state.keep = state.maxBytes;
  if (typeof whole === 'boolean') return;
  state.deciding = true;
  state.keep = state.maxBytes;
  // Only an answer still to come can be held up by a client that hangs up: listened for from here.
  req.on('error', onAbort);
  req.pause();
  void whole.then((keepWhole) => {
    state.deciding = false;
    if (!keepWhole) {
      state.keep = JOURNAL_BODY_LIMIT;
      state.first = keptBytes(state, Math.min(state.kept, JOURNAL_BODY_LIMIT));
      state.chunks = undefined;
      state.kept = state.first.byteLength;
    }
    if (state.done) return;
    if (state.ended) finishBody(req, state);
    else req.resume();
  });
}

/** Keeps `chunk`: as `first` when it is the first, else in `chunks` (made at the second). */
function keepChunk(state: BodyState, chunk: Uint8Array): void {
  if (state.first === undefined) state.first = chunk;
  else if (state.chunks === undefined) state.chunks = [state.first, chunk];
  else state.chunks.push(chunk);
}

function onData(this: ReadingRequest, chunk: Buffer): void {
  const state = this[BODY];
  if (state.done) return;
  const before = state.seen;
  state.seen += chunk.byteLength;
  if (before <= JOURNAL_BODY_LIMIT && state.seen > JOURNAL_BODY_LIMIT) decideKeep(this, state);
  if (state.kept < state.keep) {
    const take = Math.min(chunk.byteLength, state.keep - state.kept);
    keepChunk(state, take === chunk.byteLength ? chunk : chunk.subarray(0, take));
    state.kept += take;
  }
  if (state.seen > state.maxBytes) {
    // Too long to read to the end: answer (413) now, and close the connection after it;
    // what still comes is dropped as it arrives (`done`), never kept.
    state.res.shouldKeepAlive = false;
    state.res.setHeader('connection', 'close');
    finishBody(this, state);
  }
}

function onEnd(this: ReadingRequest): void {
  const state = this[BODY];
  if (state.deciding) state.ended = true;
  else if (!state.done) finishBody(this, state);
}

/**
 * A client that hangs up mid-upload is a normal event: nothing is recorded or
 * answered. Without it the body never ends and nothing is; it is listened for
 * only while the handler decides whether to keep the body (see
 * {@link decideKeep}), so a request that is read to its end (the webhook POST)
 * costs no third listener (Node emits a request's 'error' only to listeners).
 */
function onAbort(this: ReadingRequest): void {
  this[BODY].done = true;
}

function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  out: Outlet,
  target: string,
  maxBytes: number,
  host: string | undefined,
) {
  const reading = req as ReadingRequest;
  const keep = JOURNAL_BODY_LIMIT;
  reading[BODY] = {
    out,
    res,
    target,
    host,
    maxBytes,
    keep,
    first: undefined,
    chunks: undefined,
    kept: 0,
    seen: 0,
    done: false,
    deciding: false,
    ended: false,
  };
  req.on('data', onData);
  req.on('end', onEnd);
}

/** Options for {@link createNodeListener}. */
export interface NodeListenerOptions {
  /**
   * Let `@hono/node-server` replace the global `Request`/`Response` with its faster
   * ones. Right for a daemon; a library running inside someone's tests passes `false`.
   * @default true
   */
  overrideGlobalObjects?: boolean;
  /**
   * Serve this one endpoint at the root: every request, whatever its path or
   * Host, is answered by it with its whole path as the subpath (`--serve
   * github=8081`, for clients that take a host and port but no path prefix).
   * Nothing else (no `/api`, no page) answers on this listener.
   * @default undefined (the whole app)
   * @example http.createServer(createNodeListener(app, { endpoint: 'github' })).listen(8081)
   */
  endpoint?: string;
}

/** How a Node listener of `app` with `options` routes (the front door's {@link Routing}). */
export function nodeRouting(app: MockpointApp, options: NodeListenerOptions): Routing {
  const { hosts, namespaces } = app.mockpoint;
  const { allowedHosts, proxyPassThrough } = app.mockpoint.options;
  return {
    hosts,
    allowedHosts,
    endpoint: options.endpoint,
    passThrough: proxyPassThrough,
    namespaces: namespaces !== undefined,
  };
}

/**
 * A `node:http` listener for `app`. Where each request goes is the front door's
 * to say (http/front.ts). Requests to an endpoint (every method, with or without
 * a body, cached or not, delayed or not) are answered natively by the app's one
 * {@link EndpointHandler}: the same status, headers, bytes and journal entry as
 * the Fetch route, without Fetch-API objects. A namespace's go to its own
 * listener. Requests of one connection are handled in order, also when pipelined.
 * @example http.createServer(createNodeListener(createApp())).listen(0)
 */
export function createNodeListener(app: MockpointApp, options: NodeListenerOptions = {}): RequestListener {
  const fallback = lazyFetchListener(app.fetch, options.overrideGlobalObjects ?? true);
  const { handler, streams, proxy } = app.mockpoint;
  const out: Outlet = {
    handler,
    sink: createNodeSink({ streams, report: (error, request) => handler.reportUnexpected(error, request) }),
  };
  // Proxy routes resolve names here and check every address before connecting.
  proxy.preferUpstream(nodeUpstream);
  const maxBytes = app.mockpoint.options.maxBodyBytes;
  const endpoint = options.endpoint;
  if (endpoint !== undefined && !isValidName(endpoint)) {
    throw new TypeError(`createNodeListener: endpoint "${endpoint}" is not a valid name`);
  }
  const routing = nodeRouting(app, options);

  /** A request to an endpoint at `target`, sent to `host` when it came by way of one (the journal's). */
  const toEndpoint = (req: IncomingMessage, res: ServerResponse, target: string, host: string | undefined): void => {
    if (declaresBody(req.rawHeaders)) {
      readBody(req, res, out, target, maxBytes, host);
      return;
    }
    const recorded = bodilessRequest(req, target);
    recorded.host = host;
    answer(res, out, recorded);
  };

  /** A request that is no endpoint's: the app's own routes (the API, the page, a gRPC call at the root). */
  const toApp = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    // Never let the URL parser resolve `..` into another route (e.g. from /endpoint/ into /api).
    // Only the path: a query may carry `/./` or `/../` as plain data.
    const query = url.indexOf('?');
    if (DOT_SEGMENT.test(query === -1 ? url : url.slice(0, query))) {
      sendAnswer(
        errorAnswer(404, 'ROUTE_NOT_FOUND', `no route for ${req.method} ${url}; see GET /api/openapi.json`),
        out.sink,
        res,
      );
      // The Hono app answers its own errors; this catches what fails while its Response is written.
    } else if (isNativeGrpc(req)) {
      // Native gRPC needs HTTP/2 trailers, which the Fetch path cannot send: answered here when a name declares the method.
      answerNativeGrpc(app, req, res)
        .then((answered) => (answered ? undefined : fallback(req, res)))
        .catch((error: unknown) => out.sink.fail(res, error));
    } else fallback(req, res).catch((error: unknown) => out.sink.fail(res, error));
  };

  const toNamespace = namespaceRoute(app, options, out);

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const target = front(req, NODE_HEAD, routing);
    if (typeof target === 'string') {
      toEndpoint(req, res, target, undefined);
      return;
    }
    if (target === undefined) {
      toApp(req, res);
      return;
    }
    switch (target.kind) {
      case 'endpoint':
        // A `--serve` port answers native gRPC for its endpoint's services too (its root is the endpoint's).
        if (endpoint !== undefined && isNativeGrpc(req)) {
          answerNativeGrpc(app, req, res, endpoint)
            .then((answered) => (answered ? undefined : toEndpoint(req, res, target.target, target.host)))
            .catch((error: unknown) => out.sink.fail(res, error));
        } else toEndpoint(req, res, target.target, target.host);
        return;
      case 'namespace':
        toNamespace(req, res, target);
        return;
      case 'refused':
        sendAnswer(target.answer, out.sink, res);
        return;
      case 'pass-through':
        passThroughRequest(req, res, proxy.allowHosts, (refused) => sendAnswer(refused, out.sink, res));
        return;
    }
  };

  return (req, res) => {
    // A pipelined request waits until the answers before it are sent (Node gives its
    // response the socket then), so add, replace and delete (of a host mapping, a
    // namespace too) take effect in order, before its way is decided.
    if (res.socket === null) res.once('socket', () => route(req, res));
    else route(req, res);
  };
}

/**
 * How a Node listener of `app` hands a request to the namespace the front door
 * chose: to that namespace's own listener (made with the same `options`, `endpoint`
 * too: a `--serve` port serves that endpoint of the namespace a request's headers
 * name), below `/ns/{ns}` when the path named it.
 */
function namespaceRoute(
  app: MockpointApp,
  options: NodeListenerOptions,
  out: Outlet,
): (req: IncomingMessage, res: ServerResponse, chosen: NamespaceChoice) => void {
  const table = app.mockpoint.namespaces;
  // Each namespace's own listener, made with the same options.
  const key = Symbol('mockpoint.nodeListener');
  // Each request in a namespace is its held work until answered: the namespace's delete ends it.
  const nested = (nsApp: MockpointApp) => holdingListener(createNodeListener(nsApp, options), nsApp.mockpoint.held);
  return (req, res, chosen) => {
    if (table === undefined) {
      // The front door chooses none for an app without namespaces (its routing says so).
      out.sink.fail(res, new Error('a namespace was chosen for an app without namespaces'));
      return;
    }
    if (chosen.rest !== undefined) moveTarget(req, chosen.rest);
    const picked = chosen.name;
    // `/ns/{ns}` alone is the namespace's page: to `/ns/{ns}/`, where its relative URLs resolve.
    // Sent once the namespace is known to exist, as the Fetch path does (a name that breaks the rule, or none: 404).
    const page = chosen.page;
    // The hot path of a test session: its namespace is open here and its listener made.
    const ready = table.madeAdapter<RequestListener>(picked, key);
    if (ready !== undefined) {
      serveInNamespace(ready, req, res, page);
      return;
    }
    if (chosen.refused !== undefined) {
      sendAnswer(errorAnswer(404, 'NAMESPACE_NOT_FOUND', chosen.refused.message), out.sink, res);
      return;
    }
    let made: RequestListener | Promise<RequestListener>;
    try {
      made = table.adapter(picked, key, nested);
    } catch (error) {
      out.sink.fail(res, error);
      return;
    }
    if (typeof made === 'function') serveInNamespace(made, req, res, page);
    else
      made.then(
        (ready) => serveInNamespace(ready, req, res, page),
        (error: unknown) => answerError(res, out, error),
      );
  };
}

/** A request to a namespace handed to its listener, or (`page`: a GET of `/ns/{ns}`) sent to its page. */
function serveInNamespace(nsListener: RequestListener, req: IncomingMessage, res: ServerResponse, page?: string): void {
  if (page === undefined) nsListener(req, res);
  else res.writeHead(308, { location: page, 'content-length': '0' }).end();
}

/** A namespace that could not be made (`NAMESPACE_NOT_FOUND`, a store error) answered as the app would. */
function answerError(res: ServerResponse, out: Outlet, error: unknown): void {
  if (isMockpointError(error)) {
    sendAnswer(errorAnswer(error.status, error.code, error.message), out.sink, res);
  } else out.sink.fail(res, error);
}
