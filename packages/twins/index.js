// The providers' twins (docs/twins.md): each provider's document and profile, read and
// decompressed only when the daemon first makes that provider's twin.
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/** The providers shipped here. */
export const providers = ['stripe', 'github'];

const folder = new URL('./', import.meta.url);

/** A gzipped JSON file of the provider's folder, `undefined` when it has none. */
async function gzipped(path) {
  try {
    return JSON.parse((await promisify(gunzip)(await readFile(new URL(path, folder)))).toString('utf8'));
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The document and profile of `provider`, and the parameters it takes today that the document
 * lacks (`additions`, by `METHOD /path`; Stripe's derived from stripe-node by scripts/stripe-params.mjs).
 */
export async function load(provider) {
  if (!providers.includes(provider)) throw new Error(`no twin of ${provider}; one of ${providers.join(', ')}`);
  const [document, profile, params] = await Promise.all([
    gzipped(`${provider}/document.json.gz`),
    readFile(new URL(`${provider}/profile.json`, folder), 'utf8'),
    gzipped(`${provider}/params.json.gz`),
  ]);
  return {
    document,
    profile: JSON.parse(profile),
    ...(params === undefined ? {} : { additions: params.operations }),
  };
}
