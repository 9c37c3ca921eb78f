/**
 * `mockpoint export [--names a,b] [--format json|yaml] [--out FILE]`: a running
 * daemon's endpoints as a mock file (every `data` exact), so export → reset →
 * apply answers the same bytes. With `--har`, its request journal as HAR 1.2;
 * with `--to wiremock|mockoon`, the subset those tools can express; with
 * `--pact`, the journal as a Pact V4 consumer contract (export-pact.ts).
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { exportMockFile, journalHar, mockoonEnvironment, parseMockFile, wireMockMappings } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { exportPact, PACT_FLAGS } from './export-pact.js';

export const EXPORT_HELP = `Usage: mockpoint export [options] > mockpoint.json

Writes a running daemon's endpoints (every name holding anything: records, routes, queued answers,
collections, hosts, GraphQL schemas, protobuf definitions, chaos, signature checks with their
secrets, the state's start) as a mock file in JSON or YAML, every data exactly as stored (big
integers, key order, escapes), in name order (docs/files.md#what-export-holds).
With --har, writes the request journal instead (every name, or those of --names) as a HAR 1.2
file for browsers' devtools and other tools, oldest request first (docs/har.md).
With --to wiremock, writes the endpoints as WireMock stub mappings ({ "mappings": [...] }, for
WireMock's --root-dir mappings/ or POST /__admin/mappings/import): the subset WireMock can express,
the rest listed on standard error ("mockpoint export: left out <what>: <why>"; docs/import.md).
With --to mockoon, writes them as one Mockoon environment (for mockoon-cli start --data FILE),
the subset Mockoon can express, the rest listed the same way; with --out, binary bodies are
written beside it as files Mockoon serves (FILE.files/). --strict then exits 1 when anything
was left out (the file is still written).
With --pact, writes the request journal as a Pact V4 consumer contract between --consumer and
--provider (every name's requests, or those of --names; a namespace's or a test session's with
--namespace): what the code under test sent and what the mocks answered, each distinct request
and answer once, its path the one the provider sees (below /endpoint/<name>), secrets left out
unless --secrets. Pact's verifier checks it against the real provider (docs/pact.md).

${optionsHelp(
  `
--names <a,b> | only these names (also names with routes and no record)
--format <f>  | json or yaml (default: yaml for an --out ending in .yaml/.yml, else json)
--har         | the request journal as HAR 1.2 instead of the mock file
--to <tool>   | wiremock: the endpoints as WireMock stub mappings; mockoon: as a Mockoon environment
--strict      | with --to: exit 1 when anything was left out
--pact        | the request journal as a Pact V4 consumer contract instead of the mock file
--consumer <c> | with --pact: the consumer's name (required)
--provider <p> | with --pact: the provider's name (required)
--namespace <ns> | with --pact: that namespace's (test session's) journal; also --session
--secrets     | with --pact: keep Authorization, Cookie, Set-Cookie and API-key headers
--types       | with --pact: check JSON answers by type, not value (Pact type matchers)
--out <file>  | write to this file instead of standard output
`,
  DAEMON_OPTIONS,
)}`;

export async function runExport(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('export', argv, {
    values: ['--url', '--token', '--names', '--format', '--out', '--to', ...PACT_FLAGS],
    switches: ['--har', '--strict', '--pact', '--secrets', '--types'],
  });
  if (args.help) {
    io.out(EXPORT_HELP);
    return 0;
  }
  const names = args.values
    .get('--names')
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (args.switches.has('--pact')) return exportPact(args, names, io, env);
  for (const flag of [...PACT_FLAGS, '--secrets', '--types']) {
    if (args.values.has(flag) || args.switches.has(flag)) throw new UsageError(`${flag} is for --pact`);
  }
  const out = args.values.get('--out');
  if (args.switches.has('--har')) {
    if (args.values.has('--to')) throw new UsageError('--har and --to: one or the other');
    if (args.values.has('--format')) throw new UsageError('--format is for a mock file; a HAR file is JSON');
    const text = await harText(daemonTarget(args, env), names);
    if (out === undefined) io.out(text);
    else writeFileSync(out, text);
    return 0;
  }
  const to = args.values.get('--to');
  if (to === undefined && args.switches.has('--strict')) throw new UsageError('--strict is for --to wiremock|mockoon');
  if (to !== undefined) {
    if (to !== 'wiremock' && to !== 'mockoon') throw new UsageError(`--to is wiremock or mockoon, not "${to}"`);
    const tool = to === 'wiremock' ? 'WireMock mappings are' : 'a Mockoon environment is';
    if (args.values.has('--format')) throw new UsageError(`--format is for a mock file; ${tool} JSON`);
    const file = await exportMockFile(daemonTarget(args, env), names ? { names, format: 'json' } : { format: 'json' });
    const { endpoints } = parseMockFile(file, { file: 'export.json', format: 'json', maxBodyBytes: Infinity });
    const exported =
      to === 'wiremock'
        ? { ...wireMockMappings(endpoints), made: 'WireMock mapping(s)' }
        : {
            // Binary bodies go to files beside the environment (Mockoon serves bytes from a file only).
            ...mockoonEnvironment(
              endpoints,
              names?.length === 1 ? names[0] : 'mockpoint',
              out === undefined ? {} : { filesDir: `${basename(out).replace(/\.json$/i, '')}.files` },
            ),
            made: 'Mockoon route(s)',
          };
    for (const { what, why } of exported.skipped) io.err(`mockpoint export: left out ${what}: ${why}`);
    const count = 'mappings' in exported ? exported.mappings : exported.routes;
    io.err(`mockpoint export: ${count} ${exported.made} from ${endpoints.length} endpoint(s)`);
    if (out === undefined) io.out(exported.text);
    else {
      for (const { path, bytes } of 'files' in exported ? exported.files : []) {
        const file = join(dirname(out), path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, bytes);
      }
      writeFileSync(out, exported.text);
    }
    return args.switches.has('--strict') && exported.skipped.length > 0 ? 1 : 0;
  }
  const format = args.values.get('--format') ?? (out !== undefined && /\.ya?ml$/i.test(out) ? 'yaml' : 'json');
  if (format !== 'json' && format !== 'yaml') throw new UsageError(`--format must be json or yaml; received ${format}`);
  const text = await exportMockFile(daemonTarget(args, env), names ? { names, format } : { format });
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}

/** The journal as HAR: one name's or every name's as the daemon writes it; several names', filtered from every name's. */
async function harText(target: { url: string; token?: string }, names: string[] | undefined): Promise<string> {
  if (names === undefined || names.length === 1) return journalHar(target, names?.[0]);
  const har = JSON.parse(await journalHar(target)) as { log: { entries: { _mockpoint: { name: string } }[] } };
  const wanted = new Set(names);
  har.log.entries = har.log.entries.filter((entry) => wanted.has(entry._mockpoint.name));
  return JSON.stringify(har);
}
