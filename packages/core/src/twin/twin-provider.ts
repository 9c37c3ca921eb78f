/**
 * A provider of twins as one object (SPEC §2.20): everything of it the twin engine reads — its
 * flows (with its events and their signing scheme), the calls `mockpoint trigger` makes for its
 * events, the form of the signing secrets it makes, its words in messages. Each is a module of
 * its own beside its flows (`<name>-provider.ts`), registered once in providers.ts; the engine
 * reads the list and the object, never a provider's name (twin-names.test.ts guards it).
 *
 * @module
 */
import { PROVIDERS } from './providers.js';
import type { FixtureStep } from './twin-fixtures.js';
import type { TwinFlows } from './twin-flows.js';

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
  /** What a signing secret it makes for a receiver starts with. @default '' */
  secretPrefix?: string;
}

/** The provider a profile's `flows` names, none for another. */
export function providerOf(name: string | undefined): TwinProvider | undefined {
  return name === undefined ? undefined : PROVIDERS.find((one) => one.name === name);
}

/**
 * The names of the providers, in the list's order: read when called, not when this module is
 * loaded, so that a provider's module may import the engine's without a cycle failing.
 */
export function providerNames(): string[] {
  return PROVIDERS.map(({ name }) => name);
}
