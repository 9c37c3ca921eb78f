/**
 * A provider of twins as one object (docs/design.md#twins-as-the-provider-answers): everything of it the twin engine reads — its
 * flows (with its events and their signing scheme), the calls `mockpoint trigger` makes for its
 * events, the form of the signing secrets it makes, its words in messages. Each provider is a
 * folder of `@mockpoint/twins` (docs/development.md, "Adding a provider"), whose `load()` answers
 * its object beside its document; the table registers it here when it loads it
 * (twin-table.ts). The engine reads the registered objects, never a provider's name
 * (twin-names.test.ts guards it).
 *
 * @module
 */
import { type RateLimitShape, registerRateLimitStyle } from '../api/rate-limit-headers.js';
import { registerSignatureScheme, type SignatureSchemeDefinition } from '../signing/signature-schemes.js';
import type { TwinFlows } from './twin-flows.js';

/**
 * One API call of a fixture (twin-fixtures.ts). Its path and body may name, in braces, a word of
 * the trigger (`{unique}`, six letters new to it, and those of the provider's
 * {@link ProviderTrigger.words}), a word a step before gave (its {@link ProviderTrigger.answered}),
 * or a member of what the step before answered (`{id}`, `{number}`, `{name}`).
 */
export interface FixtureStep {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: Record<string, string | number | boolean | string[] | Record<string, string>>;
}

/** A field of a trigger request the provider declares (`POST …/twin/trigger`, `mockpoint trigger --<name>`). */
export interface TriggerField {
  /** What it is, for the API's description and the command's help. */
  description: string;
  /** Its form in help (`owner/name`). */
  form: string;
  /** What a value must match. */
  pattern: RegExp;
  /** What a value must be, said when one does not match. */
  rule: string;
  /** The value when the request gives none. */
  default: string;
}

/** What the provider adds to `mockpoint trigger` beside its fixtures (twin-trigger.ts). @default none */
export interface ProviderTrigger {
  /** The fields a trigger of its twin may give beside `event`, `to` and `secret`, by name. */
  fields?: Readonly<Record<string, TriggerField>>;
  /** The words its fixtures name, from the trigger's fields (each given or its default) and its unique word. */
  words?(fields: Readonly<Record<string, string>>, unique: string): Record<string, string>;
  /**
   * What one answer of a fixture's call gives the steps after it: the object the next step's
   * `{id}` and other members read (@default the answer), and words later steps name.
   */
  answered?(value: Record<string, unknown>): { object?: Record<string, unknown>; words?: Record<string, string> };
  /**
   * Calls made before every event's fixture, whose refusal stops nothing: what the event's objects
   * live in, made where the twin does not hold it yet (a repository a new twin has none of); a
   * refusal because it exists already is the expected answer then. @default none
   */
  before?: readonly FixtureStep[];
}

export interface TwinProvider {
  /** What a profile's `flows` names it by, and `mockpoint trigger`'s messages. */
  name: string;
  /** What messages call it. */
  title: string;
  /** What it does beside the generic engine. */
  flows: TwinFlows;
  /** The calls `mockpoint trigger` makes through the twin for each event (twin-fixtures.ts). */
  fixtures: Readonly<Record<string, readonly FixtureStep[]>>;
  /** One of its events, shown in messages as an example. */
  event: string;
  /** Its trigger's own fields and words. @default none */
  trigger?: ProviderTrigger;
  /** What a signing secret it makes for a receiver starts with. @default '' */
  secretPrefix?: string;
  /**
   * Signature schemes of its own, added to the one list (signing/signature-schemes.ts) when it is
   * loaded: its events are signed in them, a name's signature check reads them, the page offers them.
   * @default none: its events use a generic scheme
   */
  signatureSchemes?: readonly SignatureSchemeDefinition[];
  /**
   * Rate-limit styles of its own by name (api/rate-limit-headers.ts), registered when it is loaded:
   * its profile's `rateLimit.style`, and any route's, may then name them.
   * @default none
   */
  rateLimitStyles?: Readonly<Record<string, RateLimitShape>>;
}

/** The providers loaded so far, by name: a process loads a provider's code on its first twin. */
const REGISTERED = new Map<string, TwinProvider>();

/** Makes `provider` the one its name names (a later load of the same provider replaces it). */
export function registerProvider(provider: TwinProvider): void {
  REGISTERED.set(provider.name, provider);
  for (const scheme of provider.signatureSchemes ?? []) registerSignatureScheme(scheme);
  for (const [name, style] of Object.entries(provider.rateLimitStyles ?? {})) registerRateLimitStyle(name, style);
}

/** The provider a profile's `flows` names, none for another or one not loaded yet. */
export function providerOf(name: string | undefined): TwinProvider | undefined {
  return name === undefined ? undefined : REGISTERED.get(name);
}

/** The providers loaded so far, in the order they were loaded. */
export function loadedProviders(): TwinProvider[] {
  return [...REGISTERED.values()];
}
