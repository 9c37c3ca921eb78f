/**
 * The providers' twins (docs/twins.md): each provider is one folder of this package — its
 * document, its profile, the parameters it takes today that the document lacks, and its code
 * (flows, trigger fixtures, its object, docs/development.md "Adding a provider") — read and
 * loaded only when the daemon first makes that provider's twin, one provider's code at a time.
 *
 * @module
 */
import type { TwinProvider } from '@mockpoint/core/internal';
// The package's published types (index.d.ts, written by hand): what this module answers is checked against them.
import type { Addition, ProviderTwin } from '../index.js';
import { readProviderFile } from './files.js';

/** Each provider's code, loaded on its first twin: one line per provider. */
const CODE: Record<string, () => Promise<TwinProvider>> = {
  stripe: async () => (await import('../stripe/provider.js')).stripeProvider,
  github: async () => (await import('../github/provider.js')).githubProvider,
};

export type { Addition, ProviderTwin } from '../index.js';

/** The providers shipped here. */
export const providers: readonly string[] = Object.keys(CODE);

/** The code of `provider` alone, its object (its trigger's events and fields, for `mockpoint trigger`'s help). */
export async function code(provider: string): Promise<TwinProvider> {
  const loaded = Object.hasOwn(CODE, provider) ? CODE[provider] : undefined;
  if (loaded === undefined) throw new Error(`no twin of ${provider}; one of ${providers.join(', ')}`);
  return loaded();
}

/** The document, profile, added parameters and code of `provider`. */
export async function load(provider: string): Promise<ProviderTwin> {
  const [document, profile, params, object] = await Promise.all([
    readProviderFile(`${provider}/document.json.gz`),
    readProviderFile(`${provider}/profile.json`),
    readProviderFile(`${provider}/params.json.gz`),
    code(provider),
  ]);
  if (document === undefined || profile === undefined) {
    throw new Error(`the twin of ${provider} is incomplete: its document.json.gz or profile.json is missing`);
  }
  return {
    document: JSON.parse(document),
    profile: JSON.parse(profile),
    ...(params === undefined
      ? {}
      : { additions: (JSON.parse(params) as { operations: Record<string, Addition> }).operations }),
    provider: object,
  };
}
