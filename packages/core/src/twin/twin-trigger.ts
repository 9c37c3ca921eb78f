/**
 * `mockpoint trigger` (`POST /api/endpoints/{name}/twin/trigger`,
 * docs/design.md#twins): a provider's event sent on demand, as `stripe trigger` sends one
 * against the real test mode. The twin makes the objects the event is about
 * through its own API (twin-fixtures.ts), so the event is emitted by its flows
 * as a client's calls emit it: kept (`GET /v1/events`), delivered to every
 * subscribed endpoint; a fixture whose calls did not make its event sends
 * nothing (`TWIN_EVENT_NOT_MADE`). A Stripe event with no fixture (`payout.paid`)
 * is emitted about the document's example of its object. With `to`, one more
 * delivery of the event goes to that URL, signed the provider's way.
 *
 * @module
 */
import { MockpointError } from '../registry/errors.js';
import type { TwinEngine } from './twin-engine.js';
import { resolve, type Schema } from './twin-example.js';
import { fixturesOf } from './twin-fixtures.js';
import { type FixtureStep, loadedProviders, providerOf, type TwinProvider } from './twin-provider.js';

/** A trigger as the route takes it. */
export interface TriggerRequest {
  /** The event's type (`payment_intent.succeeded`, `issues.opened`). */
  event: string;
  /** One more receiver of the event, signed with `secret`. */
  to?: string;
  /** The secret `to`'s delivery is signed with. @default the secret of the twin's subscription to `to`, else a new one */
  secret?: string;
  /**
   * The fields the twin's provider declares (twin-provider.ts, `ProviderTrigger.fields`), given as
   * members of the request beside `event`, `to` and `secret`. @default each field's default
   */
  fields?: Record<string, string>;
}

/** What a trigger did: every event it emitted (the one asked for among them) and the delivery to `to`. */
export interface TriggerResult {
  event: string;
  events: { type: string; event: Record<string, unknown> }[];
  delivery?: { id: string; url: string; secret: string };
}

/** An event's type: `push` (GitHub's events without an action) or dotted, as `payment_intent.succeeded`. */
const EVENT_TYPE = /^[a-z][a-z0-9_]{0,63}(\.[a-z][a-z0-9_]{0,63}){0,3}$/;
const SECRET = /^[\x21-\x7e]{1,256}$/;
/** The members every trigger takes; the others are its provider's fields. */
const FIELDS = ['event', 'to', 'secret'];
/** A provider's field: its name, and the most of them a request gives and their length. */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const MOST_FIELDS = 8;
const MAX_FIELD_LENGTH = 256;

const invalid = (message: string) => new MockpointError('INVALID_TRIGGER', message);

/** `words` as a sentence lists them: `a`, `a or b`, `a, b or c` (`joint` `and`: `a and b`). */
function sentence(words: readonly string[], joint: 'and' | 'or'): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${joint} ${words.at(-1)}`;
}

/** `value` (the route's body) as a trigger, or `INVALID_TRIGGER` naming the field that is wrong. */
export function parseTrigger(value: Record<string, unknown>): TriggerRequest {
  const { event, to, secret } = value;
  // The others are the provider's fields, checked against its declaration once its twin is known (runTrigger).
  const others = Object.entries(value).filter(([key]) => !FIELDS.includes(key));
  if (others.length > MOST_FIELDS) {
    throw invalid(`a trigger takes ${FIELDS.join(', ')} and at most ${MOST_FIELDS} fields of its provider`);
  }
  const fields: Record<string, string> = {};
  for (const [key, field] of others) {
    if (!FIELD_NAME.test(key)) {
      throw invalid(
        `unknown field "${key.slice(0, 64)}": a trigger takes ${FIELDS.join(', ')} and its provider's fields`,
      );
    }
    if (typeof field !== 'string' || field.length > MAX_FIELD_LENGTH) {
      throw invalid(`${key}: a string of at most ${MAX_FIELD_LENGTH} characters`);
    }
    fields[key] = field;
  }
  if (typeof event !== 'string' || !EVENT_TYPE.test(event)) {
    // The loaded providers' own examples; before a provider's first twin, the form alone.
    const examples = loadedProviders().map(({ event: type, title }) => `${type} (${title})`);
    const such = examples.length === 0 ? 'object.action' : sentence(examples, 'or');
    throw invalid(`event: an event type such as ${such}: a-z, 0-9, _ and dots`);
  }
  if (to !== undefined && (typeof to !== 'string' || to.length > 2048)) {
    throw invalid('to: the URL of a receiver, at most 2048 characters');
  }
  if (secret !== undefined && (typeof secret !== 'string' || !SECRET.test(secret))) {
    throw invalid('secret: 1–256 printable ASCII characters, no spaces');
  }
  return {
    event,
    ...(to === undefined ? {} : { to }),
    ...(secret === undefined ? {} : { secret }),
    ...(others.length === 0 ? {} : { fields }),
  } as TriggerRequest;
}

