/**
 * The providers `createMockServer()` makes twins of (`setTwin({ provider: 'stripe' })`,
 * docs/twins.md), as the daemon does (packages/server/src/twin-catalog.ts): their documents
 * and profiles are `@mockpoint/twins`, an optional peer imported on the first twin of a
 * provider, never at start, so a server without twins loads nothing of it.
 *
 * @module
 */
import { MockpointError, type TwinCatalog, type TwinSource } from '@mockpoint/core';

/** The package that ships the providers. */
const TWINS_PACKAGE = '@mockpoint/twins';

export const twinCatalog: TwinCatalog = {
  // The providers @mockpoint/twins ships: named without importing it (the daemon's list too).
  providers: ['stripe', 'github'],
  async load(provider: string): Promise<TwinSource> {
    let twins: typeof import('@mockpoint/twins');
    try {
      twins = await import('@mockpoint/twins');
    } catch {
      throw new MockpointError(
        'INVALID_TWIN',
        `provider: the providers' twins are the package ${TWINS_PACKAGE}; install it beside @mockpoint/vitest (npm install --save-dev ${TWINS_PACKAGE})`,
      );
    }
    return twins.load(provider);
  },
};
