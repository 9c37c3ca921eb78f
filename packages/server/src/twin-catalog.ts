/**
 * The providers the daemon makes twins of (docs/twins.md): their documents and
 * profiles are `@mockpoint/twins`, an optional peer loaded on the first
 * `PUT /api/endpoints/{name}/twin` of a provider, never at start, so that they
 * cost nothing in the daemon's install or its start-up.
 *
 * @module
 */
import { MockpointError, type TwinCatalog, type TwinSource } from '@mockpoint/core';
import { TWIN_PROVIDERS } from './twin-providers.js';

/** The package that ships the providers. */
export const TWINS_PACKAGE = '@mockpoint/twins';

export const twinCatalog: TwinCatalog = {
  providers: TWIN_PROVIDERS,
  async load(provider: string): Promise<TwinSource> {
    let twins: typeof import('@mockpoint/twins');
    try {
      twins = await import('@mockpoint/twins');
    } catch {
      throw new MockpointError(
        'INVALID_TWIN',
        `provider: the providers' twins are the package ${TWINS_PACKAGE}; install it beside the daemon (npm install ${TWINS_PACKAGE})`,
      );
    }
    return twins.load(provider);
  },
};
