/**
 * What earlier versions wrote for each per-name setting (before settings/name-settings.ts
 * declared them): the values below, under the keys those versions used. A store's own
 * test writes them with its raw client and calls {@link checkEarlierSettings} on a store
 * opened over them: existing data directories and Redis keys still load.
 *
 * @module
 */
import { expect } from 'vitest';
import type { SettingKind } from '../../settings/name-settings.js';
import { storeNames } from '../name-ledger.js';
import type { EndpointStore } from '../store.js';

/** The settings earlier versions kept (a setting added since was never written by one). */
type EarlierKind = Extract<SettingKind, 'signature' | 'chaos' | 'graphql' | 'grpc' | 'hosts'>;

/** One stored setting of each kind an earlier version kept: the name, the text it kept, its value. */
export const EARLIER_SETTINGS: Readonly<Record<EarlierKind, { name: string; text: string; value: unknown }>> = {
  signature: {
    name: 'hook',
    text: '{"scheme":"github","secrets":["s1"],"toleranceSec":300,"enforce":true}',
    value: { scheme: 'github', secrets: ['s1'], toleranceSec: 300, enforce: true },
  },
  chaos: {
    name: 'flaky',
    text: '{"rate":0.5,"faults":["503"],"seed":7}',
    value: { rate: 0.5, faults: ['503'], seed: 7 },
  },
  graphql: { name: 'gql', text: 'type Query { hello: String }\n', value: 'type Query { hello: String }\n' },
  grpc: {
    name: 'rpc',
    text: '{"protos":{"a/v1/a.proto":"syntax = \\"proto3\\";\\npackage a.v1;\\n"}}',
    value: '{"protos":{"a/v1/a.proto":"syntax = \\"proto3\\";\\npackage a.v1;\\n"}}',
  },
  hosts: {
    name: 'gh',
    text: '["api.github.com","*.githubusercontent.com"]',
    value: ['api.github.com', '*.githubusercontent.com'],
  },
};

/** `store`, opened over {@link EARLIER_SETTINGS} as an earlier version wrote them, reads, lists, counts and deletes each. */
export async function checkEarlierSettings(store: EndpointStore): Promise<void> {
  for (const [kind, { name, value }] of Object.entries(EARLIER_SETTINGS) as [
    SettingKind,
    { name: string; value: unknown },
  ][]) {
    expect(await store.getSetting(kind, name), kind).toEqual(value);
    expect(await store.settingNames(kind), kind).toEqual([name]);
  }
  expect([...(await storeNames(store))].sort()).toEqual(['flaky', 'gh', 'gql', 'hook', 'rpc']);
  for (const [kind, { name }] of Object.entries(EARLIER_SETTINGS) as [EarlierKind, { name: string }][]) {
    expect(await store.delete(name), kind).toBe(true);
    expect(await store.getSetting(kind, name), kind).toBeUndefined();
  }
}
