/**
 * WebSocket on `node:http`: the server's `'upgrade'` event. A WebSocket
 * handshake to an endpoint (by path, mapped host or the listener's one
 * `endpoint`, as the request listener routes) goes through the one answer pipeline like any request
 * (journaled, routes selected, queued answers taken); its answer goes out
 * through the {@link AnswerSink} here, whose `upgrade` accepts the handshake
 * with `ws` (`noServer`) and hands the connection to the app's script player
 * (`answer/websocket/open-sockets.ts`). Any other answer (a route that is not a
 * WebSocket, a queued refusal, a fault) is written on the raw socket. A request
 * offering another upgrade is answered as plain HTTP/1.1 (`plain-upgrade.ts`).
 *
 * @module
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import {
  type EndpointAnswer,
  errorAnswer,
  type FaultAnswer,
  type RespondAnswer,
  type UpgradeAnswer,
} from '../../answer/endpoint-answer.js';
import { type ScriptSocket, socketsRefusal } from '../../answer/websocket/open-sockets.js';
import { truncatedBody } from '../../codec/truncated-body.js';
import { isWebSocketHandshake } from '../../codec/websocket-handshake.js';
import { type AnswerSink, sendAnswer, sendDue } from '../../engine/sink.js';
import { hostNotMocked } from '../../hosts/host-routing.js';
import type { MockpointApp } from '../../http/create-app.js';
import { front, type Routing } from '../../http/front.js';
import type { NamespaceChoice } from '../../http/namespace-choice.js';
import { isMockpointError } from '../../registry/errors.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../registry/limits.js';
import { UPGRADED } from './connection-cap.js';
import { bodilessRequest, moveTarget, NODE_HEAD } from './endpoint-request.js';
import { createNodeListener, type NodeListenerOptions, nodeRouting } from './listener.js';
import { answerPlain } from './plain-upgrade.js';
import { rawHead, writeRaw } from './raw-answer.js';
import { UnfinishedMessage } from './unfinished-message.js';

let wsModule: Promise<typeof import('ws')> | undefined;

/** The `ws` package, imported on the first call (the first WebSocket handshake answered). */
function loadWs(): Promise<typeof import('ws')> {
  wsModule ??= import('ws');
  return wsModule;
}

/** One upgrade request on its way to an answer. */
interface UpgradeTo {
  readonly req: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
}

/** A `ws` connection (over `socket`) as the script player's {@link ScriptSocket}. */
function scriptSocket(ws: WebSocket, socket: Duplex): ScriptSocket {
  return {
    sendText: (text) => ws.send(text),
    sendBytes: (bytes) => ws.send(bytes, { binary: true }),
    close: (code, reason) => ws.close(code, reason),
    // Destroys the TCP socket: no close frame.
    terminate: () => ws.terminate(),
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    stopReading: () => {
      socket.pause();
    },
  };
}

