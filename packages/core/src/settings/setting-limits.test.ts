/**
 * Each declared setting's size limit is the one its PUT holds a value to: a body past it is refused
 * with the code its declaration names (settings/name-settings.ts `limit`), and nothing is kept.
 * A new setting gets a body past its limit in {@link PAST_LIMIT}.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { NAME_SETTINGS, SETTING_KINDS, type SettingKind } from './name-settings.js';
import type { SettingLimits } from './setting-declaration.js';

/** The small limits the app is given, so a value past each is quick to make. */
const LIMITS: SettingLimits = {
  maxBodyBytes: 4096,
  maxDelayMs: 60_000,
  maxGraphqlSchemaBytes: 1024,
  maxGrpcDefinitionsBytes: 1024,
};

/** A body past `limit` bytes of each setting's own limit, otherwise well formed. */
const PAST_LIMIT: Record<SettingKind, (limit: number) => string> = {
  hosts: (limit) => JSON.stringify({ hosts: Array.from({ length: limit / 8 }, (_, i) => `h${i}.example.com`) }),
  graphql: (limit) => JSON.stringify({ schema: `# ${'a'.repeat(limit)}\ntype Query { a: String }` }),
  grpc: (limit) =>
    JSON.stringify({ protos: { 'a.proto': `syntax = "proto3";\n// ${'a'.repeat(limit)}\nmessage A {}` } }),
  chaos: (limit) => JSON.stringify({ rate: 1, faults: ['503'], seed: 1, pad: 'a'.repeat(limit) }),
  signature: (limit) => JSON.stringify({ scheme: 'stripe', secret: 'a'.repeat(limit) }),
  twin: (limit) => JSON.stringify({ provider: 'stripe', profile: { pad: 'a'.repeat(limit) } }),
};

describe('each setting refuses a value past its declared limit with its declared code', () => {
  it.each(SETTING_KINDS)('%s', async (kind) => {
    const store = new MemoryStore();
    const app = createApp({ store, ...LIMITS });
    const { key, limit } = NAME_SETTINGS[kind];
    const body = PAST_LIMIT[kind](LIMITS[limit.option]);
    // Past its own limit, within the body limit where its limit is another.
    if (limit.option !== 'maxBodyBytes') expect(Buffer.byteLength(body)).toBeLessThan(LIMITS.maxBodyBytes);
    const response = await app.request(`/api/endpoints/held/${key}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const answer = (await response.json()) as { error?: { code?: string } };
    expect(answer.error?.code).toBe(limit.code);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await store.settingNames(kind)).toEqual([]);
  });
});
