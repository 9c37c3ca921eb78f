/**
 * A twin's events (twin-engine.ts): each change's events kept in the events collection, told to
 * who asked, and their deliveries to every subscriber left for after the answer (twin-outbox.ts),
 * kept in the `_outbox` until handed off (twin-outbox-kept.ts) and handed off again after a restart.
 *
 * @module
 */
import { itemOf } from '../collections/item.js';
import { MockpointError } from '../registry/errors.js';
import { signatureScheme } from '../signing/signature-schemes.js';
import type { Asked } from './twin-answer.js';
import type { Twin, TwinParts } from './twin-context.js';
import type { TwinChange, TwinEvents } from './twin-flows.js';
import { rolling } from './twin-idempotency.js';
import type { DeliveryMembers, Handed } from './twin-outbox.js';
import { type KeptChange, type KeptEvent, type KeptTarget, keepChange, keptChanges } from './twin-outbox-kept.js';
import { flowState } from './twin-state.js';
import { MAX_OBJECTS, type Stored, scopeOf, storedOf } from './twin-stored.js';
import { newestVersion } from './twin-versions.js';

/**
 * Emits the provider's events of a change: each kept in its events
 * collection (listed at once), told to `heard`, and its deliveries to every
 * subscriber of this moment left to be handed to the delivery engine after
 * the answer (#71 M4: a change's answer never waits for its fan-out).
 */
export async function emit(twin: Twin, told: TwinChange, asked: Asked): Promise<void> {
  const { parts } = twin;
  const events = parts.flows?.events;
  if (events === undefined) return;
  const types = told.events ?? events.types(told);
  if (types.length === 0) return;
  // The collections read once for the subscribers and what the payloads carry of the provider's
  // own state (the repository as kept).
  const read = await parts.collections.get(parts.name);
  const context = await events.context?.(told, flowState(twin, [], read));
  const change = context === undefined ? told : { ...told, extra: { ...context, ...told.extra } };
  const kept = parts.model.resources.find((resource) => resource.template === events.eventsTemplate);
  const hooks = parts.model.resources.find((resource) => resource.template === events.endpointsTemplate);
  // A hook kept below a path (a repository's) hears only the changes below that path.
  const scope = hooks === undefined ? '' : scopeOf(hooks, change.values);
  const endpoints =
    hooks === undefined
      ? []
      : ((await storedOf(twin, hooks, read)) ?? []).filter(
          (item) => !item.deleted && (item.scope === '' || item.scope === scope),
        );
  // The deliveries of the change's events, left for after the answer (twin-outbox.ts), in order,
  // and what keeps them until they are handed off: the events' ids and their receivers.
  const deliveries: DeliveryMembers[] = [];
  const keeping: KeptEvent[] = [];
  // In the request's API version; a change no request made (`mockpoint trigger`'s) in the newest.
  const version = asked.version ?? newestVersion(parts.profile);
  const made = version === undefined ? change : { ...change, version };
  for (const type of types) {
    const event = events.event(type, change.states?.[type] ?? change.object, twin.tools, made);
    const targets = endpoints.map((item) => item.object).filter((endpoint) => events.subscribes(endpoint, type, event));
    if ('pending_webhooks' in event) event.pending_webhooks = targets.length;
    if (kept !== undefined) {
      const stored: Stored = { id: String(event.id), scope: '', deleted: false, object: event };
      const item = itemOf(JSON.stringify(stored));
      await parts.collections.update(parts.name, kept.key, (items) => rolling(items, item, MAX_OBJECTS, parts.limits));
    }
    if (parts.handOff !== undefined && targets.length > 0) {
      const headers = events.headers?.(type, event);
      const whole = JSON.stringify(event);
      for (const [data, endpoints] of textsFor(event, targets, events)) {
        const to = endpoints.map(
          (endpoint) => events.target?.(endpoint) ?? { url: endpoint.url, secret: endpoint.secret },
        );
        for (const target of to) {
          const members = deliveryMembers(target, data, events.scheme, headers);
          deliveries.push(kept === undefined ? members : withEvent(members, String(event.id)));
        }
        // An event the twin keeps is referred to by its id, unless an endpoint takes it in another
        // version of its own; one it keeps nowhere (GitHub's) is kept whole.
        const own = kept === undefined || data !== whole;
        keeping.push({
          id: String(event.id),
          type,
          to,
          ...(headers === undefined ? {} : { headers }),
          ...(own ? { data } : {}),
        });
      }
    }
    asked.onEvent?.(type, event);
  }
  const handOff = parts.handOff;
  if (handOff === undefined || keeping.length === 0) return;
  // Kept before the answer: a daemon killed before the hand-off makes it after its restart.
  const entry: KeptChange = { id: crypto.randomUUID(), events: keeping };
  await keepChange(parts.collections, parts.name, entry, parts.limits);
  await handOff(deliveries, entry.id);
}

/** Hands one event to the delivery engine for one receiver; its refusal (a host not allowed) is the caller's. */
export async function deliverOne(
  parts: TwinParts,
  target: KeptTarget,
  type: string,
  event: Record<string, unknown>,
): Promise<unknown> {
  const events = parts.flows?.events;
  if (parts.deliver === undefined || events === undefined) return undefined;
  return parts.deliver(deliveryMembers(target, JSON.stringify(event), events.scheme, events.headers?.(type, event)));
}

