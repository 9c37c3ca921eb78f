/**
 * `mockpoint import FILE|DIR --name NAME [--from KIND] [--out FILE | --apply]
 * [--json] [--strict]`: another tool's mocks (or an API description) as a mock
 * file with one endpoint. One entry point for every format: the importers are
 * listed in import/registry.ts, one file each; this command picks one (`--from`,
 * or the first that recognises the source), checks what it made like any mock
 * file, lists what it left out (`mockpoint import: left out <what>: <why>` on
 * standard error, and in `--json` output), and writes it, prints it or applies
 * it to a running daemon.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_MAX_BODY_BYTES, ROUTES_BODY_FACTOR, routesBodyBytes } from '@mockpoint/core/defaults';
import { applyMockFile, describePlan, parseMockFile } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { type Converted, flagsOf, type Importer, importSource } from './import/importer.js';
import { IMPORTERS } from './import/registry.js';
import { applyTwin, statefulSetting } from './import/stateful.js';

const KINDS = IMPORTERS.map((importer) => importer.kind);

export const IMPORT_HELP = `Usage: mockpoint import <file|dir> --name <name>
                        [--from ${KINDS.join('|')}]
                        [--out mockpoint.json | --apply [--url <url>] [--token <token>]]
                        [--json] [--strict]
       mockpoint import <openapi> --name <name> --stateful [--profile profile.json]
                        [--unseen missing|examples]
                        [--out twin.json | --apply [--url <url>] [--token <token>]]

Turns another tool's mocks, a recording or an API description into a mock file: one endpoint <name>.
The format is told from the file (or folder) when --from is left out. Start a daemon with the file
(mockpoint --config FILE), or --apply it to a running one. Whatever cannot be carried over is listed
on standard error, one line each ("mockpoint import: left out <what>: <why>"), never dropped
silently; --strict then exits 1 (the file is still written). docs/import.md has every format.

${IMPORTERS.map((importer) => importer.help).join('\n\n')}

${optionsHelp(
  `
--name <name>   | the endpoint's name (required; proto: its package; pact: its provider)
--from <kind>   | ${KINDS.join(', ')} (default: told from the file)
--out <file>    | write to this file instead of standard output
--apply         | apply the file to a running daemon (as mockpoint apply) instead of printing it
--json          | print { kind, name, leftOut, mockFile | applied } as JSON on standard output
--strict        | exit 1 when anything was left out
--stateful      | an OpenAPI document as a stateful twin (collections, kept objects; docs/twins.md), not routes
--profile <file> | with --stateful: the twin's profile (JSON or YAML; default: the profile's defaults)
--unseen <how>  | with --stateful: what an id or list the twin never made answers: missing (the provider's
                | 404, an empty list; the default) or examples (the document's examples)
${IMPORTERS.map((importer) => importer.options.trim())
  .filter(Boolean)
  .join('\n')}
`,
  DAEMON_OPTIONS,
)}`;

/** Which importer's flag each importer-specific flag is. */
const FLAG_OWNERS = new Map(IMPORTERS.flatMap((importer) => flagsOf(importer.options).map((flag) => [flag, importer])));