/**
 * The trigger's fields, each given one checked against what `provider` declares and each one not
 * given its default; `INVALID_TRIGGER` for a field the provider does not declare or a value it refuses.
 */
function fieldsOf(provider: TwinProvider | undefined, given: Readonly<Record<string, string>>): Record<string, string> {
  const declared = provider?.trigger?.fields ?? {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const field = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (field === undefined) {
      const takes = [...FIELDS, ...Object.keys(declared)].join(', ');
      throw invalid(`unknown field "${name}": a trigger of ${provider?.title ?? 'this twin'} takes ${takes}`);
    }
    if (!field.pattern.test(value)) throw invalid(`${name}: ${field.rule}`);
    fields[name] = value;
  }
  for (const [name, field] of Object.entries(declared)) fields[name] ??= field.default;
  return fields;
}

/** What a twin's events are read from: its model, its profile, its provider's events. */
type TriggerTwin = Pick<TwinEngine, 'model' | 'profile' | 'events'>;

/** The Stripe events the document names (`enabled_events`) whose object is a collection of the twin. */
function documentEvents(engine: TriggerTwin): Map<string, string> {
  const events = engine.events;
  const found = new Map<string, string>();
  if (events === undefined || events.eventsTemplate === '') return found;
  const post = (engine.model.doc.paths as Record<string, Record<string, unknown>> | undefined)?.[
    events.endpointsTemplate
  ]?.post as { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } };
  const schema = Object.values(post?.requestBody?.content ?? {})[0]?.schema;
  const enabled = schema?.properties?.enabled_events as { items?: { enum?: unknown[] } } | undefined;
  for (const type of enabled?.items?.enum ?? []) {
    if (typeof type !== 'string' || !EVENT_TYPE.test(type) || !type.includes('.')) continue;
    // `charge.dispute.created` is about a `dispute`, `customer.subscription.paused` a `subscription`.
    const object = type.slice(0, type.lastIndexOf('.'));
    const named = (name: string) =>
      engine.model.resources.find((one) => one.objectName === name && !one.template.includes('{'));
    const resource = named(object) ?? named(object.slice(object.lastIndexOf('.') + 1));
    if (resource !== undefined) found.set(type, resource.template);
  }
  return found;
}

/** The events `engine` triggers: its fixtures', then its document's, sorted. */
export function triggerable(engine: TriggerTwin): string[] {
  const fixtures = Object.keys(fixturesOf(engine.profile.flows));
  const more = [...documentEvents(engine).keys()].filter((type) => !fixtures.includes(type));
  return [...fixtures.sort(), ...more.sort()];
}

/** The fields a trigger of the twin whose profile names `flows` may give, each what it is and its default. */
export function triggerFields(flows: string | undefined): Record<string, { description: string; default: string }> {
  const declared = providerOf(flows)?.trigger?.fields ?? {};
  return Object.fromEntries(
    Object.entries(declared).map(([name, field]) => [name, { description: field.description, default: field.default }]),
  );
}

/** The most events an `UNKNOWN_TWIN_EVENT` message names. */
const MOST_LISTED = 30;

function unknownEvent(engine: TriggerTwin, type: string): MockpointError {
  const known = Object.keys(fixturesOf(engine.profile.flows)).sort();
  if (engine.events === undefined) {
    return new MockpointError(
      'UNKNOWN_TWIN_EVENT',
      'this twin is of a document, which sends no events; trigger works on the twin of a provider (GET /api/twins lists them)',
    );
  }
  // Those of the asked event's object first (`payment_intent.*` for `payment_intent.teleported`),
  // then the others, a few: the message stays short, and the twin's setting lists them all.
  const object = type.split('.')[0];
  const family = known.filter((one) => one.split('.')[0] === object);
  const shown = [...family, ...known.filter((one) => !family.includes(one))].slice(0, MOST_LISTED);
  const more = triggerable(engine).length - shown.length;
  return new MockpointError(
    'UNKNOWN_TWIN_EVENT',
    `event: ${engine.profile.name} has no event "${type}"; one of ${shown.join(', ')}${
      more > 0 ? ` and ${more} more (GET /api/endpoints/{name}/twin lists them all as triggers)` : ''
    }`,
  );
}

