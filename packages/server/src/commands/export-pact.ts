/**
 * `mockpoint export --pact --consumer A --provider B [--names a,b]
 * [--namespace ns] [--secrets] [--types] [--out FILE]`: the journal as a Pact V4
 * consumer contract (core's journal/pact-contract.ts, through
 * `GET /api/requests.pact`), what was left out on standard error.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { journalPact } from '@mockpoint/core/files';
import { type CommandIo, daemonTarget, type ParsedArgs, UsageError } from './command-args.js';

/** The flags only `--pact` takes. */
export const PACT_FLAGS = ['--consumer', '--provider', '--namespace', '--session'] as const;

/** Writes the contract; the exit code (0). */
export async function exportPact(
  args: ParsedArgs,
  names: string[] | undefined,
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  for (const flag of ['--to', '--format', '--har', '--strict']) {
    if (args.values.has(flag) || args.switches.has(flag)) throw new UsageError(`--pact and ${flag}: one or the other`);
  }
  const consumer = args.values.get('--consumer');
  const provider = args.values.get('--provider');
  if (consumer === undefined || provider === undefined) {
    throw new UsageError('--pact needs --consumer <name> and --provider <name>: the contract names both');
  }
  if (args.values.has('--namespace') && args.values.has('--session')) {
    throw new UsageError('--namespace and --session are one thing: give one');
  }
  const namespace = args.values.get('--namespace') ?? args.values.get('--session');
  const target = daemonTarget(args, env);
  if (namespace !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(namespace)) {
      throw new UsageError('--namespace is a namespace name: 1-64 characters of A-Z a-z 0-9 _ -');
    }
    target.url = `${target.url.replace(/\/+$/, '')}/ns/${namespace}`;
  }
  const text = await journalPact(target, {
    consumer,
    provider,
    ...(names === undefined ? {} : { names }),
    secrets: args.switches.has('--secrets'),
    types: args.switches.has('--types'),
  });
  const contract = JSON.parse(text) as {
    interactions: unknown[];
    metadata: { mockpoint?: { leftOut?: { what: string; why: string }[] } };
  };
  for (const { what, why } of contract.metadata.mockpoint?.leftOut ?? []) {
    io.err(`mockpoint export: left out ${what}: ${why}`);
  }
  io.err(`mockpoint export: ${contract.interactions.length} Pact interaction(s) between ${consumer} and ${provider}`);
  const out = args.values.get('--out');
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}