export async function runImport(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined> = {},
): Promise<number> {
  const args = parseArgs('import', argv, {
    values: ['--name', '--out', '--from', '--url', '--token', '--profile', '--unseen', ...FLAG_OWNERS.keys()],
    switches: ['--apply', '--json', '--strict', '--stateful'],
  });
  if (args.help) {
    io.out(IMPORT_HELP);
    return 0;
  }
  const [path] = args.positionals;
  if (path === undefined || args.positionals.length !== 1) {
    throw new UsageError('import needs one file or folder: mockpoint import openapi.yaml --name petstore');
  }
  const named = args.values.get('--name');
  if (named !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(named)) {
    throw new UsageError('--name is 1-64 characters of A-Z a-z 0-9 _ -');
  }
  const apply = args.switches.has('--apply');
  const out = args.values.get('--out');
  if (apply && out !== undefined) throw new UsageError('--apply and --out: one or the other');
  if (!apply && (args.values.has('--url') || args.values.has('--token'))) {
    throw new UsageError('--url and --token are for --apply');
  }
  if (args.switches.has('--stateful')) return stateful(path, named, args, io, env);
  if (args.values.has('--profile')) throw new UsageError('--profile is for --stateful');
  if (args.values.has('--unseen')) throw new UsageError('--unseen is for --stateful');
  // Not named `from`: in the bundle, that name then a string reads as an import to the installed-package check.
  const kind = args.values.get('--from');
  const source = importSource(path);
  let importer: Importer | undefined;
  if (kind !== undefined) {
    importer = IMPORTERS.find((candidate) => candidate.kind === kind);
    if (importer === undefined) throw new UsageError(`--from is ${KINDS.join(', ')}, not "${kind}"`);
  } else {
    importer = IMPORTERS.find((candidate) => candidate.detect(source));
    if (importer === undefined) {
      throw new UsageError(
        `${path}: not a format mockpoint imports by itself; name it with --from (${KINDS.join(', ')})`,
      );
    }
  }
  const name = named ?? importer.nameOf?.(source);
  if (importer.namesItself !== true && (name === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(name))) {
    throw new UsageError('--name is required: 1-64 characters of A-Z a-z 0-9 _ -');
  }
  const own = new Map<string, string>();
  for (const [flag, owner] of FLAG_OWNERS) {
    const value = args.values.get(flag);
    if (value === undefined) continue;
    if (owner !== importer) throw new UsageError(`${flag} is for --from ${owner.kind}, not ${importer.kind}`);
    own.set(flag, value);
  }
  const converted = await importer.convert(source, { name: name ?? '', values: own });
  // Checked as any mock file, but for the body limit: a daemon's is its own (MOCKPOINT_MAX_BODY_BYTES).
  const file =
    converted.checked ??
    parseMockFile(converted.mockFile, {
      file: out ?? 'import.json',
      format: 'json',
      maxBodyBytes: Infinity,
    });
  report(converted, io);
  const routesBytes = Math.max(
    0,
    ...(JSON.parse(converted.mockFile) as { endpoints: { routes?: unknown[] }[] }).endpoints.map((endpoint) =>
      Buffer.byteLength(JSON.stringify({ routes: endpoint.routes ?? [] })),
    ),
  );
  // A routes list may take ROUTES_BODY_FACTOR times the body limit (GitHub's description: 9 MB, within it).
  if (routesBytes > routesBodyBytes(DEFAULT_MAX_BODY_BYTES)) {
    io.err(
      `mockpoint import: the routes take ${routesBytes} bytes, more than the default limit of a routes list ${routesBodyBytes(DEFAULT_MAX_BODY_BYTES)} (${ROUTES_BODY_FACTOR} x the body limit): start the daemon with MOCKPOINT_MAX_BODY_BYTES=${Math.ceil((routesBytes * 1.1) / ROUTES_BODY_FACTOR / 1048576) * 1048576} or more to apply the file`,
    );
  }
  const json = args.switches.has('--json');
  const head = `{"kind":${JSON.stringify(importer.kind)},"name":${JSON.stringify(converted.name ?? name)},"leftOut":${JSON.stringify(converted.leftOut)}`;
  if (apply) {
    const plan = await applyMockFile(file, daemonTarget(args, env));
    if (json) io.out(`${head},"applied":${JSON.stringify(plan)}}\n`);
    else for (const line of describePlan(plan)) io.out(`${line}\n`);
  } else if (out !== undefined) {
    writeFileSync(out, converted.mockFile);
    if (json) io.out(`${head},"out":${JSON.stringify(out)}}\n`);
  } else if (json) {
    // The mock file as its own JSON text: exact (big integers, key order), not parsed and written again.
    io.out(`${head},"mockFile":${converted.mockFile.trimEnd()}}\n`);
  } else io.out(converted.mockFile);
  return args.switches.has('--strict') && converted.leftOut.length > 0 ? 1 : 0;
}

/** `--stateful`: the document as a twin setting, written or put on a daemon. */
async function stateful(
  path: string,
  name: string | undefined,
  args: ReturnType<typeof parseArgs>,
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  if (name === undefined) throw new UsageError('--stateful needs --name: the endpoint the twin answers at');
  const kind = args.values.get('--from');
  if (kind !== undefined && kind !== 'openapi') throw new UsageError('--stateful is for an OpenAPI document');
  const unseen = args.values.get('--unseen');
  if (unseen !== undefined && unseen !== 'missing' && unseen !== 'examples') {
    throw new UsageError(`--unseen is missing or examples, not "${unseen.slice(0, 40)}"`);
  }
  const setting = statefulSetting(path, args.values.get('--profile'), unseen);
  const out = args.values.get('--out');
  if (args.switches.has('--apply')) {
    const answer = await applyTwin(setting, name, daemonTarget(args, env));
    if (!answer.ok) {
      io.err(`mockpoint import: the daemon refused the twin: ${answer.text.trim()}`);
      return 1;
    }
    const made = JSON.parse(answer.text) as { operations: number; collections: string[] };
    io.out(`twin ${name}: ${made.operations} operation(s), collections ${made.collections.join(', ') || '(none)'}\n`);
  } else if (out !== undefined) writeFileSync(out, setting);
  else io.out(setting);
  return 0;
}

/** The left-out lines and the summary, on standard error. */
function report(converted: Converted, io: CommandIo): void {
  for (const { what, why } of converted.leftOut) io.err(`mockpoint import: left out ${what}: ${why}`);
  io.err(`mockpoint import: ${converted.summary}`);
}
