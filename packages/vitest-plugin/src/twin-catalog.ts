/**
 * The providers `createMockServer()` makes twins of (`setTwin({ provider: 'stripe' })`,
 * docs/twins.md), as the daemon does (packages/server/src/twin-catalog.ts): their names,
 * documents and profiles are `@mockpoint/twins`, an optional peer imported on the first twin of
 * a provider (or `GET /api/twins`), never at start, so a server without twins loads nothing of
 * it. The package's list is the only one.
 *
 * @module
 */
import { MockpointError, type TwinCatalog } from '@mockpoint/core';

/** The package that ships the providers. */
const TWINS_PACKAGE = '@mockpoint/twins';

/** The package, imported on first use; `INVALID_TWIN` naming it when it is not installed. */
async function twins(): Promise<typeof import('@mockpoint/twins')> {
  try {
    return await import('@mockpoint/twins');
  } catch {
    throw new MockpointError(
      'INVALID_TWIN',
      `provider: the providers' twins are the package ${TWINS_PACKAGE}, not on the npm registry yet: pack it from a mockpoint clone (npx -y pnpm@10.34.9 tarballs: tarballs/mockpoint-twins-<version>.tgz, docs/packages.md) and install that file beside @mockpoint/vitest (npm install --save-dev <clone>/tarballs/mockpoint-twins-<version>.tgz)`,
    );
  }
}

export const twinCatalog: TwinCatalog = {
  providers: async () => (await twins()).providers,
  load: async (provider) => (await twins()).load(provider),
};
