/**
 * The one way an importer or a mock file reads a file its input names (a
 * mock file's `$file`, WireMock's `bodyFileName`, a Mockoon `filePath`, an
 * OpenAPI `$ref` into another file): inside one folder only. A name that is
 * absolute, that leads up and out (`..`), or that reaches out through a link
 * (every link resolved with realpath, then checked) is refused, and so is
 * anything but a regular file (a FIFO or a device would block or never end)
 * and a file over the size given, before a byte of it is read. The input is
 * anyone's: a refusal names it in printable ASCII ({@link quoted}).
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { quoted } from '../codec/quoted.js';

/** Why a name was refused: the code a mock file's `details.reason` carries. */
export type ReadRefusal = 'FILE_OUTSIDE' | 'BODY_TOO_LARGE' | 'FILE_UNREADABLE';

/** A name that may not be read; `why` is the message without the name (`is outside …`). */
export class ReadInsideError extends Error {
  constructor(
    readonly code: ReadRefusal,
    readonly ref: string,
    readonly why: string,
  ) {
    super(`${quoted(ref, 200)} ${why}`);
  }
}

/** Options for {@link realPathInside} and {@link readInside}. */
export interface ReadInsideOptions {
  /** The folder as a person calls it in a message: `the mock file's folder`, `__files/`. */
  where: string;
  /** The folder `name` is relative to, when not `folder` itself (an OpenAPI file in a subfolder): a real path inside it. @default folder */
  from?: string;
  /** Told the absolute path of each file about to be read (a watcher watches it). @default undefined */
  onFileRead?: (absolutePath: string) => void;
}

/** Whether `path` is `root` itself or outside it (both absolute, neither with a link). */
function outside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * The real path (no link in it) of `name`, relative to `folder`, when it
 * names something inside `folder`, links followed.
 * @throws ReadInsideError `FILE_OUTSIDE` (absolute, `..` out, a link out) or `FILE_UNREADABLE` (missing)
 */
export function realPathInside(folder: string, name: string, options: ReadInsideOptions): string {
  const refuse = (code: ReadRefusal, why: string) => new ReadInsideError(code, name, why);
  let root: string;
  try {
    root = realpathSync(folder);
  } catch (error) {
    throw refuse('FILE_UNREADABLE', `cannot be read: ${options.where} cannot be (${errorCode(error)})`);
  }
  if (name === '' || name.includes('\0')) throw refuse('FILE_OUTSIDE', `is not a file name in ${options.where}`);
  if (isAbsolute(name))
    throw refuse('FILE_OUTSIDE', `is an absolute path; names stay inside ${options.where} (${root})`);
  const target = resolve(options.from ?? root, name);
  if (outside(root, target))
    throw refuse('FILE_OUTSIDE', `is outside ${options.where} (${root}); names stay inside it`);
  options.onFileRead?.(target);
  let real: string;
  try {
    real = realpathSync(target);
  } catch (error) {
    throw refuse('FILE_UNREADABLE', `cannot be read (${errorCode(error)})`);
  }
  if (outside(root, real)) throw refuse('FILE_OUTSIDE', `leads outside ${options.where} (${root}) through a link`);
  if (real !== target) options.onFileRead?.(real);
  return real;
}

/**
 * The bytes of `name`, relative to `folder`, read only when it is a regular
 * file inside `folder` (links followed and checked) of at most `maxBytes`.
 * @throws ReadInsideError `FILE_OUTSIDE`, `BODY_TOO_LARGE` or `FILE_UNREADABLE`
 * @example readInside('/srv/mocks', 'fixtures/user.json', 10_485_760, { where: "the mock file's folder" })
 */
export function readInside(folder: string, name: string, maxBytes: number, options: ReadInsideOptions): Uint8Array {
  const real = realPathInside(folder, name, options);
  let fd: number;
  try {
    // No link followed at the last step, and no wait on a FIFO: what was checked is what is read.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new ReadInsideError('FILE_UNREADABLE', name, `cannot be read (${errorCode(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ReadInsideError('FILE_UNREADABLE', name, 'is not a regular file');
    if (stat.size > maxBytes) {
      throw new ReadInsideError(
        'BODY_TOO_LARGE',
        name,
        `is ${stat.size} bytes, more than the body limit ${maxBytes} (MOCKPOINT_MAX_BODY_BYTES)`,
      );
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
