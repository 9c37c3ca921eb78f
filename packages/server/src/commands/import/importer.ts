/**
 * What one importer of `mockpoint import` is: a format's name, how to tell it
 * from the file (or folder) given, and how to turn it into a mock file with
 * the list of what was left out. One file per format in this folder, listed
 * in registry.ts; the command (import-command.ts) does the rest for every
 * format alike: checking the file, `--out`, `--apply`, `--json`, `--strict`
 * and the `left out` lines.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import type { LeftOut, MockFile } from '@mockpoint/core/files';
import { UsageError } from '../command-args.js';

/** The FILE or DIR given to `mockpoint import`. */
export interface ImportSource {
  /** The path as given. */
  path: string;
  /** Whether it is a folder (e.g. WireMock's `mappings/` + `__files/`). */
  dir: boolean;
  /** The file's text, read once (a usage error for a folder or an unreadable file). */
  text(): string;
}

/** What a {@link Importer.convert} is given besides the source. */
export interface ConvertOptions {
  /** The endpoint's name (`--name`); `''` when it was left out, which only an importer that {@link Importer.namesItself} allows. */
  name: string;
  /** The values of the importer's own flags (those in {@link Importer.options}) that were given. */
  values: ReadonlyMap<string, string>;
}

/** What an importer made. */
export interface Converted {
  /** The mock file, JSON text (checked by the command before it is written or applied). */
  mockFile: string;
  /** Everything that could not be carried over, each with why; `[]` when nothing. */
  leftOut: LeftOut[];
  /** One line for standard error: what was imported (`3 routes of endpoint api`). */
  summary: string;
  /** The endpoint's name, when the importer chose it (no `--name` given). */
  name?: string;
  /** The mock file already checked (`parseMockFile` of `mockFile`), when the importer did: not checked twice. */
  checked?: MockFile;
}

/** One format `mockpoint import` reads. */
export interface Importer {
  /** The `--from` word. */
  kind: string;
  /** The paragraph of `mockpoint import --help` about this format. */
  help: string;
  /** Flags of its own, as an options-help block (`--host <host> | har: only …`), one a line; '' when none. */
  options: string;
  /** The endpoint's name when `--name` is left out, from the source itself; absent: `--name` is required. */
  nameOf?(source: ImportSource): string | undefined;
  /** The source names the endpoint itself (a Pact file's provider): `--name` may be left out. */
  namesItself?: true;
  /** Whether the source is plainly this format (used when `--from` is left out; cheap, never throws). */
  detect(source: ImportSource): boolean;
  /** The mock file of the source; throws a MockpointError with a stable code when it cannot. */
  convert(source: ImportSource, options: ConvertOptions): Promise<Converted>;
}

/** The source at `path`: a file read lazily, or a folder. */
export function importSource(path: string): ImportSource {
  // A path that cannot be read is a file: the importer says why it cannot read it (OpenAPI also reads URLs).
  const dir = statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  let text: string | undefined;
  return {
    path,
    dir,
    text() {
      if (dir) throw new UsageError(`${path} is a folder; this format is one file`);
      if (text === undefined) {
        try {
          text = readFileSync(path, 'utf8');
        } catch (error) {
          throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
        }
      }
      return text;
    },
  };
}

/** The flags an options block names (`--host <host> | …` → `--host`). */
export function flagsOf(options: string): string[] {
  return [...options.matchAll(/^(--[a-z-]+)/gm)].map((match) => match[1] as string);
}
