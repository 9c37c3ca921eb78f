/**
 * The small API a recorder records in the import comparisons (WireMock's recorder, a HAR that
 * Chromium writes): a real server on 127.0.0.1, the bodies it answers with, and its job whose
 * state moves on each read. Each test answers its own paths; what they share is here.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const USER = '{"id":12345678901234567890,"name":"Zoë","tags":["a","b"]}';
export const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01]);
/** The states of the job, one a read; the last one stays. */
const JOB_STATES = ['queued', 'running', 'done'];

/** A running peer: its server, its URL, and a reset that starts the job's states again. */
export interface PeerApi {
  server: Server;
  url: string;
  reset(): void;
}

/** How a peer answers a request for another path than the shared ones: `nextJobState()` is the job's next state. */
export type PeerAnswer = (request: IncomingMessage, response: ServerResponse, nextJobState: () => string) => void;

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * Starts a peer on a free port of 127.0.0.1 (the caller closes `server`): `GET /api/logo.bin` answers
 * {@link LOGO}, `POST /api/users` 201 `created <body>`; every other request is the test's, through `answer`.
 */
export async function startPeerApi(answer: PeerAnswer): Promise<PeerApi> {
  let jobReads = 0;
  const nextJobState = (): string => JOB_STATES[Math.min(jobReads++, JOB_STATES.length - 1)] as string;
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    if (request.url === '/api/logo.bin') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(LOGO);
    } else if (request.url === '/api/users' && request.method === 'POST') {
      response.writeHead(201, { 'content-type': 'text/plain; charset=utf-8', location: '/api/users/2' });
      response.end(`created ${body}`);
    } else {
      answer(request, response, nextJobState);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reset: () => (jobReads = 0) };
}
