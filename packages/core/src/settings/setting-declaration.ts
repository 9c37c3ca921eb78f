/**
 * What one per-name setting declares (settings/name-settings.ts holds them
 * all): how a store keeps it, how a PUT's body becomes its value, and its
 * export form, how a mock file holds it and how `mockpoint export` and `apply`
 * read and write it through the admin API.
 *
 * @module
 */
import type { z } from 'zod';
import type { Schemas } from '../api/schemas.js';
import type { HostMove } from '../pattern/host-mapping.js';
import type { ErrorCode } from '../registry/errors.js';

/** The limits a setting's input is held to (the daemon's settings). */
export interface SettingLimits {
  /** The request body limit (`MOCKPOINT_MAX_BODY_BYTES`). */
  readonly maxBodyBytes: number;
  /** The longest delay (`MOCKPOINT_MAX_DELAY_MS`): a drawn latency's bound. */
  readonly maxDelayMs: number;
  /** The largest GraphQL schema (`MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES`). */
  readonly maxGraphqlSchemaBytes: number;
  /** The largest protobuf definitions (`MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES`). */
  readonly maxGrpcDefinitionsBytes: number;
}

/** A setting's size limit: which of the {@link SettingLimits} bounds a value, and the stable code past it. */
export interface SettingLimit {
  readonly option: keyof SettingLimits;
  readonly code: ErrorCode;
}

/** The size limit of a setting bounded by the request body limit alone. */
export const BODY_LIMIT: SettingLimit = { option: 'maxBodyBytes', code: 'BODY_TOO_LARGE' };

/** How a `PUT /api/endpoints/{name}/<key>` body becomes the setting's input: read within the body limit, checked. */
export interface SettingInput<I> {
  /** The body's schema, as the OpenAPI document shows it (`s`: the daemon's schemas, so its limits show). */
  schema(s: Schemas): z.ZodType;
  /**
   * The body of `request`, read within `limits.maxBodyBytes` (`413 BODY_TOO_LARGE` past it) and
   * checked; a refusal is a `MockpointError` with the setting's stable code.
   */
  read(request: Request, limits: SettingLimits, s: Schemas): Promise<I>;
}

/** A GET of `/api/endpoints/{name}/<path>` on a daemon: its body text, or `undefined` for a 404. */
export type SettingGet = (path: string) => Promise<string | undefined>;

/** What checking a mock file's member needs besides its value. */
export interface FileCheck {
  /** The API's schemas with the default limits (the file is checked before any daemon is asked). */
  readonly schemas: Schemas;
  /** The endpoint's index in the file. */
  readonly endpoint: number;
  /** What this setting's members of earlier endpoints claimed, by endpoint index (hosts: each pattern once). */
  readonly seen: Map<string, number>;
  /**
   * Builds a GraphQL schema as its PUT does (`INVALID_GRAPHQL_SCHEMA`…), given by the file's parser so
   * that the `graphql` package loads with the files module, not with every route that reads the settings.
   */
  readonly buildGraphql: (sdl: string) => void;
}

/** A setting's export form: its member of a mock file's endpoint, and how `export` and `apply` move it. */
export interface SettingFile<F> {
  /** The member's schema in a mock file (named by the setting's key), with its description for editors. */
  member(s: Schemas): z.ZodType;
  /**
   * The member as a file gives it (after {@link member}'s schema), checked as its PUT checks it where
   * that needs no daemon; `undefined` when it holds nothing. A refusal is a `MockpointError` with the
   * API's code, and `details.at` the path below the member, when it is one part of it.
   */
  check(value: unknown, file: FileCheck): F | undefined;
  /** What the name holds on a daemon, read with `get`; `undefined` when it holds none. */
  read(get: SettingGet, name: string): Promise<F | undefined>;
  /** The body of the `PUT …/<key>` that sets `value`, exactly as `apply` sends it. */
  body(value: F): string;
  /** `value` as the mock file's member holds it (fields in their documented order). */
  entry(value: F): unknown;
  /**
   * How `apply` puts it, when not a bare `PUT …/<key>`: the query it adds, and the hosts the answer
   * says moved to the name (hosts: `?move=true`, the file wins).
   */
  readonly put?: { readonly query: string; moved(answer: string): HostMove[] };
  /** How `apply` removes it from a name that should not hold it (`DELETE …/<key>`). */
  readonly clear: {
    /** Also when what the name holds is not known (a first write): otherwise only when it held one. */
    readonly unknown: boolean;
    /** A 404 is no error: a daemon older than the setting holds none. */
    readonly olderOk: boolean;
  };
}

/**
 * One per-name setting: value `V` as kept, `F` as a mock file holds it, `I` as a PUT's body is read
 * (before what the route's own behaviour does with it: a worker's check, a provider's load).
 */
export interface NameSetting<V, F = V, I = F> {
  /**
   * Its key: the LevelDB key `\u0001<key>:<name>`, the Durable Object key
   * `<key>:<prefix><name>`, the path segment `/api/endpoints/{name}/<key>`, the
   * member of a mock file and of the endpoint list. Letters only, so it sorts and
   * matches like the keys before it.
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
  /** How a PUT's body becomes its input: its schema and size checked when it is saved, never when read. */
  readonly input: SettingInput<I>;
  /** Its size limit (a value past it is refused with its code; the body limit bounds every one besides). */
  readonly limit: SettingLimit;
  /** Its export form. */
  readonly file: SettingFile<F>;
}
