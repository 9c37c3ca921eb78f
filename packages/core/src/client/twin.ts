/**
 * The twin methods of the client: `/endpoint/{name}` made a stateful twin of a
 * provider the daemon ships or of an OpenAPI document (docs/twins.md).
 *
 * @module
 */
import { seg, type Transport } from './transport.js';

/** A twin as it is put: a provider (`{ provider: 'stripe' }`) or a document with its profile. */
export interface TwinInput {
  /** A provider the daemon ships (`GET /api/twins`). */
  provider?: string;
  /** An OpenAPI 3 document (JSON) made stateful. */
  document?: Record<string, unknown>;
  /** Its profile (docs/twins.md#the-profile-format); its defaults when absent. */
  profile?: Record<string, unknown>;
}

/** A twin as the daemon answers it: the setting without its document, and what it made of it. */
export interface Twin {
  provider?: string;
  /** The document's title. */
  title?: string;
  /** The profile, its defaults filled. */
  profile: Record<string, unknown>;
  /** How many operations the document has. */
  operations: number;
  /** The collections inferred from its paths (path templates). */
  collections: string[];
  /** The collection (`getCollections`) each path template keeps its objects in (`/v1/customers` → `v1-customers`). */
  kept: Record<string, string>;
  /** The events `triggerTwin` sends (none for a twin of a document). */
  triggers: string[];
  /** The fields a trigger may give beside `event`, `to` and `secret`, its provider's own: what each is, its default. */
  triggerFields: Record<string, { description: string; default: string }>;
  /**
   * Where its events are, when its provider's flows make events: the collection (path template)
   * they are listed in, empty when the provider lists none, and that of the subscriptions they are
   * delivered to.
   */
  events?: { listed: string; subscriptions: string };
  /**
   * What its webhooks did since the daemon started (each replica counts its own): deliveries
   * waiting to be handed to the delivery engine, handed, refused (never sent) and the latest refusal.
   */
  webhooks?: {
    waiting: number;
    handed: number;
    refused: number;
    lastRefusal?: { code: string; message: string; at: string };
  };
}

/** An event to send on demand (`mockpoint trigger`). */
export interface TwinTrigger {
  /** The event's type: `payment_intent.succeeded`, `issues.opened`, … (`Twin.triggers` lists them). */
  event: string;
  /** One more receiver of the event, signed the provider's way (loopback or `MOCKPOINT_DELIVERY_ALLOW_HOSTS`). */
  to?: string;
  /** The secret `to`'s delivery is signed with. @default its subscription's secret, else a new one (answered) */
  secret?: string;
  /**
   * The fields the twin's provider declares, by name (`Twin.triggerFields` lists them; a GitHub
   * twin's `repo`, the repository an event is about). @default each field's default
   */
  [field: string]: string | undefined;
}

/** What a trigger sent. */
export interface TwinTriggered {
  event: string;
  /** Every event the trigger's calls emitted (kept, delivered to the subscribers), the one asked for among them. */
  events: { type: string; event: Record<string, unknown> }[];
  /** The delivery to `to` (`GET /api/deliveries/{id}`) and the secret it is signed with. */
  delivery?: { id: string; url: string; secret: string };
}

/** These methods of the client, over `transport` (createClient in client.ts puts the parts together). */
export function twinMethods({ call, json }: Transport) {
  return {
    /**
     * Makes `/endpoint/{name}` a stateful twin: what a client creates is kept in the
     * name's collections, the rest answered from the document's examples. Resolves
     * with the twin as the daemon made it.
     * @throws MockpointError `INVALID_TWIN` (naming what is wrong; nothing is kept).
     * @example await client.setTwin('stripe', { provider: 'stripe' })
     */
    setTwin(name: string, twin: TwinInput): Promise<Twin> {
      return json('PUT', `/api/endpoints/${seg(name)}/twin`, twin);
    },

    /**
     * The twin of `name`; with `{ setting: true }` the setting as put, its document
     * whole. Throws `TWIN_NOT_FOUND` when it has none.
     */
    getTwin<S extends boolean = false>(
      name: string,
      options?: { setting?: S },
    ): Promise<S extends true ? TwinInput : Twin> {
      const query = options?.setting === true ? '?setting=true' : '';
      return json('GET', `/api/endpoints/${seg(name)}/twin${query}`);
    },

    /**
     * Sends one of the provider's events on demand, as `stripe trigger` does: the twin
     * makes the objects it is about through its API, so the event is kept and delivered
     * to its subscribers; `to` gets one more delivery.
     * @throws MockpointError `UNKNOWN_TWIN_EVENT` (listing the events), `TWIN_NOT_FOUND`, `INVALID_TRIGGER`.
     * @example await client.triggerTwin('stripe', { event: 'payment_intent.succeeded', to: 'http://127.0.0.1:3000/hooks' })
     */
    triggerTwin(name: string, trigger: TwinTrigger): Promise<TwinTriggered> {
      return json('POST', `/api/endpoints/${seg(name)}/twin/trigger`, trigger);
    },

    /** Removes the twin of `name` (its objects stay in the collections; nothing happens when it had none). */
    async clearTwin(name: string): Promise<void> {
      await call('DELETE', `/api/endpoints/${seg(name)}/twin`);
    },
  };
}
