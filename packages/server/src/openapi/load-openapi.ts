/**
 * Reads an OpenAPI document (3.0, 3.1, or Swagger 2.0; YAML or JSON) and replaces
 * every `$ref` with what it points at: `#/…` pointers into the document, and
 * `other.yaml#/…` into files in the document's folder (or below it; never above
 * it, never through a link that leads out, never a URL). A reference that points back into itself
 * (a recursive schema) is left as an empty schema at its second visit, which is
 * all that sampling needs. Small on purpose: the import needs values, not validation.
 *
 * @module
 */
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { parseYaml, ReadInsideError, realPathInside } from '@mockpoint/core/files';
import { quoted } from '@mockpoint/core/internal';

type Json = Record<string, unknown>;

/**
 * The Example Objects a `$ref` into `#/components/examples/` resolved to. A
 * document may put such a reference where an example's *value* belongs
 * (GitHub's: `examples.default.value: { $ref: '#/components/examples/issue' }`);
 * the answer is then that Example Object's `value`, never the object itself.
 */
const EXAMPLE_OBJECTS = new WeakSet<object>();

/** Whether `value` is an Example Object a `$ref` into `#/components/examples/` resolved to. */
export function isExampleObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && EXAMPLE_OBJECTS.has(value);
}

/** A `$ref` as an error message shows it: quoted, cut at 200 characters, printable ASCII only (a document's text is anyone's). */
function shown(ref: string): string {
  return quoted(ref, 200);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A document's text as a value: JSON with JSON.parse, since large descriptions
 * (GitHub's) are JSON and a YAML parser reads them much slower (figures in
 * docs/performance.md); anything else as YAML.
 */
function parseText(text: string): unknown {
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML in flow style, or not valid: the YAML parser reads it or says why.
    }
  }
  return parseYaml(text);
}

/** Follows a JSON pointer (`/components/schemas/Pet`) into `doc`. */
function pointer(doc: unknown, path: string, ref: string): unknown {
  let node = doc;
  for (const raw of path.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) && !Array.isArray(node)) throw new Error(`$ref ${shown(ref)} points at nothing`);
    node = (node as Json)[key];
    if (node === undefined) throw new Error(`$ref ${shown(ref)} points at nothing`);
  }
  return node;
}

/** Options for {@link loadOpenApi}. */
export interface LoadOpenApiOptions {
  /**
   * Read `other.yaml#/…` references from files beside the document. Off for a
   * document that came as text from a client (the MCP `import_mock_file` tool):
   * a `$ref` naming a file would read any file of the daemon's machine into the answer.
   * @default true
   */
  fileRefs?: boolean;
}

/** The document at `path`, every `$ref` resolved. */
export async function loadOpenApi(path: string, options: LoadOpenApiOptions = {}): Promise<Json> {
  const fileRefs = options.fileRefs ?? true;
  // The folder as the file system names it (no link in it): what a $ref names is checked against it.
  const folder = await realpath(dirname(resolve(path)));
  const file = join(folder, basename(path));
  const inside = (ref: string, target: string, from: string): string => {
    try {
      return realPathInside(folder, target, { where: "the document's folder", from });
    } catch (error) {
      if (error instanceof ReadInsideError) throw new Error(`$ref ${shown(ref)} ${error.why}`);
      throw error;
    }
  };
  const files = new Map<string, unknown>();
  const read = async (target: string): Promise<unknown> => {
    if (!files.has(target)) files.set(target, parseText(await readFile(target, 'utf8')));
    return files.get(target);
  };
  // Each target is resolved once and shared by every reference to it: documents whose schemas
  // refer to each other many times over (Stripe's) would otherwise be copied out exponentially.
  // (A target met again while it is still being resolved, by another path, is resolved on that path too.)
  const resolved = new Map<string, unknown>();
  const walk = async (node: unknown, file: string, seen: readonly string[]): Promise<unknown> => {
    if (Array.isArray(node)) return Promise.all(node.map((item) => walk(item, file, seen)));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const [target = '', fragment = ''] = node.$ref.split('#', 2);
      if (target !== '' && !fileRefs) {
        throw new Error(`$ref ${shown(node.$ref)} points outside the document: only #/… references are read here`);
      }
      if (target !== '' && (isAbsolute(target) || /^[a-z][a-z0-9+.-]*:/i.test(target))) {
        throw new Error(
          `$ref ${shown(node.$ref)} is not a path relative to the document: absolute paths and URLs are not read`,
        );
      }
      // The document itself may be anywhere; what it refers to stays in its folder, links followed (core's realPathInside).
      const targetFile = target === '' ? file : inside(node.$ref, target, dirname(file));
      const key = `${targetFile}#${fragment}`;
      if (seen.includes(key)) return {};
      if (resolved.has(key)) return resolved.get(key);
      const doc = await read(targetFile);
      const value = await walk(pointer(doc, fragment, node.$ref), targetFile, [...seen, key]);
      if (fragment.startsWith('/components/examples/') && isObject(value)) EXAMPLE_OBJECTS.add(value);
      resolved.set(key, value);
      return value;
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = await walk(value, file, seen);
    return out;
  };
  const doc = await read(file);
  const version = isObject(doc) ? (doc.openapi ?? doc.swagger) : undefined;
  if (!isObject(doc) || typeof version !== 'string' || !/^(2\.0|3\.[01]\.\d+)$/.test(version)) {
    throw new Error('it has no `openapi: 3.0.x`/`3.1.x` or `swagger: "2.0"` field');
  }
  if (!isObject(doc.paths)) throw new Error('it has no `paths` object');
  return (await walk(doc, file, [])) as Json;
}