/**
 * `text` with each `{word}` the trigger's words or the last answer's members hold (`{unique}`,
 * `{id}`, `{number}`, the provider's words); any other left as it is.
 */
function filled(text: string, last: Record<string, unknown>, words: Record<string, string>): string {
  return text.replace(/\{([a-z][a-z0-9_]{0,63})\}/g, (whole, word: string) => {
    const value = words[word] ?? last[word];
    return typeof value === 'string' || typeof value === 'number'
      ? encodeURIComponent(String(value)).replace(/%2F/g, '/')
      : whole;
  });
}

function encoded(
  engine: TwinEngine,
  body: FixtureStep['body'],
  last: Record<string, unknown>,
  words: Record<string, string>,
): { body: string; type: string } {
  const values = JSON.parse(filled(JSON.stringify(body ?? {}), last, words)) as Record<string, unknown>;
  if (engine.profile.body !== 'form') return { body: JSON.stringify(values), type: 'application/json' };
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) form.append(key, String(value));
  return { body: form.toString(), type: 'application/x-www-form-urlencoded' };
}

/**
 * `TWIN_EVENT_NOT_MADE`: a fixture's calls did not make the event asked for (the twin's state
 * refused one of them); what they emitted and each call's status say where it stopped.
 */
function notMade(type: string, events: TriggerResult['events'], answers: string[]): MockpointError {
  const types = [...new Set(events.map((one) => one.type))];
  const made =
    types.length === 0
      ? 'no event'
      : `${sentence(types.slice(0, MOST_NAMED), 'and')}${types.length > MOST_NAMED ? ` (${types.length} kinds)` : ''}`;
  // The refused calls say where it stopped (a few, and how many calls there were): the message stays short.
  const refused = answers.filter((answer) => !/ 2\d\d$/.test(answer));
  const named = (refused.length > 0 ? refused : answers).slice(0, MOST_NAMED).join(', ');
  const calls = `${answers.length} call${answers.length === 1 ? '' : 's'}${refused.length > 0 ? `, refused: ${named}` : `: ${named}`}`;
  return new MockpointError(
    'TWIN_EVENT_NOT_MADE',
    `event: the calls that make "${type}" (${calls}) made ${made}, not "${type}"; nothing was sent about it. Read what the refused call was about through the twin, reset the twin's collections or fix that object, and trigger again`,
  );
}

/** The most event kinds and calls a `TWIN_EVENT_NOT_MADE` message names. */
const MOST_NAMED = 3;

/** Runs a fixture's calls through the twin, each told what it emitted; each call and its status (`POST /v1/customers 200`). */
async function runFixture(
  engine: TwinEngine,
  steps: readonly FixtureStep[],
  words: Record<string, string>,
  heard: (type: string, event: Record<string, unknown>) => void,
): Promise<string[]> {
  const answers: string[] = [];
  const answered = providerOf(engine.profile.flows)?.trigger?.answered;
  const auth = engine.profile.auth;
  const authorization = auth === undefined ? undefined : `${auth.schemes[0]} ${auth.bearerPrefix}trigger`;
  let last: Record<string, unknown> = {};
  for (const step of steps) {
    const { body, type } = encoded(engine, step.body, last, words);
    const answer = await engine.handle({
      method: step.method,
      path: filled(step.path, last, words),
      query: '',
      body: step.method === 'DELETE' ? '' : body,
      header: (name) => (name === 'authorization' ? authorization : name === 'content-type' ? type : undefined),
      onEvent: heard,
    });
    answers.push(`${step.method} ${filled(step.path, last, words)} ${answer.status}`);
    const value = answer.body === '' ? {} : (JSON.parse(answer.body) as Record<string, unknown>);
    // What the provider reads of it: the object the next step is about, and words later steps name.
    const given = answered?.(value) ?? {};
    if (step.method !== 'DELETE') last = given.object ?? value;
    Object.assign(words, given.words);
  }
  return answers;
}

/** The secret `to`'s delivery is signed with: the one asked for, a subscription's to that URL, or a new one. */
async function secretFor(engine: TwinEngine, trigger: TriggerRequest): Promise<string> {
  if (trigger.secret !== undefined) return trigger.secret;
  const events = engine.events;
  const kept = engine.model.resources.find((one) => one.template === events?.endpointsTemplate);
  const subscribed = kept === undefined ? [] : await engine.storedObjects(kept);
  for (const endpoint of subscribed) {
    const target = events?.target?.(endpoint) ?? { url: endpoint.url, secret: endpoint.secret };
    if (target.url === trigger.to && typeof target.secret === 'string' && target.secret !== '') return target.secret;
  }
  return `${providerOf(engine.profile.flows)?.secretPrefix ?? ''}${engine.newId('')}`;
}

