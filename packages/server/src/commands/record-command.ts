/**
 * `mockpoint record --upstream URL --name NAME [--out FILE] [--redact h1,h2]`:
 * records an API through a running daemon. It appends a recording proxy route
 * to NAME, prints each request the upstream answers, and on Ctrl-C removes the
 * proxy route (NAME then replays only what was recorded, failing closed on
 * anything else) and writes NAME as a mock file (`mockpoint export`'s format).
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { createClient, type LiveRequest } from '@mockpoint/core';
import { SETTINGS } from '@mockpoint/core/defaults';
import { exportMockFile } from '@mockpoint/core/files';
import { ALWAYS_REDACTED_TEXT, MockpointError } from '@mockpoint/core/internal';
import {
  type CommandIo,
  commaList,
  DAEMON_OPTIONS,
  daemonTarget,
  optionsHelp,
  parseArgs,
  UsageError,
} from './command-args.js';

/** The id of the proxy route `record` adds (and removes when stopped). */
export const RECORD_ROUTE_ID = 'mockpoint-record';

export const RECORD_HELP = `Usage: mockpoint record --upstream <url> --name <name> [options]

Records an API through a running daemon: requests to /endpoint/<name>/… are forwarded to
the upstream, answered as it answers, and each distinct one is kept as a route. Ctrl-C
stops: the endpoint then replays only what was recorded (anything else: 404
NO_ROUTE_MATCHED, never the network) and is written as a mock file.

The daemon must allow the upstream's host: ${SETTINGS.proxyAllowHosts.env} (a loopback or
private address itself, e.g. 127.0.0.1).

${optionsHelp(
  `
--upstream <url>      | the API to record, e.g. https://api.example.com/v1
--name <name>         | the endpoint to record into
--out <file>          | write the mock file here (default: standard output)
--redact <h1,h2>      | more headers never written
                      | (${ALWAYS_REDACTED_TEXT} never are)
--match-headers <a,b> | request headers whose values tell recordings apart
`,
  DAEMON_OPTIONS,
)}`;

const list = commaList;

/** One line per recorded request: `GET /users/7?x=1 -> 200`. */
function recordLine(request: LiveRequest): string {
  const search = request.upstream === undefined ? '' : new URL(request.upstream.url).search;
  const outcome = request.upstream?.statusCode ?? request.upstream?.error ?? request.statusCode;
  return `  ${request.method} ${request.subpath}${search} -> ${outcome}`;
}

async function call(target: { url: string; token?: string }, path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  if (target.token !== undefined) headers.set('authorization', `Bearer ${target.token}`);
  try {
    return await fetch(`${target.url.replace(/\/+$/, '')}${path}`, { ...init, headers });
  } catch (error) {
    throw new MockpointError(
      'CONNECTION_FAILED',
      `cannot reach the daemon at ${target.url}: ${(error as Error).message}`,
    );
  }
}

async function refusal(response: Response): Promise<MockpointError> {
  const text = await response.text();
  let message = `the daemon answered ${response.status}`;
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    if (body.error?.message) message = body.error.message;
  } catch {
    // not a mockpoint error body
  }
  return new MockpointError('UNEXPECTED_RESPONSE', message);
}

/** Runs until `signal` aborts, then writes the file; resolves the exit code. */
export async function runRecord(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
  signal: AbortSignal,
): Promise<number> {
  const args = parseArgs('record', argv, {
    values: ['--url', '--token', '--upstream', '--name', '--out', '--redact', '--match-headers'],
  });
  if (args.help) {
    io.out(RECORD_HELP);
    return 0;
  }
  const upstream = args.values.get('--upstream');
  const name = args.values.get('--name');
  if (upstream === undefined) throw new UsageError('--upstream is required, e.g. --upstream https://api.example.com');
  if (name === undefined) throw new UsageError('--name is required: the endpoint to record into');
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
  const target = daemonTarget(args, env);
  const proxy: Record<string, unknown> = { url: upstream, record: true };
  const redact = list(args.values.get('--redact'));
  if (redact !== undefined) proxy.redact = redact;
  const matchHeaders = list(args.values.get('--match-headers'));
  if (matchHeaders !== undefined) proxy.matchHeaders = matchHeaders;

  const base = `/api/endpoints/${encodeURIComponent(name)}/routes`;
  // A proxy route left by an earlier run that did not stop cleanly is replaced.
  await call(target, `${base}/${RECORD_ROUTE_ID}`, { method: 'DELETE' });
  const added = await call(target, base, {
    method: 'POST',
    body: JSON.stringify({ routes: [{ id: RECORD_ROUTE_ID, answer: { proxy } }] }),
  });
  if (!added.ok) throw await refusal(added);

  const client = createClient({ baseUrl: target.url, token: target.token });
  const endpointUrl = `${target.url.replace(/\/+$/, '')}/endpoint/${name}`;
  let said = false;
  const requests = client.watchRequests(name, {
    signal,
    onJournal: () => {
      if (!said)
        io.err(
          `mockpoint record: recording ${upstream} into "${name}": send requests to ${endpointUrl}/…; Ctrl-C to stop`,
        );
      said = true;
    },
  });
  try {
    for await (const request of requests) {
      if (request.upstream !== undefined) io.err(recordLine(request));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }

  // Replay-only from now on: without the proxy route nothing reaches the network.
  const removed = await call(target, `${base}/${RECORD_ROUTE_ID}`, { method: 'DELETE' });
  if (!removed.ok && removed.status !== 404) throw await refusal(removed);
  const text = await exportMockFile(target, { names: [name] });
  const out = args.values.get('--out');
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  io.err(`mockpoint record: "${name}" now replays only what was recorded${out === undefined ? '' : `; wrote ${out}`}`);
  return 0;
}
