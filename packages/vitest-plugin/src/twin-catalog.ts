/**
 * The providers `createMockServer()` makes twins of (`setTwin({ provider: 'stripe' })`,
 * docs/twins.md), as the daemon does (packages/server/src/twin-catalog.ts): their names,
 * documents and profiles are `@mockpoint/twins`, an optional peer imported on the first twin of
 * a provider (or `GET /api/twins`), never at start, so a server without twins loads nothing of
 * it. The package's list is the only one.
 *
 * @module
 */
import type { TwinCatalog } from '@mockpoint/core';
import { packageTwinCatalog } from '@mockpoint/core/internal';

/** The package that ships the providers. */
const TWINS_PACKAGE = '@mockpoint/twins';

export const twinCatalog: TwinCatalog = packageTwinCatalog(
  () => import('@mockpoint/twins'),
  `the providers' twins are the package ${TWINS_PACKAGE}, not on the npm registry yet: pack it from a mockpoint clone (npx -y pnpm@10.34.9 tarballs: tarballs/mockpoint-twins-<version>.tgz, docs/packages.md) and install that file beside @mockpoint/vitest (npm install --save-dev <clone>/tarballs/mockpoint-twins-<version>.tgz)`,
);
