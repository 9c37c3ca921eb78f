/**
 * A small webhook receiver, the app under test: a node:http server that checks
 * Standard Webhooks signatures with node:crypto (HMAC-SHA256 of
 * "id.timestamp.body", five minutes of tolerance), refuses a replayed
 * webhook-id, and answers 503 while it is "busy" (so senders retry).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** Events accepted, in order. */
  accepted: unknown[];
  /** Answer 503 to the next `n` requests. */
  busyFor(n: number): void;
  close(): Promise<void>;
}

/** Why a delivery is refused, or `undefined` when it is valid and new. */
function refusal(key: Buffer, headers: IncomingHttpHeaders, body: Buffer, seen: Set<string>): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return 'unsigned';
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  const ok = signatures.split(' ').some((entry) => {
    const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) return 'bad signature';
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'stale timestamp';
  if (seen.has(id)) return 'replayed';
  seen.add(id);
  return undefined;
}

/** Starts the receiver on 127.0.0.1 (a free port) with a `whsec_…` secret. */
export async function startReceiver(secret: string): Promise<Receiver> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const seen = new Set<string>();
  const accepted: unknown[] = [];
  let busy = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (busy > 0) {
        busy--;
        res.writeHead(503, { 'retry-after': '0' }).end('busy');
        return;
      }
      const body = Buffer.concat(chunks);
      const why = refusal(key, req.headers, body, seen);
      if (why !== undefined) {
        res.writeHead(why === 'replayed' ? 409 : 401).end(why);
        return;
      }
      accepted.push(JSON.parse(body.toString()));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    accepted,
    busyFor: (n) => {
      busy = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
