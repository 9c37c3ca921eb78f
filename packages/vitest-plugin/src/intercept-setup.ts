/**
 * The setup file the `mockpoint({ intercept })` plugin option adds: in each test
 * file, this worker's requests (the global `fetch`, `node:http`, `node:https`) to
 * the listed origins go to the run's instance (`inject('mockpoint')`) with their
 * Host kept, so its host mappings pick the endpoint; with test sessions, in the
 * current test's session. The hooks are removed after the file.
 *
 * @module
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, inject } from 'vitest';
import { startIntercept } from './intercept.js';
import { INTERCEPT_KEY, type InterceptProvided, PROVIDE_KEY } from './provided.js';
import { SESSION_HEADER, sessionOfRequest } from './session.js';

let stop: (() => void) | undefined;

beforeAll(() => {
  const { url } = inject(PROVIDE_KEY);
  const { origins, unmatched } = inject(INTERCEPT_KEY as never) as InterceptProvided;
  stop = startIntercept(origins, (request) => forward(url, request), unmatched);
});

/**
 * Sends `request` to the run's instance at `base` with its Host kept (fetch would
 * replace it with the instance's address), and answers what came back as it streams.
 */
async function forward(base: string, request: Request): Promise<Response> {
  const target = new URL(request.url);
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  headers.host = target.host;
  // With sessions on, the current test's (none outside tests, or with sessions off); one the request names stays.
  const session = headers[SESSION_HEADER] === undefined ? await sessionOfRequest() : undefined;
  if (session !== undefined) headers[SESSION_HEADER] = session.name;
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${base}${target.pathname}${target.search}`,
      { method: request.method, headers },
      (res) => {
        const answerHeaders = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          answerHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
        const empty = request.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status: res.statusCode ?? 502,
            headers: answerHeaders,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

afterAll(() => stop?.());
