/**
 * `mockpoint verify --openapi FILE [--names a,b] [--json] [--junit FILE]`: a
 * running daemon's routes (`POST /api/verify`), or a mock file's (`--config
 * FILE`, no daemon), checked against an OpenAPI 3.0/3.1 document
 * (docs/verify.md). Exit 0 when they fit, 1 when they drifted, 2 when it could
 * not tell (a bad argument, file or document, no daemon).
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createClient, type VerifyReport } from '@mockpoint/core';
import { loadMockFile } from '@mockpoint/core/files';
import { isOwnError, readOpenApi, verifyRoutes } from '@mockpoint/core/internal';
import { parse } from 'yaml';
import { loadOpenApi } from '../openapi/load-openapi.js';
import {
  type CommandIo,
  commaList,
  DAEMON_OPTIONS,
  daemonTarget,
  optionsHelp,
  parseArgs,
  UsageError,
} from './command-args.js';
import { junitXml } from './verify/verify-junit.js';
import { verifyText } from './verify/verify-text.js';

export const VERIFY_HELP = `Usage: mockpoint verify --openapi <file> [options]

Checks a running daemon's routes (or, with --config, a mock file's) against an OpenAPI 3.0 or 3.1
document (JSON or YAML): every route's path and method an operation of it, every answer's status
declared, its headers and body valid against the response's schema for its content type
(docs/verify.md). Prints a report; exits 0 when the routes fit, 1 when they drifted, 2 when it
could not tell.

${optionsHelp(
  `
--openapi <file> | the OpenAPI document; $refs into files beside it are read
--config <file>  | verify this mock file's routes instead of a daemon's (no daemon needed)
--names <a,b>    | only these endpoints (default: every endpoint with routes)
--json           | print the report as JSON instead
--junit <file>   | also write the report as JUnit XML (a test case per route)
`,
  DAEMON_OPTIONS,
)}`;

/** Whether `value` has a `$ref` naming another file (not `#/…`). */
function hasFileRefs(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && typeof (node as { $ref?: unknown }).$ref === 'string') {
      if (!(node as { $ref: string }).$ref.startsWith('#')) return true;
    }
    stack.push(...Object.values(node));
  }
  return false;
}

/**
 * The document as the daemon takes it: its text as is, or, when it refers to
 * other files, the object with those read (by the import's loader, confined to its folder).
 */
async function documentOf(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--openapi ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let value: unknown;
  try {
    value = /^\s*[{[]/.test(text) ? JSON.parse(text) : parse(text);
  } catch {
    // Not parseable here: the daemon says why (INVALID_OPENAPI).
    return text;
  }
  if (!hasFileRefs(value)) return text;
  try {
    return await loadOpenApi(file);
  } catch (error) {
    throw new UsageError(`--openapi ${file}: ${(error as Error).message}`);
  }
}

/** A mock file's routes (every endpoint with routes, or those of `names`) checked here, as the daemon would. */
async function verifyMockFile(path: string, openapi: unknown, names: string[] | undefined): Promise<VerifyReport> {
  const doc = readOpenApi(openapi);
  const { endpoints } = loadMockFile(path);
  const wanted = names === undefined ? undefined : new Set(names);
  const chosen = endpoints.filter((e) => (wanted === undefined ? e.routes.length > 0 : wanted.has(e.name)));
  return verifyRoutes(doc, chosen, { pause: () => Promise.resolve() });
}

export async function runVerify(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('verify', argv, {
    values: ['--url', '--token', '--openapi', '--names', '--junit', '--config'],
    switches: ['--json'],
  });
  if (args.help) {
    io.out(VERIFY_HELP);
    return 0;
  }
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument "${args.positionals[0]}"; give the document with --openapi <file>`);
  }
  const file = args.values.get('--openapi');
  if (file === undefined) throw new UsageError('--openapi <file> is required: the OpenAPI document to verify against');
  const names = commaList(args.values.get('--names'));
  const config = args.values.get('--config');
  if (config !== undefined && (args.values.has('--url') || args.values.has('--token'))) {
    throw new UsageError('--config verifies a mock file without a daemon: --url and --token are for a daemon');
  }
  const target = config === undefined ? daemonTarget(args, env) : undefined;
  const openapi = await documentOf(file);
  let report: VerifyReport;
  try {
    if (target === undefined) report = await verifyMockFile(config as string, openapi, names);
    else {
      const client = createClient({ baseUrl: target.url, token: target.token });
      report = await client.verify(names === undefined ? { openapi } : { openapi, names });
    }
  } catch (error) {
    // Could not tell (a document the daemon refuses, no daemon): exit 2, not the 1 of drift.
    if (isOwnError(error)) throw new UsageError(error.message);
    throw error;
  }
  const junit = args.values.get('--junit');
  if (junit !== undefined) await writeFile(junit, junitXml(report));
  io.out(args.switches.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : verifyText(report));
  return report.ok ? 0 : 1;
}
