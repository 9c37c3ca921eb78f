/**
 * The arguments of a subcommand: `--flag value`, `--flag=value`, switches and
 * positionals, checked against what the command knows; and where it writes.
 *
 * @module
 */
import { MockpointError } from '@mockpoint/core/internal';

/** Where a command writes. */
export interface CommandIo {
  out(text: string): void;
  err(line: string): void;
}

/** A bad argument: one line, exit 2. */
export class UsageError extends MockpointError {
  override readonly name = 'UsageError';
  declare readonly code: 'INVALID_ARGUMENT';
  constructor(message: string) {
    super('INVALID_ARGUMENT', message);
  }
}

/** What a command accepts. */
export interface ArgSpec {
  /** Flags that take a value. */
  values?: readonly string[];
  /** Flags that are on when present. */
  switches?: readonly string[];
}

/** Parsed arguments. `help` is true for `-h` / `--help`. */
export interface ParsedArgs {
  help: boolean;
  positionals: string[];
  values: Map<string, string>;
  switches: Set<string>;
}

/** Parses `argv` (the words after the subcommand). */
export function parseArgs(command: string, argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const parsed: ParsedArgs = { help: false, positionals: [], values: new Map(), switches: new Set() };
  const args = [...argv];
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-h' || arg === '--help') {
      parsed.help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (spec.switches?.includes(flag)) {
      if (eq !== -1) throw new UsageError(`${flag} takes no value`);
      parsed.switches.add(flag);
    } else if (spec.values?.includes(flag)) {
      const value = eq === -1 ? args.shift() : arg.slice(eq + 1);
      if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) {
        throw new UsageError(`${flag} needs a value`);
      }
      parsed.values.set(flag, value);
    } else throw new UsageError(`${flag}: unknown option; see mockpoint ${command} --help`);
  }
  return parsed;
}

/** The daemon to talk to: `--url` (default http://localhost:16540) and `--token` (or MOCKPOINT_ADMIN_TOKEN). */
export function daemonTarget(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
): { url: string; token?: string } {
  const url = args.values.get('--url') ?? env.MOCKPOINT_URL ?? 'http://localhost:16540';
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`--url must be an http(s) URL, e.g. http://localhost:16540; received ${url}`);
  }
  const token = args.values.get('--token') ?? (env.MOCKPOINT_ADMIN_TOKEN || undefined);
  return token === undefined ? { url } : { url, token };
}

/** The help lines of the daemon options every networked command shares. */
export const DAEMON_OPTIONS = `  --url <url>        the daemon (default http://localhost:16540, or MOCKPOINT_URL)
  --token <token>    the admin token, when the daemon requires one (default MOCKPOINT_ADMIN_TOKEN)`;
