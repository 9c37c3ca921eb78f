/**
 * The per-name settings, each declared once: what a store keeps beside a name's
 * record (a signature check, chaos, a GraphQL schema, protobuf definitions,
 * hosts, a twin). Every backend keeps every one of them through the same three methods
 * (`getSetting`, `setSetting`, `settingNames` of {@link EndpointStore}), under
 * keys made from {@link NameSetting.key}; a new setting is one entry here (see
 * docs/development.md, "Adding a per-name setting"), not new methods on every
 * backend.
 *
 * What a setting shares, by being here: deleting a name removes it, a reset
 * (`DELETE /api/endpoints`, `clear`) removes every one, a value claims the name
 * against the namespace's cap (bounded-store.ts, name-ledger.ts), a change is
 * announced to other replicas like a record's, the endpoint list shows it
 * (`{ name, <key>: true }`) and it lives per namespace (each namespace is a store
 * of its own). What is checked before a value reaches the store (its schema and
 * size, bounded by the request body limit) is the HTTP route's job; the mock
 * file's member of the same {@link NameSetting.key} is its export form.
 *
 * @module
 */

import { type ChaosSettings, chaosSettingsJson, decodeChaosSettings } from '../../api/chaos.js';
import {
  decodeSignatureSettings,
  type SignatureSettings,
  signatureSettingsJson,
} from '../../signing/signature-settings.js';
import { decodeTwinSetting, type TwinSetting, twinSettingJson } from '../../twin/twin-setting.js';

/** How one per-name setting is kept. */
export interface NameSetting<V> {
  /**
   * Its key: the LevelDB key `\u0001<key>:<name>`, the Durable Object key
   * `<key>:<prefix><name>`, the member of a mock file and of the endpoint list.
   * Letters only, so it sorts and matches like the keys before it.
   */
  readonly key: string;
  /** The Redis hash (under the store's key prefix) of name → stored text. @default key */
  readonly redisHash?: string;
  /** What it is called in a message: `the stored <label> of "name" are damaged`. */
  readonly label: string;
  /** The text kept for `value`; `undefined` when the value holds nothing (kept as a removal). */
  encode(value: V): string | undefined;
  /** The value of a stored text; throws on text that is not one (damaged storage). */
  decode(text: string): V;
}

/** A setting whose value is kept as the text given, byte for byte. */
function textSetting(key: string, label: string): NameSetting<string> {
  return { key, label, encode: (text) => text, decode: (text) => text };
}

/** The hosts of a stored text; throws on anything but an array of strings. */
function decodeHosts(text: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.some((host) => typeof host !== 'string')) {
    throw new TypeError('stored hosts are not a list of strings');
  }
  return value as string[];
}

/** Every per-name setting, in the order the endpoint list names what a name holds. */
export const NAME_SETTINGS = {
  /** The GraphQL schema: its SDL text exactly as set (docs/graphql.md). */
  graphql: textSetting('graphql', 'GraphQL schema'),
  /** The protobuf definitions: the JSON text the caller made (the sources or a descriptor set; docs/grpc.md). */
  grpc: textSetting('grpc', 'protobuf definitions'),
  /** The host patterns mapped to the name, in the order set; `[]` holds nothing (docs/https.md). */
  hosts: {
    key: 'hosts',
    label: 'hosts',
    encode: (hosts: readonly string[]) => (hosts.length === 0 ? undefined : JSON.stringify(hosts)),
    decode: decodeHosts,
  } satisfies NameSetting<readonly string[]>,
  /** The chaos: faults, latency, bandwidth, seed (docs/chaos.md). */
  chaos: {
    key: 'chaos',
    label: 'chaos',
    encode: chaosSettingsJson,
    decode: decodeChaosSettings,
  } satisfies NameSetting<ChaosSettings>,
  /** The signature check, secrets included (docs/signatures.md). */
  signature: {
    key: 'signature',
    redisHash: 'signatures',
    label: 'signature check',
    encode: signatureSettingsJson,
    decode: decodeSignatureSettings,
  } satisfies NameSetting<SignatureSettings>,
  /**
   * The twin: a provider or an OpenAPI document with its profile, checked whole
   * when put (`PUT …/twin`, bounded by the request body limit; docs/twins.md).
   */
  twin: {
    key: 'twin',
    label: 'twin',
    encode: twinSettingJson,
    decode: decodeTwinSetting,
  } satisfies NameSetting<TwinSetting>,
} as const;

/** The name of a per-name setting. */
export type SettingKind = keyof typeof NAME_SETTINGS;

/** The value of setting `K` as it is set. */
export type SettingValue<K extends SettingKind> = Parameters<(typeof NAME_SETTINGS)[K]['encode']>[0];

/** The value of setting `K` as it is read back. */
export type StoredSetting<K extends SettingKind> = ReturnType<(typeof NAME_SETTINGS)[K]['decode']>;

/** Every setting's kind, in {@link NAME_SETTINGS} order. */
export const SETTING_KINDS = Object.keys(NAME_SETTINGS) as readonly SettingKind[];

/** The text kept for `value` of setting `kind` (`undefined`: a removal, for `undefined` or a value that holds nothing). */
export function encodeSetting<K extends SettingKind>(kind: K, value: SettingValue<K> | undefined): string | undefined {
  if (value === undefined) return undefined;
  return (NAME_SETTINGS[kind].encode as (value: SettingValue<K>) => string | undefined)(value);
}

/** The value of setting `kind` kept as `text`; throws on damaged text. */
export function decodeSetting<K extends SettingKind>(kind: K, text: string): StoredSetting<K> {
  return NAME_SETTINGS[kind].decode(text) as StoredSetting<K>;
}

/** The Redis hash of setting `kind` under `prefix`. */
export function settingHash(kind: SettingKind, prefix: string): string {
  const setting: { key: string; redisHash?: string } = NAME_SETTINGS[kind];
  return `${prefix}${setting.redisHash ?? setting.key}`;
}
