/**
 * The twin of one name, in its detail view (docs/twins.md, docs/design.md#twins): the
 * provider, the objects the twin holds by collection (what a client created,
 * as it now is) and its events — Stripe's as `GET /v1/events` lists them,
 * GitHub's as the deliveries to its repositories' hooks — newest first, read
 * from the API (`GET …/twin`, `…/collections`, `/api/deliveries`). Hidden for
 * a name with no twin.
 *
 * @module
 */
import type { Delivery, Twin } from '@mockpoint/core/client';
import { api, isApiFailure } from './api.js';
import { h, replaceChildren } from './dom.js';
import { panel, readQuietly } from './panel-actions.js';
import { report } from './report.js';

/** Objects and events listed at most; the rest are counted. */
const MAX_SHOWN = 50;

/** A stored object of the twin, as its collection keeps it. */
interface Kept {
  scope?: string;
  deleted?: boolean;
  object?: Record<string, unknown>;
}

/** The fields that say what an object is, the first present shown beside its id. */
const SUMMARY = ['email', 'name', 'title', 'status', 'state', 'body', 'url'] as const;

/** One line about an object: its id (or number), where it lives, and what it is. */
function objectLine(kept: Kept): HTMLElement {
  const object = kept.object ?? {};
  const id = object.number ?? object.id;
  const field = SUMMARY.find((key) => typeof object[key] === 'string' && object[key] !== '');
  const summary = field === undefined ? '' : String(object[field]).slice(0, 120);
  return h(
    'li',
    null,
    h('code', null, String(id ?? '?')),
    kept.scope ? h('span', { class: 'hint' }, ` in ${kept.scope}`) : null,
    summary === '' ? null : ` ${field}: ${summary}`,
  );
}

/**
 * What the provider keeps of its own beside its document's collections (GitHub's repositories,
 * refs, files, collaborators: `_own-{kind}`, each `{ key, record }`), by kind, as objects of the
 * panel (the key as the id); the counters a kind keeps for its numbers left out.
 */
function ownGroups(collections: Record<string, unknown[]>): { kind: string; objects: Kept[] }[] {
  return Object.entries(collections)
    .filter(([key, items]) => key.startsWith('_own-') && !key.endsWith('-numbers') && items.length > 0)
    .map(([key, items]) => ({
      kind: key.slice('_own-'.length),
      objects: (items as { key?: unknown; record?: Record<string, unknown> }[])
        .map((item) => ({ object: { ...item.record, number: undefined, id: String(item.key) } }))
        .reverse(),
    }));
}

/** The live objects of a collection, newest first. */
function liveObjects(items: unknown[] | undefined): Kept[] {
  return ((items ?? []) as Kept[]).filter((item) => item.deleted !== true && item.object !== undefined).reverse();
}

function more(count: number): HTMLElement | null {
  return count > MAX_SHOWN ? h('p', { class: 'hint' }, `and ${count - MAX_SHOWN} more (the API lists them all)`) : null;
}

/** Reads the twin; `null` when the name has none, `undefined` when it cannot be read. */
async function readTwin(name: string): Promise<Twin | null | undefined> {
  try {
    return await api.getTwin(name);
  } catch (error) {
    if (isApiFailure(error) && (error.code === 'TWIN_NOT_FOUND' || error.code === 'INVALID_NAME')) return null;
    if (!isApiFailure(error)) report(error);
    return undefined;
  }
}

