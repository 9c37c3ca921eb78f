/**
 * One HTTP request to a runtime under test, on a connection of its own (`agent: false`): a reused
 * keep-alive connection that the server closes as it idles out would fail a request for a reason
 * no runtime can help, and keep-alive is not what the contract checks.
 *
 * @module
 */
import { request } from 'node:http';

/** An answer's status, headers and bytes. */
export interface BytesAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** What one request sends besides its method and URL. */
export interface OneRequest {
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
}

/** Sends `method url` with `init` and reads the whole answer. */
export function oneRequest(method: string, url: string, init: OneRequest = {}): Promise<BytesAnswer> {
  const { headers, body, signal } = init;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
