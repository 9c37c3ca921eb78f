/**
 * The providers' catalog of a package that ships them (`@mockpoint/twins`), as
 * the daemon and the Vitest plugin both make it: the package imported on the
 * first twin of a provider (or the first list of providers), never at start,
 * and `INVALID_TWIN` saying how to get it when it is not installed. The import
 * itself stays in each caller, so that the package resolves from there.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import type { TwinCatalog } from './twin-table.js';

/** What the package's entry exports (its one list of providers, and each provider's source). */
export interface TwinPackage {
  readonly providers: readonly string[];
  load: TwinCatalog['load'];
}

/**
 * A catalog over the package `imported` brings; `missing` (what to install, and how) is the
 * `INVALID_TWIN` message when the import fails.
 * @example packageTwinCatalog(importTwins, 'install the twins package') // importTwins: the caller's own import()
 */
export function packageTwinCatalog(imported: () => Promise<TwinPackage>, missing: string): TwinCatalog {
  const twins = async (): Promise<TwinPackage> => {
    try {
      return await imported();
    } catch {
      throw new MockpointError('INVALID_TWIN', `provider: ${missing}`);
    }
  };
  return {
    providers: async () => (await twins()).providers,
    load: async (provider) => (await twins()).load(provider),
  };
}