/** The twin panel of `name`. */
export class TwinView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #about: HTMLElement;
  readonly #objects: HTMLElement;
  readonly #events: HTMLElement;
  #shown: string | undefined;

  constructor(name: string) {
    this.#name = name;
    this.#about = h('p', { class: 'twin-about', id: 'twin-about' });
    this.#objects = h('div', { class: 'twin-objects' });
    this.#events = h('div', { class: 'twin-events' });
    this.el = panel(
      'twin',
      'Twin',
      null,
      this.#about,
      h('h4', { id: 'twin-objects-title' }, 'Objects'),
      this.#objects,
      h('h4', { id: 'twin-events-title' }, 'Events'),
      this.#events,
    );
  }

  /** Reads the twin, its objects and events; resolves with whether the name has one (undefined when unreadable). */
  async load(): Promise<boolean | undefined> {
    const twin = await readTwin(this.#name);
    if (twin === null || twin === undefined) return twin === null ? false : undefined;
    // Events the provider lists are shown from their collection; the others, as the deliveries to its subscribers.
    const hooks = twin.events !== undefined && twin.events.listed === '';
    const [collections, deliveries] = await Promise.all([
      readQuietly(() => api.getCollections(this.#name)),
      hooks ? readQuietly(() => api.deliveries({ limit: 200 })) : Promise.resolve([]),
    ]);
    if (collections === undefined || deliveries === undefined) return undefined;
    const key = JSON.stringify([twin, collections, deliveries]);
    if (key !== this.#shown) {
      this.#shown = key;
      this.#show(twin, collections, deliveries);
    }
    return true;
  }

  #show(twin: Twin, collections: Record<string, unknown[]>, deliveries: Delivery[]): void {
    const what =
      twin.provider === undefined ? `A twin of ${twin.title ?? 'an OpenAPI document'}` : `${twin.provider} twin`;
    this.#about.textContent = `${what}: ${twin.operations} operations, ${twin.collections.length} collections; ${
      twin.triggers.length === 0
        ? 'it sends no events'
        : `mockpoint trigger sends ${twin.triggers.length} kinds of event`
    }.`;
    const eventsAt = twin.events?.listed || undefined;
    const groups = twin.collections
      .filter((template) => template !== eventsAt)
      .map((template) => ({ template, objects: liveObjects(collections[twin.kept[template] ?? '']) }))
      .filter((group) => group.objects.length > 0);
    // What the provider keeps of its own (GitHub's repositories, refs, files), after the document's.
    const own = ownGroups(collections).map(({ kind, objects }) => ({ template: `${kind} (the twin's own)`, objects }));
    const shown = [...groups, ...own];
    replaceChildren(
      this.#objects,
      shown.length === 0
        ? h('p', { class: 'empty' }, 'None yet: what a client creates through the twin shows here.')
        : shown.map(({ template, objects }) =>
            h(
              'section',
              { class: 'twin-collection', 'aria-label': `${template}: ${objects.length}` },
              h('h5', null, h('code', null, template), ` (${objects.length})`),
              h('ul', null, objects.slice(0, MAX_SHOWN).map(objectLine)),
              more(objects.length),
            ),
          ),
    );
    if (eventsAt !== undefined) this.#showEvents(liveObjects(collections[twin.kept[eventsAt] ?? '']));
    else this.#showDeliveries(twin, collections, deliveries);
  }

  /** The events the provider lists (Stripe's, as `GET /v1/events` lists them). */
  #showEvents(events: Kept[]): void {
    replaceChildren(
      this.#events,
      events.length === 0
        ? h('p', { class: 'empty' }, 'None yet: each change the twin makes emits one (or use mockpoint trigger).')
        : h(
            'ol',
            { 'aria-labelledby': 'twin-events-title' },
            events.slice(0, MAX_SHOWN).map(({ object = {} }) => {
              const created = typeof object.created === 'number' ? new Date(object.created * 1000).toISOString() : '';
              return h(
                'li',
                null,
                h('code', null, String(object.type)),
                ` ${String(object.id)} `,
                h('time', null, created),
              );
            }),
          ),
      more(events.length),
    );
  }

  /** The events a provider does not list (GitHub's): the deliveries to the URLs of the twin's subscriptions (its hooks). */
  #showDeliveries(twin: Twin, collections: Record<string, unknown[]>, deliveries: Delivery[]): void {
    const urls = new Set<unknown>();
    const subscriptions = twin.events?.subscriptions ?? '';
    for (const { object } of liveObjects(collections[twin.kept[subscriptions] ?? ''])) {
      // A subscription's receiver: in its `config` where it has one (GitHub's hooks, whose own `url` is the hook's in the API), else its `url`.
      urls.add((object?.config as { url?: unknown } | undefined)?.url ?? object?.url);
    }
    const sent = deliveries.filter((delivery) => urls.has(delivery.url));
    replaceChildren(
      this.#events,
      sent.length === 0
        ? h('p', { class: 'empty' }, 'None yet: each change is delivered to the hooks of its repository.')
        : h(
            'ol',
            { 'aria-labelledby': 'twin-events-title' },
            sent
              .slice(0, MAX_SHOWN)
              .map((delivery) =>
                h(
                  'li',
                  null,
                  h('code', null, delivery.id),
                  ` ${delivery.state} to ${delivery.url} `,
                  h('time', null, delivery.createdAt),
                ),
              ),
          ),
      more(sent.length),
    );
  }
}
