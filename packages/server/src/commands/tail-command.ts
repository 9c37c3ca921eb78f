/**
 * `mockpoint tail [name] [--match JSON] [--json] [--forward URL] [--url DAEMON] [--token T]`:
 * the live journal in a terminal. One line per request (or NDJSON with `--json`),
 * reconnecting by itself with `Last-Event-ID` (a line per attempt while the daemon
 * cannot be reached); with `--forward`, each request is
 * sent again to a local URL and the local answer's status printed. Forwarding
 * failures are reported and never stop the tail.
 *
 * @module
 */
import { createClient, type LiveRequest, type RequestFilter } from '@mockpoint/core';
import { DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { forward } from './tail-forward.js';
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

${optionsHelp(
  `
--match <json>  | only requests matching this filter, e.g. '{"method":"POST"}'
--json          | print each request as one line of JSON (NDJSON, for jq)
--forward <url> | send each request again to this URL (method, subpath appended,
                | query, headers but hop-by-hop ones and Host, the exact body)
                | and print the local answer's status
`,
  DAEMON_OPTIONS,
)}
When the daemon cannot be reached it says so and tries again (a line per attempt, waiting
longer each time up to 2 s), resuming where it was; Ctrl-C ends it.
`;

/** The options from the arguments after `tail`; `undefined` for `--help`. */
export function parseTailArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): TailOptions | undefined {
  const args = parseArgs('tail', argv, { values: ['--match', '--forward', '--url', '--token'], switches: ['--json'] });
  if (args.help) return undefined;
  if (args.positionals.length > 1) {
    throw new UsageError(`one name at most; received ${args.positionals[0]} and ${args.positionals[1]}`);
  }
  const target = daemonTarget(args, env);
  const options: TailOptions = { json: args.switches.has('--json'), url: target.url.replace(/\/+$/, '') };
  if (target.token !== undefined) options.token = target.token;
  const [name] = args.positionals;
  if (name !== undefined) options.name = name;
  const match = args.values.get('--match');
  if (match !== undefined) {
    try {
      options.match = JSON.parse(match) as RequestFilter;
    } catch {
      throw new UsageError(`--match must be JSON, e.g. '{"method":"POST"}'; received ${match}`);
    }
  }
  const forwardTo = args.values.get('--forward');
  if (forwardTo !== undefined) {
    if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) {
      throw new UsageError(`--forward must be an http:// or https:// URL; received ${forwardTo}`);
    }
    options.forward = new URL(forwardTo);
  }
  return options;
}

/**
 * Runs until `signal` aborts. Rejects only when the daemon refuses the stream
 * itself (e.g. a filter it does not accept); lost connections are retried.
 */
export async function runTail(options: TailOptions, io: TailIo, signal: AbortSignal): Promise<void> {
  const client = createClient({ baseUrl: options.url, token: options.token });
  const what = options.name === undefined ? 'every name' : `"${options.name}"`;
  let connected = false;
  let attempts = 0;
  const requests = client.watchRequests(options.name, {
    match: options.match,
    signal,
    onJournal: (event) => {
      if (!connected) io.err(`mockpoint tail: watching ${what} on ${options.url}; Ctrl-C to stop`);
      else if (event.reset) io.err('mockpoint tail: the journal started anew (the daemon restarted); following it');
      else if (attempts > 0) io.err('mockpoint tail: reconnected');
      connected = true;
      attempts = 0;
    },
    onDisconnect: (error, retryMs) => {
      // A line per attempt, so that a tail that cannot reach its daemon never looks like one that is waiting.
      attempts++;
      const what = connected ? `lost the daemon at ${options.url}` : `cannot reach the daemon at ${options.url}`;
      const again = connected ? 'reconnecting' : 'trying again';
      io.err(
        `mockpoint tail: ${what}: ${describe(error)}; ${again} in ${seconds(retryMs)} (attempt ${attempts}; Ctrl-C to stop)`,
      );
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

/** Why a connection failed, in a few words: the network error's code when there is one. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (error.message === 'fetch failed' && cause) return cause.code ?? cause.message ?? error.message;
  // Bun's fetch errors carry the code themselves (`ECONNREFUSED`), with a sentence after it.
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return error.message;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
