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
import type { VerifyReport, VerifyRequest } from '@mockpoint/core';
import { HOST_RULE_FORMS, isHostRule, SETTINGS } from '@mockpoint/core/defaults';
import { loadMockFile, parseYaml } from '@mockpoint/core/files';
import { isOwnError, loadVerify } from '@mockpoint/core/internal';
import { loadOpenApi } from '../openapi/load-openapi.js';
import {
  type CommandIo,
  commaList,
  DAEMON_OPTIONS,
  optionsHelp,
  type ParsedArgs,
  parseArgs,
  UsageError,
} from './command-args.js';
import { daemonClient } from './daemon-client.js';
import { junitXml } from './verify/verify-junit.js';
import { verifyText } from './verify/verify-text.js';
import { UPSTREAM_REPEATED, UPSTREAM_VALUES, upstreamOf } from './verify/verify-upstream-args.js';

export const VERIFY_HELP = `Usage: mockpoint verify --openapi <file> [--journal] [options]
       mockpoint verify --upstream <url> [--ignore <path>]… [--header 'name: value']… [options]

Checks a running daemon's routes (or, with --config, a mock file's) against an OpenAPI 3.0 or 3.1
document (JSON or YAML): every route's path and method an operation of it, every answer's status
declared, its headers and body valid against the response's schema for its content type; with
--journal, every recorded request against the operation's request schemas. With --upstream, each
route's example request is replayed against the live API and the answers' shapes compared
(fields missing, extra or retyped; status; content type). The requests are made by the daemon
(with --config, by this command), only to hosts its MOCKPOINT_PROXY_ALLOW_HOSTS allows
(docs/verify.md). Prints a report; exits 0 when the routes fit, 1 when they drifted, 2 when it
could not tell (also when a replayed request failed and nothing drifted).

${optionsHelp(
  `
--openapi <file>        | the OpenAPI document; $refs into files beside it are read
--journal               | also check each recorded request against the document (a daemon's journal)
--upstream <url>        | replay each route against this live API and compare shapes
--ignore <path>         | a shape path not compared (body.updatedAt, body.items.*.id); repeatable
--header <'name: value'> | a header sent with every replayed request (recorded secrets never are); repeatable
--unsafe                | also replay POST, PUT, PATCH, DELETE, … (they may change the live API)
--har <file>            | take routes' example requests from this HAR file first
--concurrency <n>       | replayed requests in flight at once (default 4, at most 16)
--timeout <ms>          | one replayed request's bound (default 10000)
--total <ms>            | the whole replay's bound (default 60000)
--config <file>         | verify this mock file's routes instead of a daemon's (no daemon needed)
--names <a,b>           | only these endpoints (default: every endpoint with routes)
--json                  | print the report as JSON instead
--junit <file>          | also write the report as JUnit XML (a test case per route)
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
    value = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text);
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

/** The hosts `MOCKPOINT_PROXY_ALLOW_HOSTS` allows this process to replay to (`--config`). */
function allowHostsOf(env: Record<string, string | undefined>): string[] {
  const hosts = commaList(env[SETTINGS.proxyAllowHosts.env]) ?? [];
  const bad = hosts.find((host) => !isHostRule(host));
  if (bad !== undefined) {
    throw new UsageError(`${SETTINGS.proxyAllowHosts.env}: "${bad}" is not a host rule: give ${HOST_RULE_FORMS}`);
  }
  return hosts;
}

/** A mock file's routes (every endpoint with routes, or those of `names`) checked here, as the daemon would. */
async function verifyMockFile(
  path: string,
  request: VerifyRequest,
  env: Record<string, string | undefined>,
): Promise<VerifyReport> {
  const { readOpenApi, verifyRoutes, readLiveOptions } = await loadVerify();
  const doc = request.openapi === undefined ? undefined : readOpenApi(request.openapi);
  const live =
    request.upstream === undefined
      ? undefined
      : readLiveOptions(request.upstream, {
          upstream: (await import('@mockpoint/core/node')).nodeUpstream,
          allowHosts: allowHostsOf(env),
          maxBodyBytes: SETTINGS.maxBodyBytes.default as number,
        });
  const { endpoints } = loadMockFile(path);
  const wanted = request.names === undefined ? undefined : new Set(request.names);
  const chosen = endpoints.filter((e) => (wanted === undefined ? e.routes.length > 0 : wanted.has(e.name)));
  return verifyRoutes(doc, chosen, { pause: () => Promise.resolve(), ...(live === undefined ? {} : { live }) });
}

export async function runVerify(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('verify', argv, {
    values: ['--url', '--token', '--openapi', '--names', '--junit', '--config', ...UPSTREAM_VALUES],
    switches: ['--json', '--journal', '--unsafe'],
    repeated: UPSTREAM_REPEATED,
  });
  if (args.help) {
    io.out(VERIFY_HELP);
    return 0;
  }
  if (args.positionals.length > 0) {
    throw new UsageError(`unexpected argument "${args.positionals[0]}"; give the document with --openapi <file>`);
  }
  const request = await requestOf(args);
  const config = args.values.get('--config');
  if (config !== undefined && (args.values.has('--url') || args.values.has('--token'))) {
    throw new UsageError('--config verifies a mock file without a daemon: --url and --token are for a daemon');
  }
  if (config !== undefined && request.journal === true) {
    throw new UsageError("--journal checks a daemon's recorded requests: a mock file has none (leave out --config)");
  }
  const client = config === undefined ? daemonClient(args, env) : undefined;
  let report: VerifyReport;
  try {
    if (client === undefined) report = await verifyMockFile(config as string, request, env);
    else report = await client.verify(request);
  } catch (error) {
    // Could not tell (a document the daemon refuses, no daemon): exit 2, not the 1 of drift.
    if (isOwnError(error)) throw new UsageError(error.message);
    throw error;
  }
  const junit = args.values.get('--junit');
  if (junit !== undefined) await writeFile(junit, junitXml(report));
  io.out(args.switches.has('--json') ? `${JSON.stringify(report, null, 2)}\n` : verifyText(report));
  if (!report.ok) return 1;
  // Nothing drifted, but a route could not be replayed: it could not tell.
  return (report.checked.unreached ?? 0) > 0 ? 2 : 0;
}

/** The verify request the flags ask for. */
async function requestOf(args: ParsedArgs): Promise<VerifyRequest> {
  const file = args.values.get('--openapi');
  const upstream = await upstreamOf(args);
  if (file === undefined && upstream === undefined) {
    throw new UsageError(
      '--openapi <file> or --upstream <url> is required: the OpenAPI document or the live API to verify against',
    );
  }
  if (file === undefined && args.switches.has('--journal')) {
    throw new UsageError('--journal checks the recorded requests against the document: give --openapi <file>');
  }
  const request: VerifyRequest = {};
  if (file !== undefined) request.openapi = await documentOf(file);
  const names = commaList(args.values.get('--names'));
  if (names !== undefined) request.names = names;
  if (args.switches.has('--journal')) request.journal = true;
  if (upstream !== undefined) request.upstream = upstream;
  return request;
}
