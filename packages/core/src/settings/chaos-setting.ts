/**
 * The per-name setting `chaos`: faults, latency, bandwidth, seed (docs/chaos.md). The route serves
 * the namespace's own chaos beside it (`/api/chaos`, kept under the name `*`; `http/routes/chaos.ts`).
 *
 * @module
 */
import type { z } from 'zod';
import {
  type ChaosSettings,
  chaosSchemas,
  chaosSettingsJson,
  decodeChaosSettings,
  parseChaosInput,
} from '../api/chaos.js';
import type { Schemas } from '../api/schemas.js';
import { DEFAULT_LIMITS } from '../registry/limits.js';
import { objectBody } from './object-body.js';
import { BODY_LIMIT, type NameSetting } from './setting-declaration.js';

const made = new WeakMap<Schemas, z.ZodType>();

/** The chaos schema over the daemon's schemas, made once for them (the OpenAPI document names it once). */
export function chaosSchema(s: Schemas): z.ZodType {
  let schema = made.get(s);
  if (schema === undefined) {
    schema = chaosSchemas(s.routeAnswer.shape.latency).settings;
    made.set(s, schema);
  }
  return schema;
}

export const chaosSetting: NameSetting<ChaosSettings> = {
  key: 'chaos',
  label: 'chaos',
  encode: chaosSettingsJson,
  decode: decodeChaosSettings,
  limit: BODY_LIMIT,
  input: {
    schema: chaosSchema,
    read: async (request, limits, s) =>
      parseChaosInput(await objectBody(request, limits.maxBodyBytes), chaosSchema(s), limits.maxDelayMs),
  },
  file: {
    member: (s) =>
      chaosSchemas(s.routeAnswer.shape.latency)
        .settings.optional()
        .describe(
          'Chaos: a share (rate) of the requests answered with an injected fault (reset, timeout, 500, 503, 429), a drawn latency, a bandwidth, a seed (docs/chaos.md); removed when taken out of the file.',
        ),
    // Faults each once, latency within the default delay limit.
    check: (value, file) => parseChaosInput(value, chaosSchema(file.schemas), DEFAULT_LIMITS.maxDelayMs),
    read: async (get) => {
      // 404: no chaos (or a daemon older than chaos).
      const text = await get('chaos');
      return text === undefined ? undefined : decodeChaosSettings(text);
    },
    body: chaosSettingsJson,
    entry: (chaos) => JSON.parse(chaosSettingsJson(chaos)),
    clear: { unknown: true, olderOk: true },
  },
};
