/**
 * `mockpoint import FILE --name NAME [--out FILE]`: an OpenAPI 3.0/3.1 or
 * Swagger 2.0 document as a mock file with one endpoint whose routes answer
 * each operation (see openapi/openapi-routes.ts), or a json-server database
 * (`--from json-server`, or detected) as one endpoint with its collections and
 * resource routes (core's files/json-server-db.ts), or a HAR 1.2 file (`--from
 * har`, or detected) as one endpoint whose routes answer each recorded request
 * (core's files/har-mock-file.ts). The file written is checked like any mock
 * file before it is written.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DEFAULT_MAX_BODY_BYTES } from '@mockpoint/core/defaults';
import { harMockFile, isHar, isJsonServerDb, jsonServerMockFile, parseMockFile } from '@mockpoint/core/files';
import { MockpointError } from '@mockpoint/core/internal';
import { openApiRoutes } from '../openapi/openapi-routes.js';
import { type CommandIo, optionsHelp, parseArgs, UsageError } from './command-args.js';

export const IMPORT_HELP = `Usage: mockpoint import <openapi.yaml|json> --name <name> [--out mockpoint.json] [--validate off|report|enforce]
       mockpoint import <db.json> --from json-server --name <name> [--id <field>] [--out mockpoint.json]
       mockpoint import <file.har> --from har --name <name> [--host <host>] [--out mockpoint.json]
       mockpoint import <schema.graphql> --from graphql --name <name> [--out mockpoint.json]

Turns an OpenAPI 3.0/3.1 or Swagger 2.0 document into a mock file: one endpoint <name> with a route
per operation (GET /pets/{petId} answers at /endpoint/<name>/pets/:petId), answering the first
success response's example, or a value sampled from its schema when it has none. The same document
always gives the same file. Start a daemon with it (mockpoint --config FILE) or apply it.
A request header Prefer: code=404, Prefer: example=<name> or Prefer: code=404, example=<name> picks
another documented response (each is a route of its own in the file).
With --validate, each route also checks requests against the operation's schemas (JSON body, query,
path and header parameters): report answers as usual and lists the errors in the journal entry;
enforce answers 400 REQUEST_INVALID with them.

With --from json-server (or a JSON file that is plainly a json-server database: an object of arrays
and objects), each array becomes a collection, kept byte for byte, served in json-server's
conventions by a resource route at /endpoint/<name>/<collection> (docs/state.md); each object
(a singular resource such as "profile") is answered by a GET route with it as data.

With --from har (or a file that is plainly HAR: {"log":{"entries":[…]}}), each recorded request
becomes a route answering it as it was answered, bytes exact (method, path, query and text body
matched exactly; secrets redacted); a request answered differently over time answers in that order,
the last answer staying. What cannot be carried over is listed on standard error (docs/har.md).

With --from graphql (or a .graphql / .gql file), the SDL schema becomes the endpoint's graphql:
kept byte for byte, checked as the daemon checks it; every GraphQL request to /endpoint/<name>
is answered from it with deterministic data, errors and introspection (docs/graphql.md).

${optionsHelp(`
--name <name>     | the endpoint's name (required)
--from <kind>     | openapi, json-server, har or graphql (default: told from the file)
--id <field>      | json-server: the field that holds each item's id (default: id)
--host <host>     | har: only the requests sent to this host (default: every host)
--out <file>      | write to this file instead of standard output
--validate <mode> | OpenAPI: report or enforce: check requests against the document (default: off)
`)}`;

export async function runImport(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseArgs('import', argv, { values: ['--name', '--out', '--validate', '--from', '--id', '--host'] });
  if (args.help) {
    io.out(IMPORT_HELP);
    return 0;
  }
  const [source] = args.positionals;
  const name = args.values.get('--name');
  if (source === undefined || args.positionals.length !== 1) {
    throw new UsageError('import needs one file: mockpoint import openapi.yaml --name petstore');
  }
  if (name === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new UsageError('--name is required: 1-64 characters of A-Z a-z 0-9 _ -');
  }
  // Not named `from`: in the bundle, that name then a string reads as an import to the installed-package check.
  const kind = args.values.get('--from');
  if (kind !== undefined && kind !== 'openapi' && kind !== 'json-server' && kind !== 'har' && kind !== 'graphql') {
    throw new UsageError(`--from is openapi, json-server, har or graphql, not "${kind}"`);
  }
  if (kind === 'graphql' || (kind === undefined && /\.(graphql|gql)$/i.test(source))) {
    return importGraphql(source, name, args.values, io);
  }
  if (kind === 'har' || (kind === undefined && /\.(har|json)$/i.test(source) && isHar(readText(source)))) {
    return importHar(source, name, args.values, io);
  }
  if (args.values.has('--host')) throw new UsageError('--host is for a HAR file (--from har)');
  if (kind === 'json-server' || (kind === undefined && source.endsWith('.json') && isJsonServerDb(readText(source)))) {
    return importJsonServer(source, name, args.values, io);
  }
  if (args.values.has('--id')) throw new UsageError('--id is for a json-server database (--from json-server)');
  const validate = args.values.get('--validate');
  if (validate !== undefined && validate !== 'off' && validate !== 'report' && validate !== 'enforce') {
    throw new UsageError(`--validate is off, report or enforce, not "${validate}"`);
  }
  let imported: Awaited<ReturnType<typeof openApiRoutes>>;
  try {
    // off: the file as without the flag (no validate field).
    imported = await openApiRoutes(source, validate === undefined || validate === 'off' ? {} : { validate });
  } catch (error) {
    throw new MockpointError(
      'OPENAPI_UNREADABLE',
      `${source}: not a readable OpenAPI document: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const { routes, skipped } = imported;
  for (const operation of skipped) {
    const id = operation.operationId === undefined ? '' : ` (${operation.operationId})`;
    io.err(`mockpoint import: skipped ${operation.method} ${operation.path}${id}: ${operation.reason}`);
  }
  if (skipped.length > 0) {
    io.err(`mockpoint import: ${skipped.length} operation(s) skipped, ${routes.length} route(s) written`);
  }
  const text = `${JSON.stringify({ version: 1, endpoints: [{ name, routes }] }, null, 2)}\n`;
  // Checked as any mock file, but for the body limit: a daemon's is its own (MOCKPOINT_MAX_BODY_BYTES).
  parseMockFile(text, { file: args.values.get('--out') ?? 'import.json', format: 'json', maxBodyBytes: Infinity });
  const routesBytes = Buffer.byteLength(JSON.stringify({ routes }));
  if (routesBytes > DEFAULT_MAX_BODY_BYTES) {
    io.err(
      `mockpoint import: the routes take ${routesBytes} bytes, more than the default body limit ${DEFAULT_MAX_BODY_BYTES}: start the daemon with MOCKPOINT_MAX_BODY_BYTES=${Math.ceil((routesBytes * 1.1) / 1048576) * 1048576} or more to apply the file`,
    );
  }
  const out = args.values.get('--out');
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}

/** The text of `file`, or `FILE_UNREADABLE`-style usage error naming it. */
function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** `mockpoint import schema.graphql --from graphql`: the SDL as one endpoint's schema, byte for byte. */
function importGraphql(source: string, name: string, values: ReadonlyMap<string, string>, io: CommandIo): number {
  for (const flag of ['--validate', '--id']) {
    if (values.has(flag)) throw new UsageError(`${flag} is not for a GraphQL schema`);
  }
  const text = `${JSON.stringify({ version: 1, endpoints: [{ name, graphql: readText(source) }] }, null, 2)}\n`;
  const out = values.get('--out');
  // Checked as any mock file (the schema is built: INVALID_GRAPHQL_SCHEMA with its line), but for the body limit.
  parseMockFile(text, { file: out ?? 'import.json', format: 'json', maxBodyBytes: Infinity });
  io.err(`mockpoint import: the GraphQL schema of ${basename(source)} as endpoint ${name}`);
  if (out === undefined) io.out(text);
  else writeFileSync(out, text);
  return 0;
}