/** The sink for upgrade requests of one app. */
function createUpgradeSink(app: MockpointApp): AnswerSink<UpgradeTo, void> {
  const { handler, sockets } = app.mockpoint;
  const fail = (to: UpgradeTo, error: unknown): void => {
    handler.reportUnexpected(error, { method: to.req.method ?? 'GET', url: to.req.url ?? '' });
    const failed = errorAnswer(500, 'INTERNAL', 'internal error; see the server log') as RespondAnswer;
    try {
      writeRaw(to.socket, failed.status, failed.headers, failed.body);
    } catch {
      to.socket.destroy();
    }
  };
  /** Completes the handshake of `answer` (a WebSocket route's) with `ws` and hands the socket to the script player. */
  const accept = (
    Server: typeof WebSocketServer,
    to: UpgradeTo,
    answer: UpgradeAnswer,
    session: NonNullable<UpgradeAnswer['session']>,
  ): void => {
    // Asked again here, in the turn that opens the socket: handshakes answered together all passed the route step.
    const refused = socketsRefusal(sockets, session.name);
    if (refused !== undefined) {
      const full = errorAnswer(503, 'TOO_MANY_SOCKETS', refused) as RespondAnswer;
      writeRaw(to.socket, full.status, full.headers, full.body);
      return;
    }
    const wss = socketServer(Server, sockets.maxFrameBytes, session.protocol, answer.headers);
    wss.handleUpgrade(to.req, to.socket, to.head, (ws) => {
      // An open WebSocket is busy, however quiet: the connection cap never evicts it as idle.
      (to.socket as Duplex & { [UPGRADED]?: true })[UPGRADED] = true;
      const events = sockets.open(session, answer.script, scriptSocket(ws, to.socket));
      // `ws` keeps an unfinished message's fragments and says nothing until it is whole: the
      // player is told how many bytes it holds, read off the frames as they pass.
      const unfinished = new UnfinishedMessage();
      to.socket.on('data', (chunk: Buffer) => events.held(unfinished.take(chunk)));
      // `ws` answers a ping itself; the player counts it (and the pong) against the client.
      ws.on('ping', () => events.control());
      ws.on('pong', () => events.control());
      ws.on('message', (data, binary) => {
        const bytes = Array.isArray(data)
          ? Buffer.concat(data)
          : data instanceof ArrayBuffer
            ? new Uint8Array(data)
            : (data as Buffer);
        events.message(bytes, binary);
      });
      ws.on('close', (code, reason) => events.closed(code, reason.toString()));
      // A protocol error (a frame past the limit: 1009, bad UTF-8: 1007) closes the connection; 'close' follows.
      ws.on('error', () => undefined);
    });
  };
  const sink: AnswerSink<UpgradeTo, void> = {
    respond: (to, answer) => writeRaw(to.socket, answer.status, answer.headers, answer.body),
    // A streamed answer to an upgrade request: its head and every frame at once (the client wanted a socket).
    stream: (to, answer) => {
      const bytes = answer.frames.map((frame) => frame.bytes);
      const body = new Uint8Array(bytes.reduce((n, b) => n + b.byteLength, 0));
      let at = 0;
      for (const one of bytes) {
        body.set(one, at);
        at += one.byteLength;
      }
      writeRaw(to.socket, answer.status, answer.headers, body);
    },
    fault: (to, answer: FaultAnswer) => {
      if (answer.fault === 'reset') {
        const socket = to.socket as Socket;
        if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
        else socket.destroy();
        return;
      }
      if (to.socket.destroyed) return;
      to.socket.write(rawHead(answer.status, answer.headers));
      to.socket.write(truncatedBody(answer.body), () => to.socket.destroy());
    },
    relay: (to, answer) => {
      if (to.socket.destroyed) {
        answer.body?.cancel().catch(() => undefined);
        return;
      }
      to.socket.write(rawHead(answer.status, answer.headers));
      if (answer.body === null) {
        to.socket.end();
        return;
      }
      const reader = answer.body.getReader();
      const pump = (): void => {
        reader.read().then(
          ({ done, value }) => {
            if (done) to.socket.end();
            else if (to.socket.write(value)) pump();
            else to.socket.once('drain', pump);
          },
          () => to.socket.destroy(),
        );
      };
      pump();
    },
    upgrade: (to, answer) => {
      const { session } = answer;
      if (to.socket.destroyed) return;
      if (session === undefined) {
        fail(to, new Error('a WebSocket answer without its session reached the sink'));
        return;
      }
      // `ws` is loaded on the first WebSocket (a plain start never needs it). Until the
      // handshake completes, Node holds what the client sends on the paused socket.
      loadWs().then(
        (ws) => {
          if (!to.socket.destroyed) accept(ws.WebSocketServer, to, answer, session);
        },
        (error: unknown) => fail(to, error),
      );
    },
    delay: (to, ms, answer: EndpointAnswer) => {
      if (to.socket.destroyed) return;
      const timer = setTimeout(sendDue, ms, sink, to, answer);
      to.socket.once('close', () => clearTimeout(timer));
    },
    hold: (to, release) => {
      if (to.socket.destroyed) return Promise.resolve(false);
      if (release?.aborted) return Promise.resolve(true);
      return new Promise((resolve) => {
        const onRelease = () => {
          to.socket.off('close', onClose);
          resolve(true);
        };
        const onClose = () => {
          release?.removeEventListener('abort', onRelease);
          resolve(false);
        };
        release?.addEventListener('abort', onRelease, { once: true });
        to.socket.once('close', onClose);
      });
    },
    gone: () => undefined,
    fail,
  };
  return sink;
}

/**
 * The `ws` server (no listener of its own) that completes one handshake: the
 * answer's subprotocol (`undefined`: none named) and its 101 headers are given
 * to `ws` as values. Cheap: with `noServer` and no client tracking it holds
 * nothing but its options.
 */
function socketServer(
  Server: typeof WebSocketServer,
  maxPayload: number,
  protocol: string | undefined,
  headers: UpgradeAnswer['headers'],
): WebSocketServer {
  const wss = new Server({
    noServer: true,
    maxPayload,
    perMessageDeflate: false,
    // No client tracking: the script player holds the connections.
    clientTracking: false,
    handleProtocols: () => protocol ?? false,
  });
  wss.on('headers', (lines) => {
    for (const [name, value] of Object.entries(headers)) {
      for (const one of typeof value === 'string' ? [value] : value) lines.push(`${name}: ${one}`);
    }
  });
  return wss;
}

/** Options for {@link createNodeUpgradeListener}: the request listener's, and what answers a request that is no WebSocket. */
export interface NodeUpgradeListenerOptions extends NodeListenerOptions {
  /**
   * The server's request listener, which answers a request whose `Upgrade` is
   * not `websocket` (e.g. `curl --http2`'s `h2c`): the offer is ignored and the
   * request answered over HTTP/1.1. @default createNodeListener(app, options)
   */
  request?: RequestListener;
  /** How long such a request may take to send its body, in ms (then its connection is closed). @default 30000 */
  requestTimeoutMs?: number;
}

