/**
 * A name's twin setting (`PUT /api/endpoints/{name}/twin`): a known provider
 * (`{ "provider": "stripe" }`) or a document with its profile (`{ "document",
 * "profile" }`, what `mockpoint import --stateful` sends), checked here and
 * kept as the per-name setting `twin` (settings/name-settings.ts): on
 * every store, per namespace, announced to replicas, counted by the name
 * ledger, untouched by a reset of the name's collections, gone with the name.
 *
 * @module
 */
import { fromSwagger2, isSwagger2 } from '../openapi/swagger2.js';
import { MockpointError } from '../registry/errors.js';

/** A twin setting as stored and answered. */
export interface TwinSetting {
  /** A provider the daemon ships (`stripe`). */
  provider?: string;
  /** An OpenAPI document (JSON) made stateful. */
  document?: Record<string, unknown>;
  /** The profile of `document` (docs/twins.md#the-profile-format); its defaults when absent. */
  profile?: Record<string, unknown>;
  /**
   * What an id, list or object the twin never made answers (docs/design.md#twins-as-the-provider-answers): `missing`, the provider's
   * 404 and empty lists (as the provider answers); `examples`, the document's examples with the path's
   * ids reflected (as stripe-mock does, for an SDK's own generated tests). @default 'missing'
   */
  unseen?: TwinUnseen;
}

/** What the twin answers of what it never made. */
export type TwinUnseen = 'missing' | 'examples';

/** The values of `unseen`. */
export const TWIN_UNSEEN: readonly TwinUnseen[] = ['missing', 'examples'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` as a setting, or `INVALID_TWIN` naming what is wrong. The providers shipped are asked
 * for only where a provider is named: a document's twin needs no package of providers.
 */
export async function parseTwinSetting(
  value: unknown,
  providers: () => Promise<readonly string[]>,
): Promise<TwinSetting> {
  if (!isObject(value)) {
    throw new MockpointError(
      'INVALID_TWIN',
      'a twin is { "provider" } (GET /api/twins lists them) or { "document", "profile" }',
    );
  }
  const unknown = Object.keys(value).find((key) => !['provider', 'document', 'profile', 'unseen'].includes(key));
  if (unknown !== undefined)
    throw new MockpointError(
      'INVALID_TWIN',
      `unknown field "${unknown.slice(0, 64)}": a twin takes provider, document, profile, unseen`,
    );
  const { provider, document, profile, unseen } = value;
  if (unseen !== undefined && !TWIN_UNSEEN.includes(unseen as TwinUnseen)) {
    throw new MockpointError(
      'INVALID_TWIN',
      'unseen: "missing" (an id the twin never made is the provider\'s 404, the default) or "examples" (answered from the document\'s examples)',
    );
  }
  const kept = unseen === undefined ? {} : { unseen: unseen as TwinUnseen };
  if (provider !== undefined) {
    if (document !== undefined) throw new MockpointError('INVALID_TWIN', 'provider or document: one or the other');
    const shipped = await providers();
    if (typeof provider !== 'string' || !shipped.includes(provider)) {
      throw new MockpointError(
        'INVALID_TWIN',
        `provider: one of ${shipped.length === 0 ? '(none: this daemon ships no providers)' : shipped.join(', ')}`,
      );
    }
    return { provider, ...(isObject(profile) ? { profile } : {}), ...kept };
  }
  if (!isObject(document)) throw new MockpointError('INVALID_TWIN', 'document: an OpenAPI document as a JSON object');
  if (profile !== undefined && !isObject(profile)) throw new MockpointError('INVALID_TWIN', 'profile: a JSON object');
  // A Swagger 2.0 document is kept as the OpenAPI 3.0 document it means (openapi/swagger2.ts).
  const read = isSwagger2(document) ? fromSwagger2(document) : document;
  return { document: read, ...(profile === undefined ? {} : { profile }), ...kept };
}

/** Most settings {@link DECODED} keeps, and the most characters of their texts. */
const MAX_DECODED = 16;
const MAX_DECODED_CHARS = 64 << 20;

/**
 * Settings by their stored text, newest last, shared by every name and namespace that keeps the same
 * text: a document of 12,000 paths is parsed (and its model built, twin-table.ts) once, not after every
 * namespace's idle unload or on every GET of the twin. Bounded by count and by characters.
 */
const DECODED = new Map<string, TwinSetting>();
let decodedChars = 0;

function remember(text: string, setting: TwinSetting): void {
  if (DECODED.delete(text)) decodedChars -= text.length;
  if (text.length > MAX_DECODED_CHARS) return;
  DECODED.set(text, setting);
  decodedChars += text.length;
  for (const [oldest] of DECODED) {
    if (DECODED.size <= MAX_DECODED && decodedChars <= MAX_DECODED_CHARS) break;
    DECODED.delete(oldest);
    decodedChars -= oldest.length;
  }
}

/** The stored text of a setting (a removal for none). */
export function twinSettingJson(setting: TwinSetting): string {
  const text = JSON.stringify(setting);
  // What is read back from the store is this very setting (its document's model already built).
  remember(text, setting);
  return text;
}

/** The setting kept as `text` (the one object for one text, while remembered); throws on text that is not one (damaged storage). */
export function decodeTwinSetting(text: string): TwinSetting {
  const known = DECODED.get(text);
  if (known !== undefined) {
    remember(text, known);
    return known;
  }
  const value: unknown = JSON.parse(text);
  if (!isObject(value) || (typeof value.provider !== 'string' && !isObject(value.document))) {
    throw new TypeError('a stored twin is an object with a provider or a document');
  }
  remember(text, value as TwinSetting);
  return value as TwinSetting;
}
