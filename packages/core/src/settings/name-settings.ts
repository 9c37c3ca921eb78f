/**
 * The per-name settings, each declared once: what a store keeps beside a name's
 * record (a signature check, chaos, a GraphQL schema, protobuf definitions,
 * hosts, a twin). Every backend keeps every one of them through the same three methods
 * (`getSetting`, `setSetting`, `settingNames` of {@link EndpointStore}), under
 * keys made from its `key`; a new setting is one entry here (see
 * docs/development.md, "Adding a per-name setting"), not new methods on every
 * backend.
 *
 * What a setting shares, by being here: deleting a name removes it, a reset
 * (`DELETE /api/endpoints`, `clear`) removes every one, a value claims the name
 * against the namespace's cap (bounded-store.ts, name-ledger.ts), a change is
 * announced to other replicas like a record's, the endpoint list shows it
 * (`{ name, <key>: true }`) and it lives per namespace (each namespace is a store
 * of its own), its PUT's body is read and checked by its `input` (its schema and
 * size, bounded by the request body limit: at save, never when read), and its
 * `file` form is how a mock file holds it (the member named by its key) and how
 * `mockpoint export` and `apply` read and write it (files/admin-calls.ts,
 * files/write-bodies.ts and files/mock-file-schema.ts loop over these).
 *
 * @module
 */

import { chaosSetting } from './chaos-setting.js';
import { graphqlSetting } from './graphql-setting.js';
import { grpcSetting } from './grpc-setting.js';
import { hostsSetting } from './hosts-setting.js';
import type { SettingFile } from './setting-declaration.js';
import { signatureSetting } from './signature-setting.js';
import { twinSetting } from './twin-setting.js';

/**
 * Every per-name setting, each one declaration (its module beside this one), in the order the
 * endpoint list names what a name holds and a mock file's endpoint holds them.
 */
export const NAME_SETTINGS = {
  /** The host patterns mapped to the name, in the order set; `[]` holds nothing (docs/https.md). */
  hosts: hostsSetting,
  /** The GraphQL schema: its SDL text exactly as set (docs/graphql.md). */
  graphql: graphqlSetting,
  /** The protobuf definitions: the JSON text the caller made (the sources or a descriptor set; docs/grpc.md). */
  grpc: grpcSetting,
  /** The chaos: faults, latency, bandwidth, seed (docs/chaos.md). */
  chaos: chaosSetting,
  /** The signature check, secrets included (docs/signatures.md). */
  signature: signatureSetting,
  /** The twin: a provider or an OpenAPI document with its profile, checked whole when put (docs/twins.md). */
  twin: twinSetting,
} as const;

/** The name of a per-name setting. */
export type SettingKind = keyof typeof NAME_SETTINGS;

/** The value of setting `K` as it is set. */
export type SettingValue<K extends SettingKind> = Parameters<(typeof NAME_SETTINGS)[K]['encode']>[0];

/** The value of setting `K` as a mock file holds it (its export form). */
export type FileValue<K extends SettingKind> =
  (typeof NAME_SETTINGS)[K]['file'] extends SettingFile<infer F> ? F : never;

/** A mock file endpoint's settings: each declared setting's member, by its key. */
export type SettingFileValues = { [K in SettingKind]?: FileValue<K> };

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

/** The export form of setting `kind`, its value untyped: for code that loops over every setting. */
export function settingFile(kind: SettingKind): SettingFile<unknown> {
  return NAME_SETTINGS[kind].file as SettingFile<unknown>;
}
