/**
 * The client of the daemon a command talks to: `--url` and `--token` (or their
 * environment variables, {@link daemonTarget}) made into `@mockpoint/core`'s client.
 *
 * @module
 */
import { createClient, type MockpointClient } from '@mockpoint/core';
import { daemonTarget, type ParsedArgs } from './command-args.js';

/** The client of the daemon that `args` and `env` name; a {@link UsageError} for a bad `--url`. */
export function daemonClient(args: ParsedArgs, env: Record<string, string | undefined>): MockpointClient {
  const target = daemonTarget(args, env);
  return createClient({ baseUrl: target.url, token: target.token });
}
