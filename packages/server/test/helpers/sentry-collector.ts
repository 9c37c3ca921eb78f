/**
 * A fake Sentry ingest server on 127.0.0.1 port 0: records every envelope the SDK
 * posts (gunzipped when sent with `content-encoding: gzip`) and answers 200 `{}`.
 * CORS is open, so the browser SDK can post to it from a page too.
 *
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One envelope item: its header and parsed payload (text when it is not JSON). */
export interface EnvelopeItem {
  header: { type?: string; [key: string]: unknown };
  payload: unknown;
}

/** One posted envelope. */
export interface Envelope {
  path: string;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

/** A running collector. */
export interface SentryCollector {
  /** A DSN pointing at this collector, e.g. `http://publickey@127.0.0.1:40000/1`. */
  dsn: string;
  envelopes: Envelope[];
  /** Every request received, CORS preflights included. */
  hits: number;
  /** The payloads of every `event` item received so far. */
  events(): Record<string, unknown>[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Envelope format: a header line, then per item a header line and a payload line. */
function parseEnvelope(path: string, text: string): Envelope {
  const [head = '{}', ...rest] = text.split('\n');
  const items: EnvelopeItem[] = [];
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const itemHeader = rest[i] as string;
    if (itemHeader === '') break;
    items.push({ header: JSON.parse(itemHeader) as EnvelopeItem['header'], payload: parseJson(rest[i + 1] as string) });
  }
  return { path, header: JSON.parse(head) as Record<string, unknown>, items };
}

/** Starts a collector. */
export async function startSentryCollector(): Promise<SentryCollector> {
  const envelopes: Envelope[] = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
  };
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
      return;
    }
    readBody(request).then(
      (text) => {
        envelopes.push(parseEnvelope(request.url ?? '', text));
        response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{}');
      },
      () => response.writeHead(400, cors).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    get hits() {
      return hits;
    },
    events: () =>
      envelopes.flatMap((envelope) =>
        envelope.items
          .filter((item) => item.header.type === 'event')
          .map((item) => item.payload as Record<string, unknown>),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
