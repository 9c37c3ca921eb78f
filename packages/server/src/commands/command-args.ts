/**
 * The arguments of a subcommand: `--flag value`, `--flag=value`, switches and
 * positionals, checked against what the command knows; and where it writes.
 *
 * @module
 */
import { SETTINGS } from '@mockpoint/core/defaults';
import { MockpointError } from '@mockpoint/core/internal';
import { closestWord, FLAG_PREFIX } from './closest-word.js';
import { type HelpRow, helpColumns } from './help-columns.js';

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
  /** Flags that take a value and may be given again (each value kept, in order, in `lists`). */
  repeated?: readonly string[];
}

/** Parsed arguments. `help` is true for `-h` / `--help`. */
export interface ParsedArgs {
  help: boolean;
  positionals: string[];
  values: Map<string, string>;
  switches: Set<string>;
  /** The values of the {@link ArgSpec.repeated} flags given. */
  lists: Map<string, string[]>;
}

/** Parses `argv` (the words after the subcommand). */
export function parseArgs(command: string, argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const parsed: ParsedArgs = { help: false, positionals: [], values: new Map(), switches: new Set(), lists: new Map() };
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
    } else if (spec.values?.includes(flag) || spec.repeated?.includes(flag)) {
      const value = eq === -1 ? args.shift() : arg.slice(eq + 1);
      if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) {
        throw new UsageError(`${flag} needs a value`);
      }
      if (spec.repeated?.includes(flag)) parsed.lists.set(flag, [...(parsed.lists.get(flag) ?? []), value]);
      else parsed.values.set(flag, value);
    } else {
      const known = [...(spec.switches ?? []), ...(spec.values ?? []), ...(spec.repeated ?? []), '--help'];
      const near = closestWord(flag, known, FLAG_PREFIX);
      const hint = near === undefined ? '' : ` did you mean ${near}?`;
      throw new UsageError(`${flag}: unknown option;${hint} see mockpoint ${command} --help`);
    }
  }
  return parsed;
}

/** The variable naming the daemon the commands talk to (theirs, not a daemon setting). */
export const URL_ENV = 'MOCKPOINT_URL';

/** A comma-separated flag value as its items (trimmed, empty ones dropped); `undefined` when none. */
export function commaList(text: string | undefined): string[] | undefined {
  const items = text
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items === undefined || items.length === 0 ? undefined : items;
}

/** The daemon the commands talk to unless told otherwise. */
export const DEFAULT_DAEMON_URL = 'http://localhost:16540';

/** The daemon to talk to: `--url` (or MOCKPOINT_URL, default http://localhost:16540) and `--token` (or MOCKPOINT_ADMIN_TOKEN). */
export function daemonTarget(
  args: ParsedArgs,
  env: Record<string, string | undefined>,
): { url: string; token?: string } {
  const flag = args.values.has('--url') ? '--url' : env[URL_ENV] ? URL_ENV : undefined;
  const url = args.values.get('--url') ?? (env[URL_ENV] || DEFAULT_DAEMON_URL);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`${flag ?? '--url'} must be an http(s) URL, e.g. ${DEFAULT_DAEMON_URL}; received ${url}`);
  }
  const token = args.values.get('--token') ?? (env[SETTINGS.adminToken.env] || undefined);
  return token === undefined ? { url } : { url, token };
}

/** The options every command that talks to a daemon shares (an {@link optionsHelp} block). */
export const DAEMON_OPTIONS = `
--url <url>     | ${URL_ENV} | the daemon (default ${DEFAULT_DAEMON_URL})
--token <token> | ${SETTINGS.adminToken.env} | the admin token, when the daemon requires one
`;

/** An environment variable's name, as a help row's middle cell. */
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * The rows of a help block: one option a line, `flag | text` or `flag | VARIABLE | text` (the
 * environment variable it falls back to; no flag: a variable the command reads); a line
 * `| more text` goes on the text above.
 */
function optionRows(block: string): HelpRow[] {
  const rows: HelpRow[] = [];
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    const [flag = '', ...rest] = line.split(' | ').map((cell) => cell.trim());
    // A middle cell is a variable only when it reads as one: the text may itself hold ' | '.
    const env = rest.length >= 2 && ENV_NAME.test(rest[0] as string) ? (rest.shift() as string) : '';
    const text = rest.join(' | ');
    const last = rows.at(-1);
    if (flag === '' && env === '' && last !== undefined) last.text.push(text);
    else rows.push({ flag, env, text: [text] });
  }
  return rows;
}

/**
 * A command's "Options:" block in aligned columns (flag, text with its variable), `-h, --help` last,
 * from blocks of rows as {@link optionRows} reads them.
 */
export function optionsHelp(...blocks: string[]): string {
  const all = [...blocks.flatMap(optionRows), { flag: '-h, --help', env: '', text: ['this help'] }];
  const lines = helpColumns(all);
  const header = all.every(({ env }) => env === '')
    ? 'Options:'
    : 'Options (and, after its text, the environment variable each falls back to):';
  return `${header}\n${lines.join('\n')}\n`;
}
