/**
 * The data files of a provider's folder (its document, profile and added parameters), read next
 * to the package: `src/` and `dist/` are both one folder down from the providers' folders. The
 * single executables replace this module with one holding the files (scripts/binaries.mjs).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const ROOT = new URL('../', import.meta.url);

/** `path` of the package (`stripe/profile.json`) as text, gunzipped when it ends in `.gz`; `undefined` when absent. */
export async function readProviderFile(path: string): Promise<string | undefined> {
  try {
    const bytes = await readFile(new URL(path, ROOT));
    return (path.endsWith('.gz') ? await promisify(gunzip)(bytes) : bytes).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
    throw error;
  }
}
