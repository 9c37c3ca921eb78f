/**
 * A name's twin setting (`PUT /api/endpoints/{name}/twin`): a known provider
 * (`{ "provider": "stripe" }`) or a document with its profile (`{ "document",
 * "profile" }`, what `mockpoint import --stateful` sends). Kept as the seed of
 * the name's `_twin` collection, so that it lives on every store, per
 * namespace, survives a reset of the name's collections and goes with the
 * name; this module is its only reader and writer, so it can move onto another
 * store of per-name settings without touching the engine.
 *
 * @module
 */
import type { CollectionStore } from '../collections/collection-store.js';
import { itemOf } from '../collections/item.js';
import { MockpointError } from '../registry/errors.js';

/** The collection that holds the setting. */
export const TWIN_SETTING_COLLECTION = '_twin';

/** A twin setting as stored and answered. */
export interface TwinSetting {
  /** A provider the daemon ships (`stripe`). */
  provider?: string;
  /** An OpenAPI document (JSON) made stateful. */
  document?: Record<string, unknown>;
  /** The profile of `document` (docs/twins.md#the-profile-format); its defaults when absent. */
  profile?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` as a setting, or `INVALID_TWIN` naming what is wrong. */
export function parseTwinSetting(value: unknown, providers: readonly string[]): TwinSetting {
  if (!isObject(value))
    throw new MockpointError('INVALID_TWIN', 'a twin is { "provider": "stripe" } or { "document", "profile" }');
  const unknown = Object.keys(value).find((key) => key !== 'provider' && key !== 'document' && key !== 'profile');
  if (unknown !== undefined)
    throw new MockpointError(
      'INVALID_TWIN',
      `unknown field "${unknown.slice(0, 64)}": a twin takes provider, document, profile`,
    );
  const { provider, document, profile } = value;
  if (provider !== undefined) {
    if (document !== undefined) throw new MockpointError('INVALID_TWIN', 'provider or document: one or the other');
    if (typeof provider !== 'string' || !providers.includes(provider)) {
      throw new MockpointError(
        'INVALID_TWIN',
        `provider: one of ${providers.length === 0 ? '(none: this daemon ships no providers)' : providers.join(', ')}`,
      );
    }
    return { provider, ...(isObject(profile) ? { profile } : {}) };
  }
  if (!isObject(document)) throw new MockpointError('INVALID_TWIN', 'document: an OpenAPI document as a JSON object');
  if (profile !== undefined && !isObject(profile)) throw new MockpointError('INVALID_TWIN', 'profile: a JSON object');
  return { document, ...(profile === undefined ? {} : { profile }) };
}

/** The setting of `name`, if it has one. */
export async function readTwinSetting(collections: CollectionStore, name: string): Promise<TwinSetting | undefined> {
  const seed = (await collections.getSeed(name)).get(TWIN_SETTING_COLLECTION);
  return seed?.[0]?.value as TwinSetting | undefined;
}

/** Sets (or, `undefined`, removes) the setting of `name`. */
export async function writeTwinSetting(
  collections: CollectionStore,
  name: string,
  setting: TwinSetting | undefined,
): Promise<void> {
  await collections.seedOne(
    name,
    TWIN_SETTING_COLLECTION,
    setting === undefined ? undefined : [itemOf(JSON.stringify(setting))],
  );
}