/** `mockpoint import db.json --from json-server`: the database as one endpoint with collections and resource routes. */
function importJsonServer(source: string, name: string, values: ReadonlyMap<string, string>, io: CommandIo): number {
  if (values.has('--validate')) throw new UsageError('--validate is for an OpenAPI document');
  const idField = values.get('--id');
  if (idField !== undefined && (idField.length === 0 || idField.length > 64)) {
    throw new UsageError('--id is the name of a field: 1-64 characters');
  }
  const imported = jsonServerMockFile(readText(source), { name, idField, file: basename(source) });
  for (const reason of imported.skipped) io.err(`mockpoint import: skipped ${reason}`);
  const out = values.get('--out');
  // Checked as any mock file, but for the body limit: a daemon's is its own (MOCKPOINT_MAX_BODY_BYTES).
  parseMockFile(imported.text, { file: out ?? 'import.json', format: 'json', maxBodyBytes: Infinity });
  io.err(
    `mockpoint import: ${imported.collections.length} collection(s) (${imported.collections.join(', ') || 'none'}) and ${imported.singular.length} singular resource(s) as endpoint ${name}`,
  );
  if (out === undefined) io.out(imported.text);
  else writeFileSync(out, imported.text);
  return 0;
}

/** `mockpoint import recording.har --from har`: the recorded requests as one endpoint's routes. */
async function importHar(
  source: string,
  name: string,
  values: ReadonlyMap<string, string>,
  io: CommandIo,
): Promise<number> {
  for (const flag of ['--validate', '--id']) {
    if (values.has(flag)) throw new UsageError(`${flag} is not for a HAR file`);
  }
  const host = values.get('--host');
  const imported = await harMockFile(readText(source), {
    name,
    file: basename(source),
    ...(host === undefined ? {} : { host }),
  });
  for (const reason of imported.skipped) io.err(`mockpoint import: left out ${reason}`);
  const out = values.get('--out');
  // Checked as any mock file, but for the body limit: a daemon's is its own (MOCKPOINT_MAX_BODY_BYTES).
  parseMockFile(imported.text, { file: out ?? 'import.json', format: 'json', maxBodyBytes: Infinity });
  io.err(
    `mockpoint import: ${imported.imported} of ${imported.entries} entries as ${imported.routes} route(s) of endpoint ${name}${imported.hosts.length > 0 ? ` (from ${imported.hosts.join(', ')})` : ''}`,
  );
  if (out === undefined) io.out(imported.text);
  else writeFileSync(out, imported.text);
  return 0;
}
