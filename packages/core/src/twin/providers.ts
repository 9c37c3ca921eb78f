/**
 * The providers of twins, registered once (twin-provider.ts): a new provider is its module
 * beside its flows and one line here (docs/development.md, "Adding a provider"). The one file
 * outside a provider's own that names them all.
 *
 * @module
 */
import { githubProvider } from './github-provider.js';
import { stripeProvider } from './stripe-provider.js';
import type { TwinProvider } from './twin-provider.js';

export const PROVIDERS: readonly TwinProvider[] = [stripeProvider, githubProvider];
