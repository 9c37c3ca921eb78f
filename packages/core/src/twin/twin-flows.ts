/**
 * A provider's flows beside the generic engine: what its test mode does that
 * no document says — a created object's state from what was sent, and actions
 * (`POST …/{id}/confirm`) that move a stored object. The generic engine calls
 * them by operation; a profile names its flows (`flows: "stripe"`).
 *
 * @module
 */
import type { MatchedOperation } from './twin-model.js';

/** A provider's error, in the fields the profile's error template takes, and more the provider adds. */
export interface FlowError {
  status: number;
  type: string;
  code?: string;
  message: string;
  param?: string;
  /** More members of the provider's error object (Stripe `decline_code`, `payment_intent`). */
  extra?: Record<string, unknown>;
}

/** What a flow needs of the twin: the time, new ids. */
export interface FlowTools {
  now(): number;
  newId(prefix: string): string;
}

/** An action's outcome: the object as it now is (stored when the twin holds it), or an error. */
export type ActionOutcome =
  | { object: Record<string, unknown>; error?: FlowError; answer?: unknown; event?: Record<string, unknown> }
  | { error: FlowError };

/** What a change the twin made was, for its events. */
export interface TwinChange {
  kind: 'created' | 'updated' | 'deleted' | 'action';
  /** The collection's path template (`/v1/customers`). */
  template: string;
  /** The object as it now is (for `deleted`: as it was). */
  object: Record<string, unknown>;
  /** Its status before an action (`requires_payment_method`); its `state` before an update. */
  before?: unknown;
  /** The path's parameters of the request that made the change (`owner`, `repo`). */
  values?: Record<string, string>;
  /** What an action adds to its event (GitHub's `label` of `issues.labeled`). */
  extra?: Record<string, unknown>;
}

/** A provider's events: which a change emits, their objects, and who subscribes where. */
export interface TwinEvents {
  /** The collection events are kept in (`/v1/events`). */
  eventsTemplate: string;
  /** The collection of webhook subscriptions (`/v1/webhook_endpoints`). */
  endpointsTemplate: string;
  /** The signing scheme of the delivery engine the provider's signatures are (`stripe`). */
  scheme: 'stripe' | 'github' | 'standard';
  types(change: TwinChange): string[];
  event(type: string, object: Record<string, unknown>, tools: FlowTools, change?: TwinChange): Record<string, unknown>;
  subscribes(endpoint: Record<string, unknown>, type: string): boolean;
  /** Where a subscriber takes deliveries and its secret. @default the endpoint's `url` and `secret` */
  target?(endpoint: Record<string, unknown>): { url: unknown; secret: unknown };
  /** Headers a delivery of `type` carries besides its signature (GitHub's `X-GitHub-Event`). */
  headers?(type: string): Record<string, string>;
}

export interface TwinFlows {
  /** The provider's events and webhooks. */
  events?: TwinEvents;
  /** Refuses a create before anything is stored (GitHub's `422 Validation Failed` for a missing field). */
  check?(template: string, sent: Record<string, unknown>): FlowError | undefined;
  /** Sets a new object's state from what was sent, before it is stored; an error refuses the create. */
  created?(
    template: string,
    object: Record<string, unknown>,
    sent: Record<string, unknown>,
    tools: FlowTools,
  ): FlowError | undefined;
  /**
   * Answers an operation that is no create/read/update/delete/list on a stored
   * object (`undefined`: the engine answers it from the document). `stored` is
   * the object the path's last id names, when the twin holds it.
   */
  action?(
    matched: MatchedOperation,
    stored: Record<string, unknown> | undefined,
    sent: Record<string, unknown>,
    tools: FlowTools,
  ): ActionOutcome | undefined;
}
