/**
 * The providers the daemon makes twins of (docs/twins.md): their names, documents and profiles
 * are `@mockpoint/twins`, an optional peer imported on the first twin of a provider (a
 * `PUT /api/endpoints/{name}/twin`, `GET /api/twins`, `--twin`), never at a start without one,
 * so that they cost nothing in the daemon's install or its start-up. The package's list
 * (its `src/index.ts`, one line a provider) is the only one: its entry names them and loads no
 * provider's code until that provider's first twin.
 *
 * @module
 */
import type { TwinCatalog } from '@mockpoint/core';
import { SETTINGS } from '@mockpoint/core/defaults';
import { packageTwinCatalog } from '@mockpoint/core/internal';
import { ConfigError } from './config.js';

/** The package that ships the providers. */
export const TWINS_PACKAGE = '@mockpoint/twins';

/** What to do without it. */
const INSTALL = `the providers' twins are the package ${TWINS_PACKAGE}, not on the npm registry yet: pack it from a mockpoint clone (npx -y pnpm@10.34.9 tarballs, docs/packages.md) and install it beside the daemon (npm install -g <clone>/tarballs/mockpoint-twins-<version>.tgz)`;

export const twinCatalog: TwinCatalog = packageTwinCatalog(() => import('@mockpoint/twins'), INSTALL);

/**
 * `--twin stripe=12111`: each a provider the package ships, read only when the setting names one,
 * so that a daemon without twins never imports the package. A bad one stops start-up with one line.
 */
export async function checkTwinProviders(twin: Record<string, number> | undefined): Promise<void> {
  const asked = Object.keys(twin ?? {});
  if (asked.length === 0) return;
  const setting = SETTINGS.twin.flag ?? SETTINGS.twin.env;
  const shipped = await twinCatalog.providers().catch(() => {
    throw new ConfigError(setting, INSTALL);
  });
  const unknown = asked.find((provider) => !shipped.includes(provider));
  if (unknown !== undefined) {
    throw new ConfigError(setting, `"${unknown}" is no provider; one of ${shipped.join(', ')}`);
  }
}
