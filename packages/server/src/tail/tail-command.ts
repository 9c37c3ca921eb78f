/**
 * `mockpoint tail [name] [--match JSON] [--json] [--forward URL] [--url DAEMON] [--token T]`:
 * the live journal in a terminal. One line per request (or NDJSON with `--json`),
 * reconnecting by itself with `Last-Event-ID`; with `--forward`, each request is
 * sent again to a local URL and the local answer's status printed. Forwarding
 * failures are reported and never stop the tail.
 *
 * @module
 */
import { createClient, type LiveRequest, type RequestFilter } from '@mockpoint/core';
import { MockpointError } from '@mockpoint/core/internal';
import { forward } from './forward.js';
import { tailLine } from './tail-line.js';

/** What `tail` was asked for. */
export interface TailOptions {
  /** Only this name's requests; every name's when undefined. */
  name?: string;
  match?: RequestFilter;
  json: boolean;
  forward?: URL;
  /** The daemon. @default 'http://localhost:16540' */
  url: string;
  token?: string;
}

/** Where `tail` writes. */
export interface TailIo {
  out(line: string): void;
  err(line: string): void;
}

export const TAIL_HELP = `Usage: mockpoint tail [name] [options]

Prints each request to a mockpoint daemon as it arrives (every name, or one).

Options:
  --match <json>     only requests matching this filter, e.g. '{"method":"POST"}'
  --json             print each request as one line of JSON (NDJSON, for jq)
  --forward <url>    send each request again to this URL (method, subpath appended,
                     query, headers but hop-by-hop ones and Host, the exact body)
                     and print the local answer's status
  --url <url>        the daemon (default http://localhost:16540)
  --token <token>    the admin token, when the daemon requires one
  -h, --help         this help

Reconnects by itself (resuming where it was); Ctrl-C ends it.
`;

/** A bad `tail` argument: one line, exit 1. */
export class TailUsageError extends MockpointError {
  override readonly name = 'TailUsageError';
  declare readonly code: 'INVALID_ARGUMENT';
  constructor(message: string) {
    super('INVALID_ARGUMENT', message);
  }
}

/** The options from the arguments after `tail`; `undefined` for `--help`. */
export function parseTailArgs(argv: readonly string[]): TailOptions | undefined {
  const options: TailOptions = { json: false, url: 'http://localhost:16540' };
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-h' || arg === '--help') return undefined;
    if (arg === '--json') {
      options.json = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value = () => {
      const given = flag !== arg ? arg.slice(eq + 1) : args.shift();
      if (given === undefined || given === '') throw new TailUsageError(`${flag} needs a value`);
      return given;
    };
    if (flag === '--match') {
      const text = value();
      try {
        options.match = JSON.parse(text) as RequestFilter;
      } catch {
        throw new TailUsageError(`--match must be JSON, e.g. '{"method":"POST"}'; received ${text}`);
      }
    } else if (flag === '--forward') options.forward = httpUrl('--forward', value());
    else if (flag === '--url') options.url = httpUrl('--url', value()).href.replace(/\/+$/, '');
    else if (flag === '--token') options.token = value();
    else if (arg.startsWith('-')) throw new TailUsageError(`unknown option ${arg} (see mockpoint tail --help)`);
    else if (options.name === undefined) options.name = arg;
    else throw new TailUsageError(`one name at most; received ${options.name} and ${arg}`);
  }
  return options;
}

function httpUrl(flag: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TailUsageError(`${flag} must be an http:// or https:// URL; received ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TailUsageError(`${flag} must be an http:// or https:// URL; received ${text}`);
  }
  return url;
}

/**
 * Runs until `signal` aborts. Rejects only when the daemon refuses the stream
 * itself (e.g. a filter it does not accept); lost connections are retried.
 */
export async function runTail(options: TailOptions, io: TailIo, signal: AbortSignal): Promise<void> {
  const client = createClient({ baseUrl: options.url, token: options.token });
  const what = options.name === undefined ? 'every name' : `"${options.name}"`;
  let connected = false;
  let lost = false;
  const requests = client.watchRequests(options.name, {
    match: options.match,
    signal,
    onJournal: (event) => {
      if (!connected) io.err(`mockpoint tail: watching ${what} on ${options.url}; Ctrl-C to stop`);
      else if (event.reset) io.err('mockpoint tail: the journal started anew (the daemon restarted); following it');
      else if (lost) io.err('mockpoint tail: reconnected');
      connected = true;
      lost = false;
    },
    onDisconnect: (error, retryMs) => {
      // Said once per outage, not at every attempt.
      if (!lost) io.err(`mockpoint tail: ${describe(error)}; reconnecting (every ${retryMs} ms at first)`);
      lost = true;
    },
  });
  for await (const request of requests) {
    if (options.json) io.out(JSON.stringify(request));
    else io.out(tailLine(request));
    if (options.forward) await relay(options.forward, request, options.json, io);
  }
}

async function relay(base: URL, request: LiveRequest, json: boolean, io: TailIo): Promise<void> {
  try {
    const result = await forward(base, request);
    const line = `  -> ${request.method} ${result.url}: ${result.status} (${result.ms} ms)`;
    // With --json, stdout stays NDJSON: the forward's report goes to stderr.
    if (json) io.err(line);
    else io.out(line);
  } catch (error) {
    io.err(`mockpoint tail: forwarding request ${request.id} failed: ${(error as Error).message}`);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('cannot reach') || message.startsWith('the ') ? message : `connection lost: ${message}`;
}
