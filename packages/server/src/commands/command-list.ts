/**
 * The subcommands of `mockpoint`, in the order `--help` lists them: what the
 * dispatcher in cli.ts runs (one runner per name, checked by the compiler) and
 * what `--help` prints, so no command can be missing from either. Also the
 * closest name to a mistyped one.
 *
 * @module
 */
import { closestWord } from './closest-word.js';

/** A subcommand as `--help` shows it. */
interface CommandEntry {
  /** The arguments after the name, e.g. `[name] [--json]`. */
  usage: string;
  /** What it does, in a few words. */
  summary: string;
}

export const COMMANDS = {
  tail: { usage: '[name] [--json] [--forward <url>]', summary: 'print requests as they arrive' },
  validate: { usage: '<file>', summary: 'check a mock file (mockpoint.yaml / .json)' },
  apply: { usage: '<file> [--prune] [--dry-run]', summary: 'make a running daemon hold a mock file' },
  export: {
    usage: '[--names a,b] > mockpoint.json',
    summary: "a running daemon's endpoints as a mock file (--har, --pact: its journal)",
  },
  verify: {
    usage: '--openapi <file> [--names a,b] [--json] [--junit <file>]',
    summary: "check a running daemon's routes against an OpenAPI document",
  },
  coverage: {
    usage: '[--names a,b] [--since <t>] [--json] [--fail-on-dead]',
    summary: "a running daemon's routes never hit, requests that hit none",
  },
  send: { usage: '<url> [--data <json>] [--sign <scheme> --secret <s>]', summary: 'send a signed webhook' },
  import: {
    usage: '<file|dir> --name <name> [--from <kind>]',
    summary: "another tool's mocks or an API description as a mock file",
  },
  record: {
    usage: '--upstream <url> --name <name> [--out <file>]',
    summary: 'record an API through a running daemon',
  },
  trigger: {
    usage: '<name> <event> [--to <url>]',
    summary: "send one of a twin's provider events on demand",
  },
  mcp: { usage: '[--url <url>] [--token <t>]', summary: 'an MCP server on stdio for AI assistants' },
  repair: { usage: '--data-dir <dir>', summary: 'repair a damaged LevelDB data directory (daemon stopped)' },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

export function isCommand(word: string): word is CommandName {
  return Object.hasOwn(COMMANDS, word);
}

/** The `Usage:` block of `mockpoint --help`: the daemon's own line, then every subcommand, aligned. */
export function usageBlock(daemon: { usage: string; summary: string }): string {
  const rows = [
    [`mockpoint ${daemon.usage}`, daemon.summary],
    ...Object.entries(COMMANDS).map(([name, entry]) => [`mockpoint ${name} ${entry.usage}`, entry.summary]),
  ] as const;
  const width = Math.max(...rows.map(([usage]) => usage.length)) + 2;
  return rows
    .map(([usage, summary], i) => `${i === 0 ? 'Usage: ' : '       '}${usage.padEnd(width)}${summary}`)
    .join('\n');
}

/** The command `word` was most likely meant to be, when one is close (at most 2 edits, or a prefix). */
export function closestCommand(word: string): CommandName | undefined {
  return closestWord(word, Object.keys(COMMANDS) as CommandName[]);
}