/** Sends the event `trigger` names through `engine`; `UNKNOWN_TWIN_EVENT` for one it does not know. */
export async function runTrigger(engine: TwinEngine, trigger: TriggerRequest): Promise<TriggerResult> {
  const type = trigger.event;
  // The provider's fields first: a field it does not take is refused whatever the event.
  const provider = providerOf(engine.profile.flows);
  const fields = fieldsOf(provider, trigger.fields ?? {});
  const steps = fixturesOf(engine.profile.flows)[type];
  const template = documentEvents(engine).get(type);
  if (engine.events === undefined || (steps === undefined && template === undefined)) throw unknownEvent(engine, type);
  const events: TriggerResult['events'] = [];
  // Each event as the provider sends it (its objects in the event's version, nothing the twin keeps for itself).
  const heard = (kind: string, event: Record<string, unknown>) =>
    void events.push({ type: kind, event: engine.shown(event) });
  const unique = engine.newId('').slice(0, 6).toLowerCase();
  const words: Record<string, string> = { ...provider?.trigger?.words?.(fields, unique), unique };
  if (steps !== undefined) {
    // What the event's objects live in, made first where the twin holds none (a refusal is that it exists).
    await runFixture(engine, provider?.trigger?.before ?? [], words, heard);
    const answers = await runFixture(engine, steps, words, heard);
    // Only what the flows made is sent: a fixture that did not make its event says so.
    if (!events.some((one) => one.type === type)) throw notMade(type, events, answers);
  } else if (template !== undefined) {
    // No flow makes it (an object only the document describes): its example, as its read answers it.
    const object = exampleObject(engine, template, type);
    await engine.announce([type], { kind: 'action', template, object }, heard);
  }
  const result: TriggerResult = { event: type, events };
  if (trigger.to !== undefined) {
    const event = events.find((one) => one.type === type)?.event ?? {};
    const secret = await secretFor(engine, trigger);
    const made = (await engine.deliverOne({ url: trigger.to, secret }, type, event)) as { id?: unknown } | undefined;
    result.delivery = { id: String(made?.id ?? ''), url: trigger.to, secret };
  }
  return result;
}

/** The enums of the top-level fields of an object of the collection `template`, as its read answers it. */
function enumsOf(engine: TwinEngine, template: string, idParam: string): Map<string, string[]> {
  const doc = engine.model.doc as Schema;
  const read = (doc.paths as Record<string, Record<string, Schema>> | undefined)?.[`${template}/{${idParam}}`]?.get;
  const ok = resolve(doc, (read?.responses as Record<string, Schema> | undefined)?.['200']);
  const schema = resolve(doc, Object.values((ok.content as Record<string, Schema> | undefined) ?? {})[0]?.schema);
  const found = new Map<string, string[]>();
  for (const [field, property] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {})) {
    const values = resolve(doc, property).enum;
    if (Array.isArray(values))
      found.set(
        field,
        values.filter((value): value is string => typeof value === 'string'),
      );
  }
  return found;
}

/**
 * The document's example of an object of the collection `template` for the event `type`, under a
 * new id of the collection's prefix (the profile's `ids.prefixes`); each field with an enum holding a value of it: the event's
 * last word where the enum has it (`customer.subscription.paused`'s `status: "paused"`), else the
 * enum's first.
 */
function exampleObject(engine: TwinEngine, template: string, type: string): Record<string, unknown> {
  const resource = engine.model.resources.find((one) => one.template === template);
  const object = engine.exampleObject(template, engine.newId(resource?.prefix ?? ''));
  const word = type.slice(type.lastIndexOf('.') + 1);
  for (const [field, values] of resource === undefined ? [] : enumsOf(engine, template, resource.idParam)) {
    if (!(field in object) || values.length === 0) continue;
    if (values.includes(word)) object[field] = word;
    else if (typeof object[field] !== 'string' || !values.includes(object[field])) object[field] = values[0];
  }
  // A `status` the document gives no enum (a payout's) is the state the event names, not the
  // example's placeholder: `payout.paid`'s `paid`.
  if (object.status === 'status' && !['created', 'updated', 'deleted'].includes(word)) object.status = word;
  return object;
}
