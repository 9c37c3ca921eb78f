/**
 * What every room of the twin engine reads (twin-engine.ts): the parts a twin is made of, and one
 * {@link Twin} over them that each room's functions take first: its tools, new ids, the clock's
 * timestamps, the provider's error answer and the object as the provider shows it.
 *
 * @module
 */
import { randomBytes } from '../codec/random-bytes.js';
import type { CollectionLimits } from '../collections/collection-input.js';
import type { CollectionStore } from '../collections/collection-store.js';
import type { WorkBudget } from '../turns/work-budget.js';
import { TwinAdmission } from './twin-admission.js';
import type { TwinAnswer } from './twin-answer.js';
import { TwinDerived } from './twin-derived.js';
import type { DocumentItem, DocumentList } from './twin-document.js';
import type { FlowError, FlowTools, TwinFlows } from './twin-flows.js';
import type { TwinModel } from './twin-model.js';
import type { TwinResource } from './twin-operation.js';
import type { Handed } from './twin-outbox.js';
import { errorBody, type TwinProfile } from './twin-profile.js';
import type { Related } from './twin-related.js';
import { withErrorMembers } from './twin-request-ids.js';
import type { TwinUnseen } from './twin-setting.js';

/** What makes a twin: its model, profile, flows, and where it keeps its objects. */
export interface TwinParts {
  name: string;
  model: TwinModel;
  profile: TwinProfile;
  flows: TwinFlows | undefined;
  /** What an id or list the twin never made answers (the setting's `unseen`). @default 'missing' */
  unseen?: TwinUnseen;
  collections: CollectionStore;
  now: () => number;
  /** The most JSON an answer with `expand` may hold, in bytes. @default `DEFAULT_LIMITS.maxCollectionBytes` */
  maxAnswerBytes?: number;
  /** Runs a change in its turn: one change of the name at a time. @default run at once */
  inTurn?: <T>(run: () => Promise<T>) => Promise<T>;
  /** The limits every collection write is held to (`--max-collection-items`, `--max-collection-bytes`). @default none */
  limits?: CollectionLimits;
  /** Hands a delivery (`POST /api/deliveries`'s members as JSON texts) to the delivery engine: `mockpoint trigger --to`'s. @default none sent */
  deliver?: (members: ReadonlyMap<string, string>) => Promise<unknown>;
  /**
   * Leaves the deliveries of a change's events to the subscribers for after the answer
   * (twin-outbox.ts: handed to the delivery engine in order, a refusal counted), with the id of
   * the `_outbox` entry that keeps them until then (twin-outbox-kept.ts). @default events kept, none sent
   */
  handOff?: (deliveries: readonly Handed[], kept: string) => Promise<void>;
  /**
   * The delivery engine's own check of a receiver's URL (webhook/delivery-target.ts), throwing
   * its refusal: a webhook endpoint the twin could never send to is refused when it is made or
   * changed, by the same rule as its deliveries. @default every URL taken
   */
  checkTarget?: (url: unknown) => void;
  /** The daemon's budget of expensive work (turns/work-budget.ts), shared by every twin. @default none: work runs at once */
  budget?: WorkBudget;
}

/** One twin as its rooms read it: its parts, and what is made of them once. */
export interface Twin {
  readonly parts: TwinParts;
  /** What the flows are given of the twin: the time, new ids. */
  readonly tools: FlowTools;
  /** Whether what the twin never made answers from the document's examples (`unseen: "examples"`). */
  readonly examples: boolean;
  /** What the twin's items read of other collections (twin-related.ts). */
  readonly related: Related;
  /** What each list operation of the document says of its answer (twin-document.ts), read on first use. */
  readonly lists: WeakMap<object, DocumentList>;
  /** Where each create, read or update answer of the document holds its item, read on first use. */
  readonly items: WeakMap<object, DocumentItem | null>;
  /** Expensive work admitted through the daemon's budget, refused in the provider's form past it. */
  readonly admission: TwinAdmission;
  /** What the flows build of the whole state once, until it changes (an index of GitHub's issues). */
  readonly derived: TwinDerived;
}

const ID_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The twin its rooms read over `parts`. */
export function twinOf(parts: TwinParts): Twin {
  return {
    parts,
    tools: { now: parts.now, newId: (prefix) => newId(parts, prefix) },
    get examples() {
      return parts.unseen === 'examples';
    },
    get related() {
      return { resources: parts.model.resources, profile: parts.profile, flows: parts.flows };
    },
    lists: new WeakMap(),
    items: new WeakMap(),
    admission: new TwinAdmission(parts.budget, parts.profile),
    derived: new TwinDerived(),
  };
}

/** A new id in the profile's form (`cus_…`): `prefix` and random letters. */
export function newId(parts: TwinParts, prefix: string, length = parts.profile.ids.length): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ID_LETTERS[byte % ID_LETTERS.length];
  return id;
}

/**
 * The time now as the field it goes in holds one: Unix seconds where it holds a number (the
 * document's schema typed it an integer: OpenAI's `created_at`), ISO text where it holds text;
 * else as the profile's timestamps write it.
 */
export function stamp(twin: Twin, was?: unknown): number | string {
  const now = twin.parts.now();
  const unix = typeof was === 'number' || (typeof was !== 'string' && twin.parts.profile.timestamps.format === 'unix');
  return unix ? Math.floor(now / 1000) : new Date(now).toISOString();
}

/** The provider's error answer. */
export function errorAnswer(twin: Twin, error: FlowError): TwinAnswer {
  let body = errorBody(twin.parts.profile, error);
  if (error.extra !== undefined) body = withErrorMembers(body, error.extra);
  return { status: error.status, headers: { 'content-type': 'application/json', ...error.headers }, body };
}

/** The object as the provider answers it (the flows' `shown`), a copy when it differs. */
export function shownOf(twin: Twin, resource: TwinResource, object: Record<string, unknown>): Record<string, unknown> {
  const shown = twin.parts.flows?.shown;
  return shown === undefined ? object : shown(resource.template, object);
}