/**
 * A listener for a `node:http` server's `'upgrade'` event. Node sends every
 * request with an `Upgrade` header here once the event has a listener; a
 * WebSocket handshake (`GET`, `Upgrade: websocket`, no body) goes to its
 * target as the request listener resolves it (`/endpoint/{name}`, a mapped
 * host, the listener's one `endpoint`) and is answered by the app's pipeline
 * (a WebSocket route accepts it); one that reaches no endpoint gets 404. Any
 * other request is answered by the request listener over HTTP/1.1, as if it
 * had not offered to upgrade (see `plain-upgrade.ts`).
 * @example server.on('upgrade', createNodeUpgradeListener(app, { request: listener }))
 */
export function createNodeUpgradeListener(
  app: MockpointApp,
  options: NodeUpgradeListenerOptions = {},
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const sink = createUpgradeSink(app);
  const { handler } = app.mockpoint;
  // A WebSocket handshake to an unmapped host is refused (HOST_NOT_MOCKED), never passed through.
  const routing: Routing = { ...nodeRouting(app, options), passThrough: false };
  const request = options.request ?? createNodeListener(app, options);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs;
  const toNamespace = namespaceUpgrade(app, options, sink);
  return (req, socket, head) => {
    // An error on the raw socket before the handshake (the client left) must not reach the process.
    socket.on('error', () => socket.destroy());
    // Only a handshake is routed here: any other request to the request listener, which routes its own.
    if (!isWebSocketHandshake(req.method ?? '', req.rawHeaders)) {
      answerPlain(req, socket, head, request, requestTimeoutMs);
      return;
    }
    const to: UpgradeTo = { req, socket, head };
    const target = front(req, NODE_HEAD, routing);
    if (target === undefined) {
      const path = (req.url ?? '/').split('?')[0];
      sink.respond(
        to,
        errorAnswer(
          404,
          'ROUTE_NOT_FOUND',
          `no WebSocket at ${path}: WebSockets are served under /endpoint/{name}`,
        ) as RespondAnswer,
      );
      return;
    }
    if (typeof target === 'object') {
      switch (target.kind) {
        case 'namespace':
          toNamespace(to, target);
          return;
        case 'refused':
          sendAnswer(target.answer, sink, to);
          return;
        case 'pass-through':
          // Never here (its routing refuses unmapped hosts), but refused as such if it were.
          sendAnswer(hostNotMocked(req.url ?? '', app.mockpoint.hosts), sink, to);
          return;
      }
    }
    const recorded = bodilessRequest(req, typeof target === 'string' ? target : target.target);
    // A handshake that came by way of a host is journaled with it, as the request listener's requests are.
    if (typeof target === 'object') recorded.host = target.host;
    try {
      sendAnswer(handler.handle(recorded), sink, to);
    } catch (error) {
      sink.fail(to, error);
    }
  };
}

/**
 * How an upgrade listener of `app` hands a handshake to the namespace the front
 * door chose: to that namespace's own upgrade listener, below `/ns/{ns}` when
 * the path named it (a handshake has no page: `/ns/{ns}` alone is its `/`).
 */
function namespaceUpgrade(
  app: MockpointApp,
  options: NodeUpgradeListenerOptions,
  sink: AnswerSink<UpgradeTo, void>,
): (to: UpgradeTo, chosen: NamespaceChoice) => void {
  const table = app.mockpoint.namespaces;
  const key = Symbol('mockpoint.upgradeListener');
  const nested = (nsApp: MockpointApp) => createNodeUpgradeListener(nsApp, { ...options, request: undefined });
  return (to, chosen) => {
    const { req, socket, head } = to;
    const refuse = (code: 'NAMESPACE_NOT_FOUND' | 'INTERNAL', status: number, message: string) => {
      sink.respond(to, errorAnswer(status, code, message) as RespondAnswer);
    };
    const failed = (error: unknown) => {
      refuse('INTERNAL', 500, 'internal error; see the server log');
      app.mockpoint.handler.reportUnexpected(error, { method: req.method ?? 'GET', url: req.url ?? '/' });
    };
    if (table === undefined) {
      // The front door chooses none for an app without namespaces (its routing says so).
      failed(new Error('a namespace was chosen for an app without namespaces'));
      return;
    }
    if (chosen.refused !== undefined) {
      refuse('NAMESPACE_NOT_FOUND', 404, chosen.refused.message);
      return;
    }
    if (chosen.rest !== undefined) moveTarget(req, chosen.rest);
    let made: ReturnType<typeof nested> | Promise<ReturnType<typeof nested>>;
    try {
      made = table.adapter(chosen.name, key, nested);
    } catch (error) {
      failed(error);
      return;
    }
    if (typeof made === 'function') made(req, socket, head);
    else {
      made.then(
        (listener) => listener(req, socket, head),
        (error: unknown) => {
          if (isMockpointError(error) && error.code === 'NAMESPACE_NOT_FOUND') refuse(error.code, 404, error.message);
          else failed(error);
        },
      );
    }
  };
}
