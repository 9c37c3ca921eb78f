// The providers' twins (docs/twins.md): each provider's document and profile, read and
// decompressed only when the daemon first makes that provider's twin.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/** The providers shipped here. */
export const providers = ['stripe', 'github'];

const folder = new URL('./', import.meta.url);

/** The document and profile of `provider`. */
export async function load(provider) {
  if (!providers.includes(provider)) throw new Error(`no twin of ${provider}; one of ${providers.join(', ')}`);
  const [document, profile] = await Promise.all([
    readFile(new URL(`${provider}/document.json.gz`, folder)).then((bytes) => promisify(gunzip)(bytes)),
    readFile(new URL(`${provider}/profile.json`, folder), 'utf8'),
  ]);
  return { document: JSON.parse(document.toString('utf8')), profile: JSON.parse(profile) };
}
