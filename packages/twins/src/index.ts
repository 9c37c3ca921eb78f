/**
 * The providers' twins (docs/twins.md): each provider is one folder of this package — its
 * document, its profile, the parameters it takes today that the document lacks, and its code
 * (flows, trigger fixtures, its object, docs/development.md "Adding a provider") — read and
 * loaded only when the daemon first makes that provider's twin, one provider's code at a time.
 *
 * @module
 */
import type { TwinProvider } from '@mockpoint/core/internal';
import { readProviderFile } from './files.js';

/** Each provider's code, loaded on its first twin: one line per provider. */
const CODE: Record<string, () => Promise<TwinProvider>> = {
  stripe: async () => (await import('../stripe/provider.js')).stripeProvider,
  github: async () => (await import('../github/provider.js')).githubProvider,
};

/** The providers shipped here. */
export const providers: readonly string[] = Object.keys(CODE);

/** What one operation takes beyond the document: names it takes, required names it no longer needs. */
export interface Addition {
  added?: string[];
  optional?: string[];
}

/** What a twin of a provider is made of. */
export interface ProviderTwin {
  document: Record<string, unknown>;
  profile: Record<string, unknown>;
  /** The parameters it takes today that the document lacks, by `METHOD /path` (Stripe's from stripe-node, scripts/stripe-params.mjs). */
  additions?: Record<string, Addition>;
  /** Its code: flows, trigger fixtures, words. */
  provider: TwinProvider;
}

/** The document, profile, added parameters and code of `provider`. */
export async function load(provider: string): Promise<ProviderTwin> {
  const code = Object.hasOwn(CODE, provider) ? CODE[provider] : undefined;
  if (code === undefined) throw new Error(`no twin of ${provider}; one of ${providers.join(', ')}`);
  const [document, profile, params, object] = await Promise.all([
    readProviderFile(`${provider}/document.json.gz`),
    readProviderFile(`${provider}/profile.json`),
    readProviderFile(`${provider}/params.json.gz`),
    code(),
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