/**
 * Hands off, in order, the deliveries a process before this one kept in the twin's
 * `_outbox` and never handed off (it was killed first): each event's text read again from
 * the events collection, one gone from there since counted as refused (`TWIN_EVENT_GONE`).
 * Runs in the twin's turn, so a change after it queues its deliveries behind these.
 */
export function resume(parts: TwinParts): Promise<void> {
  const handOff = parts.handOff;
  const events = parts.flows?.events;
  if (handOff === undefined || events === undefined) return Promise.resolve();
  const run = async () => {
    const read = await parts.collections.get(parts.name);
    const changes = keptChanges(read);
    if (changes.length === 0) return;
    const kept = parts.model.resources.find((resource) => resource.template === events.eventsTemplate);
    const texts = new Map<string, string>();
    for (const item of (kept === undefined ? undefined : read.get(kept.key)) ?? []) {
      const stored = item.value as unknown as Stored;
      texts.set(stored.id, JSON.stringify(stored.object));
    }
    for (const change of changes) {
      const deliveries: Handed[] = [];
      for (const event of change.events) {
        const data = event.data ?? texts.get(event.id);
        for (const target of event.to) {
          deliveries.push(
            data === undefined
              ? new MockpointError(
                  'TWIN_EVENT_GONE',
                  `event ${event.id} (${event.type}) left the twin's events (the newest ${MAX_OBJECTS} are kept; a reset or delete empties them) before the daemon, stopped meanwhile, handed its delivery to ${String(target.url)} to the delivery engine; it is not sent. Send it again with \`mockpoint trigger\`, or stop the daemon gracefully (SIGTERM), which hands everything off first`,
                )
              : // An event kept before its headers were: the type's alone.
                withEvent(
                  deliveryMembers(target, data, events.scheme, event.headers ?? events.headers?.(event.type)),
                  kept === undefined ? undefined : event.id,
                ),
          );
        }
      }
      await handOff(deliveries, change.id);
    }
  };
  const inTurn = parts.inTurn;
  return inTurn === undefined ? run() : inTurn(run);
}

/**
 * The text of `event` each of `targets` takes, with the endpoints taking it: the event as it is,
 * or as an endpoint's own API version writes it (Stripe's `api_version` of the endpoint).
 */
function textsFor(
  event: Record<string, unknown>,
  targets: readonly Record<string, unknown>[],
  events: TwinEvents,
): Map<string, Record<string, unknown>[]> {
  const texts = new Map<string, Record<string, unknown>[]>();
  for (const endpoint of targets) {
    const data = JSON.stringify(events.forEndpoint?.(event, endpoint) ?? event);
    texts.set(data, [...(texts.get(data) ?? []), endpoint]);
  }
  return texts;
}

/** `members` telling the id of the kept event they carry (`undefined`: none kept). */
function withEvent(members: Map<string, string>, event: string | undefined): DeliveryMembers {
  return event === undefined ? members : Object.assign(members, { event });
}

/**
 * Counts a delivered webhook of event `id` off its `pending_webhooks` (Stripe counts down as
 * deliveries succeed), in the events collection; an event gone or already at 0 is left alone.
 */
export async function webhookDelivered(parts: TwinParts, id: string): Promise<void> {
  const events = parts.flows?.events;
  const kept = parts.model.resources.find((resource) => resource.template === events?.eventsTemplate);
  if (events === undefined || kept === undefined) return;
  await parts.collections.update(parts.name, kept.key, (items) => {
    const all = items ?? [];
    const at = all.findIndex((item) => (item.value as unknown as Stored).id === id);
    const stored = at === -1 ? undefined : (all[at]?.value as unknown as Stored);
    const pending = stored?.object.pending_webhooks;
    if (stored === undefined || typeof pending !== 'number' || pending <= 0) return { result: undefined };
    const next: Stored = { ...stored, object: { ...stored.object, pending_webhooks: pending - 1 } };
    return { edit: { set: at, item: itemOf(JSON.stringify(next)) }, result: undefined };
  });
}

/**
 * A delivery of `event` to `target` (`POST /api/deliveries`'s members as JSON texts), signed by
 * `scheme`, retried, with the event's `headers` and the receiver's own (GitHub's `X-GitHub-Hook-ID`).
 * A target with no secret (a GitHub hook made without `config.secret`) is sent unsigned, as the
 * provider sends it, with the scheme's delivery id alone (`X-GitHub-Delivery`).
 */
function deliveryMembers(
  target: KeptTarget,
  data: string,
  scheme: string,
  headers: Record<string, string> | undefined,
): Map<string, string> {
  const members = new Map<string, string>([
    ['url', JSON.stringify(target.url)],
    ['data', data],
    ['retry', JSON.stringify('standard')],
  ]);
  const unsigned = target.secret === undefined || target.secret === null || target.secret === '';
  const definition = signatureScheme(scheme);
  const idHeader = definition?.idHeaders?.[0];
  const id = unsigned && idHeader !== undefined ? definition?.freshId?.() : undefined;
  if (!unsigned) members.set('sign', JSON.stringify({ scheme, secret: target.secret }));
  const all = { ...headers, ...target.headers, ...(id === undefined ? {} : { [idHeader as string]: id }) };
  if (Object.keys(all).length > 0) members.set('headers', JSON.stringify(all));
  return members;
}
