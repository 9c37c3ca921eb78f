/**
 * The per-name setting `twin`: a provider or an OpenAPI document with its profile (docs/twins.md).
 * A PUT's body is read here as an object; the route checks it against the providers it ships and
 * builds the twin before it is kept (`http/routes/twin.ts`).
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import { decodeTwinSetting, type TwinSetting, twinSettingJson } from '../twin/twin-setting.js';
import { objectBody } from './object-body.js';
import { BODY_LIMIT, type NameSetting } from './setting-declaration.js';

const UNSEEN_TEXT =
  "What an id or list the twin never made answers: missing (default), the provider's 404 and empty lists; examples, the document's examples with the path's ids (as a provider's own mock server answers an SDK's generated tests).";

const settingSchema = onFirstUse(() =>
  z
    .object({
      provider: z.string().optional().describe('A provider this daemon ships (GET /api/twins).'),
      document: z.record(z.string(), z.unknown()).optional().describe('An OpenAPI 3 document (JSON) to make stateful.'),
      profile: z.record(z.string(), z.unknown()).optional().describe('Its profile (docs/twins.md#the-profile-format).'),
      unseen: z.enum(['missing', 'examples']).optional().describe(UNSEEN_TEXT),
    })
    .describe('A twin: a provider, or a document with its profile.'),
);

export const twinSetting: NameSetting<TwinSetting, TwinSetting, Record<string, unknown>> = {
  key: 'twin',
  label: 'twin',
  encode: twinSettingJson,
  decode: decodeTwinSetting,
  limit: BODY_LIMIT,
  input: {
    schema: () => settingSchema(),
    // A document is large: read in event-loop turns from 1 MiB on.
    read: (request, limits) => objectBody(request, limits.maxBodyBytes, { inTurnsFrom: 1 << 20 }),
  },
  file: {
    member: () =>
      z
        .strictObject({
          provider: z.string().optional().describe('A provider the daemon ships (GET /api/twins lists them).'),
          document: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('An OpenAPI 3 document (JSON) made stateful.'),
          profile: z
            .record(z.string(), z.unknown())
            .optional()
            .describe('Its profile (docs/twins.md#the-profile-format).'),
          unseen: z.enum(['missing', 'examples']).optional().describe(UNSEEN_TEXT),
        })
        .refine((twin) => (twin.provider === undefined) !== (twin.document === undefined), 'a provider or a document')
        .optional()
        .describe(
          'A stateful twin of a provider ({ provider }) or of an OpenAPI document ({ document, profile }), as PUT /api/endpoints/{name}/twin takes it (docs/twins.md); its objects are the collections.',
        ),
    // Its shape here; the daemon checks the rest when it is applied (its providers, the document's paths).
    check: (value) => value as TwinSetting,
    read: async (get) => {
      // 404: no twin (or a daemon older than twins).
      const text = await get('twin?setting=true');
      return text === undefined ? undefined : decodeTwinSetting(text);
    },
    body: twinSettingJson,
    entry: (twin) => JSON.parse(twinSettingJson(twin)),
    clear: { unknown: true, olderOk: true },
  },
};
