/**
 * The delivery transport over `node:http`/`node:https` with keep-alive agents:
 * the daemon's. Measured on the deliveries bench it takes several times less
 * CPU per request than `fetch` (undici's fetch builds a Request, tees the body
 * into web streams and clones it for the manual redirect mode), which was most
 * of what a delivery cost beyond the bare loop's own HMAC and send.
 *
 * Same contract as the fetch transport: no redirect is followed (node:http
 * never does), the first {@link ATTEMPT_BODY_BYTES} of the answer are kept and
 * at most {@link ATTEMPT_DRAIN_BYTES} read, the signal aborts it all.
 *
 * @module
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ATTEMPT_BODY_BYTES } from '../api/delivery-json.js';
import { nodeBuiltin } from '../cache/node-builtin.js';
import {
  ATTEMPT_DRAIN_BYTES,
  type DeliverySend,
  NULL_BODY_STATUSES,
  type SendAnswer,
  type SendRequest,
} from './delivery-send.js';
import { isLoopbackHost } from './delivery-target.js';

/** Options for {@link nodeDeliverySend}. */
export interface NodeDeliverySendOptions {
  /** Connections kept open per receiver (host and port). @default 50 */
  maxSockets?: number;
}

/** A delivery transport with its own keep-alive agents; `close()` drops their idle connections. */
export interface NodeDeliverySend extends DeliverySend {
  close(): void;
}

/**
 * The `node:http` transport.
 * @example createApp({ store, deliverySend: nodeDeliverySend() })
 */
export function nodeDeliverySend(options: NodeDeliverySendOptions = {}): NodeDeliverySend {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 50 };
  const http = new HttpAgent(agentOptions);
  // node:https (and TLS) loaded by the first HTTPS delivery, not at start.
  let agent: HttpsAgent | undefined;
  const https = () => {
    agent ??= new (nodeBuiltin('node:https').Agent)(agentOptions);
    return agent;
  };
  const send = async (request: SendRequest): Promise<SendAnswer> => {
    try {
      return await sendOnce(request, http, https);
    } catch (error) {
      // A kept-alive connection the receiver closed as it was reused: sent again on a fresh one
      // (the receiver never read it). Node's documented way (request.reusedSocket).
      if ((error as { reusedSocket?: boolean }).reusedSocket && !request.signal.aborted) {
        return sendOnce(request, http, https);
      }
      throw error;
    }
  };
  return Object.assign(send, {
    close() {
      http.destroy();
      agent?.destroy();
    },
  });
}

/**
 * A lookup for `localhost`, allowed as loopback without being listed: it must
 * resolve to loopback addresses only (a hosts file or resolver that says
 * otherwise is refused, `ELOOPBACKONLY`), checked right before connecting.
 */
export function loopbackOnlyLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const other = addresses.find(({ address }) => !isLoopbackHost(address));
      if (other !== undefined || addresses.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${other?.address ?? 'nothing'}, not a loopback address; list the receiver's host in MOCKPOINT_DELIVERY_ALLOW_HOSTS to send there`,
        );
        refused.code = 'ELOOPBACKONLY';
        callback(refused, '', 0);
        return;
      }
      const first = addresses[0] as LookupAddress;
      if ((options as { all?: boolean }).all === true) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      } else callback(null, first.address, first.family);
    });
  };
}

const LOOPBACK_ONLY = loopbackOnlyLookup();

function sendOnce(request: SendRequest, http: HttpAgent, https: () => HttpsAgent): Promise<SendAnswer> {
  const { signal } = request;
  return new Promise<SendAnswer>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const secure = request.url.startsWith('https:');
    let answered = false;
    let responded = false;
    const settle = (error: unknown, answer?: SendAnswer) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', onAbort);
      if (answer === undefined) reject(error);
      else resolve(answer);
    };
    const onAbort = () => {
      req.destroy();
      settle(signal.reason);
    };
    const headers: Record<string, string> = { ...request.headers, 'content-length': String(request.body.byteLength) };
    const hostname = new URL(request.url).hostname.toLowerCase().replace(/\.$/, '');
    const req = (secure ? nodeBuiltin('node:https').request : httpRequest)(
      request.url,
      {
        method: request.method,
        headers,
        agent: secure ? https() : http,
        ...(hostname === 'localhost' ? { lookup: LOOPBACK_ONLY } : {}),
      },
      (res) => {
        responded = true;
        readAnswer(res, () => req.destroy(), settle);
      },
    );
    req.on('error', (error: Error & { reusedSocket?: boolean }) => {
      // Only a failure before any answer may be sent again (see nodeDeliverySend).
      if (req.reusedSocket && (error as { code?: string }).code === 'ECONNRESET' && !responded)
        error.reusedSocket = true;
      settle(error);
    });
    signal.addEventListener('abort', onAbort);
    req.end(request.body);
  });
}

function readAnswer(
  res: IncomingMessage,
  drop: () => void,
  settle: (error: unknown, answer?: SendAnswer) => void,
): void {
  const status = res.statusCode ?? 0;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  const done = (truncated: boolean) => {
    const answer: SendAnswer = { status, headers, bodyTruncated: truncated };
    if (!NULL_BODY_STATUSES.has(status)) answer.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, kept);
    settle(undefined, answer);
  };
  res.on('data', (chunk: Buffer) => {
    seen += chunk.byteLength;
    if (kept < ATTEMPT_BODY_BYTES) {
      const take = Math.min(chunk.byteLength, ATTEMPT_BODY_BYTES - kept);
      chunks.push(take === chunk.byteLength ? chunk : chunk.subarray(0, take));
      kept += take;
    }
    if (seen > ATTEMPT_DRAIN_BYTES) {
      // Enough read: the rest is not waited for (the connection is dropped, not reused).
      done(true);
      drop();
    }
  });
  res.on('end', () => done(seen > ATTEMPT_BODY_BYTES));
  res.on('error', (error) => settle(error));
  res.on('aborted', () =>
    settle(Object.assign(new Error('the receiver closed the connection mid-answer'), { code: 'ECONNRESET' })),
  );
}
