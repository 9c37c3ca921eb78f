/**
 * Connect's streaming framing for tests that call an app's gRPC methods
 * through its Fetch path: each message enveloped (flags, a 4-byte big-endian
 * length, the JSON), and an answer's end-stream message (flags 2).
 *
 * @module
 */
import type { MockpointApp } from '../index.js';

/** Connect's streaming body: each message enveloped (flags 0, 4-byte big-endian length, JSON). */
export function envelopes(messages: unknown[]): Uint8Array {
  const parts = messages.map((message) => new TextEncoder().encode(JSON.stringify(message)));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + 5 + part.length, 0));
  let at = 0;
  for (const part of parts) {
    new DataView(out.buffer).setUint32(at + 1, part.length);
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  return out;
}

/** The messages of a streaming answer, and its end-stream message (flags 2). */
export function unenvelope(bytes: Uint8Array): {
  messages: unknown[];
  end: { error?: { code: string; message?: string } };
} {
  const messages: unknown[] = [];
  let end = {};
  let at = 0;
  while (at < bytes.length) {
    const flags = bytes[at] as number;
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at + 1);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(at + 5, at + 5 + length)));
    if ((flags & 2) !== 0) end = json;
    else messages.push(json);
    at += 5 + length;
  }
  return { messages, end };
}

/** What a streaming call answered: the HTTP status and headers, the messages and the end-stream message. */
export interface StreamAnswer {
  status: number;
  headers: Headers;
  messages: unknown[];
  end: { error?: { code: string; message?: string } };
}

/** A streaming call (Connect, JSON) of `messages` to `path`. */
export async function streamCall(
  app: MockpointApp,
  path: string,
  messages: unknown[],
  headers: Record<string, string> = {},
): Promise<StreamAnswer> {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1', ...headers },
    body: envelopes(messages),
  });
  return {
    status: response.status,
    headers: response.headers,
    ...unenvelope(new Uint8Array(await response.arrayBuffer())),
  };
}
