/**
 * A folder of `.proto` files (or one file): one endpoint whose `grpc` holds
 * every `.proto` below the folder, each by its path relative to the folder
 * (the path the others import it by), byte for byte. Only regular files
 * inside the folder are read (a link is not followed, and so never leads out
 * of it), at most {@link MAX_FILES} of them and the definitions limit in
 * bytes. The name is `--name`, or the package of the first file declaring a
 * service (`shop.v1` → `shop-v1`). The daemon compiles the definitions when
 * the file is applied (docs/grpc.md).
 *
 * @module
 */
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { DEFAULT_LIMITS } from '@mockpoint/core/defaults';
import type { LeftOut } from '@mockpoint/core/files';
import { MockpointError } from '@mockpoint/core/internal';
import type { Importer, ImportSource } from './importer.js';

/** `.proto` files read from one folder at most. */
const MAX_FILES = 10_000;
/** A `protos` key as the daemon takes it (api/grpc-json.ts). */
const PROTO_PATH = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*\.proto$/;

/** Every regular `.proto` file below `dir` (links not followed), by its `/`-separated path, sorted. */
function protoFiles(dir: string): string[] {
  const found = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith('.proto'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  if (found.length > MAX_FILES) {
    throw new MockpointError(
      'GRPC_DEFINITIONS_TOO_LARGE',
      `${dir}: ${found.length} .proto files, more than ${MAX_FILES}`,
    );
  }
  return found;
}

/** The sources of `source` by path, within the definitions limit, and what was left out. */
function readProtos(source: ImportSource): { protos: Record<string, string>; leftOut: LeftOut[] } {
  const limit = DEFAULT_LIMITS.maxGrpcDefinitionsBytes;
  if (!source.dir) return { protos: { [basename(source.path)]: source.text() }, leftOut: [] };
  const protos: Record<string, string> = {};
  const leftOut: LeftOut[] = [];
  let bytes = 0;
  for (const path of protoFiles(source.path)) {
    if (!PROTO_PATH.test(path)) {
      leftOut.push({ what: path, why: 'a .proto path is letters, digits and _ . - / (it cannot be imported by it)' });
      continue;
    }
    const file = join(source.path, path);
    bytes += statSync(file).size + Buffer.byteLength(path);
    if (bytes > limit) {
      throw new MockpointError(
        'GRPC_DEFINITIONS_TOO_LARGE',
        `${source.path}: the .proto files are more than ${limit} bytes (MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES)`,
      );
    }
    protos[path] = readFileSync(file, 'utf8');
  }
  if (Object.keys(protos).length === 0) {
    throw new MockpointError('INVALID_PROTO', `invalid proto: ${source.path}: no .proto file below it`);
  }
  return { protos, leftOut };
}

/** `package a.b;` of a source, when it has one. */
function packageOf(text: string): string | undefined {
  return /^\s*package\s+([A-Za-z_][\w.]*)\s*;/m.exec(text)?.[1];
}

/** The package of the first file declaring a service (else of the first file) as a name: `shop.v1` → `shop-v1`. */
function nameOf(source: ImportSource): string | undefined {
  const { protos } = readProtos(source);
  const texts = Object.values(protos);
  const pkg = packageOf(texts.find((text) => /^\s*service\s/m.test(text)) ?? '') ?? packageOf(texts[0] ?? '');
  return pkg?.replace(/\./g, '-').slice(0, 64);
}

export const proto: Importer = {
  kind: 'proto',
  help: `With --from proto (or a folder of .proto files, or one .proto file), every .proto below the
folder (regular files only, a link not followed) becomes the endpoint's grpc definitions, each by
its path relative to the folder, byte for byte; the daemon answers their services at
/{package.Service}/{Method} and compiles them when the file is applied (docs/grpc.md). Without
--name, the name is the package of the first file declaring a service (shop.v1 → shop-v1).`,
  options: '',
  detect: (source) =>
    source.dir
      ? (readdirSync(source.path, { recursive: true }) as string[]).some((path) => path.endsWith('.proto'))
      : source.path.endsWith('.proto'),
  nameOf,
  async convert(source, { name }) {
    const { protos, leftOut } = readProtos(source);
    const count = Object.keys(protos).length;
    return {
      mockFile: `${JSON.stringify({ version: 1, endpoints: [{ name, grpc: { protos } }] }, null, 2)}\n`,
      leftOut,
      summary: `${count} .proto file${count === 1 ? '' : 's'} as the gRPC definitions of endpoint ${name}`,
    };
  },
};
