/**
 * A name's twin (docs/twins.md): `/api/endpoints/{name}/twin` — PUT makes
 * `/endpoint/{name}` a stateful twin of a provider (`{ "provider": … }`, GET /api/twins)
 * or of any OpenAPI document (`{ "document", "profile" }`), checked whole before
 * it is kept (the per-name setting `twin`); GET shows it; DELETE removes it (the objects it made stay in the
 * name's collections until the name is reset or deleted). `GET /api/twins`
 * lists the providers this daemon ships. `POST …/twin/trigger` sends one of the
 * provider's events on demand (twin-trigger.ts), as a provider's own command-line tool does.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { onFirstUse } from '../../cache/on-first-use.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { MockpointError } from '../../registry/errors.js';
import { NAME_SETTINGS } from '../../settings/name-settings.js';
import { parseTwinSetting, type TwinSetting } from '../../twin/twin-setting.js';
import { flowsOf, type TwinTable } from '../../twin/twin-table.js';
import { parseTrigger, runTrigger, triggerable, triggerFields } from '../../twin/twin-trigger.js';
import { checkDeliveryTarget } from '../../webhook/delivery-target.js';
import type { AppContext } from '../context.js';
import { pathName } from './manage.js';
import { clearDoc, readDoc, STORE_ERRORS, writeDoc } from './responses.js';

/** The schemas of this module, built on their first use: a start that never uses them does not build them (docs/performance.md, "Ready"). */
const twinSchemas = onFirstUse(() => {
  const shownSchema = z.object({
    provider: z.string().optional(),
    unseen: z
      .enum(['missing', 'examples'])
      .describe(
        "What an id or list the twin never made answers: the provider's 404 and empty lists, or the document's examples.",
      ),
    title: z.string().optional().describe("The document's title."),
    profile: z.record(z.string(), z.unknown()).describe('The profile, its defaults filled.'),
    operations: z.number().int().describe("The document's operations."),
    collections: z.array(z.string()).describe('The collections inferred from its paths (path templates).'),
    kept: z
      .record(z.string(), z.string())
      .describe('The collection (GET /api/endpoints/{name}/collections) each path template keeps its objects in.'),
    triggers: z
      .array(z.string())
      .describe('The events POST /api/endpoints/{name}/twin/trigger sends (none for a twin of a document).'),
    triggerFields: z
      .record(z.string(), z.object({ description: z.string(), default: z.string() }))
      .describe("The fields a trigger may give beside event, to and secret, its provider's own (none for most)."),
    events: z
      .object({
        listed: z
          .string()
          .describe(
            "The collection its events are listed in (path template), as the provider's API lists them; empty when it lists none.",
          ),
        subscriptions: z
          .string()
          .describe('The collection of the subscriptions its events are delivered to (path template).'),
      })
      .optional()
      .describe("Where its events are, when its provider's flows make events."),
    webhooks: z
      .object({
        waiting: z.number().int().describe('Deliveries of its events waiting to be handed to the delivery engine.'),
        handed: z.number().int().describe('Handed to it (GET /api/deliveries lists them).'),
        refused: z
          .number()
          .int()
          .describe(
            "Refused by it, so never sent: the twins' share of the pending deliveries full (TOO_MANY_DELIVERIES), or a receiver not allowed.",
          ),
        lastRefusal: z.object({ code: z.string(), message: z.string(), at: z.string() }).optional(),
      })
      .describe("What the twin's webhooks did since this process started (each replica counts its own)."),
  });

  const triggerSchema = z
    .object({
      event: z.string().max(259).describe('The event type: payment_intent.succeeded, issues.opened, …'),
      to: z.string().max(2048).optional().describe("One more receiver of the event, signed the provider's way."),
      secret: z
        .string()
        .max(256)
        .optional()
        .describe("The secret `to`'s delivery is signed with (default: its subscription's, else a new one)."),
    })
    .catchall(z.string().max(256))
    .describe(
      "An event to send on demand; any other member is a field the twin's provider declares (GET /api/endpoints/{name}/twin lists them as triggerFields).",
    );

  const triggeredSchema = z.object({
    event: z.string(),
    events: z
      .array(z.object({ type: z.string(), event: z.record(z.string(), z.unknown()) }))
      .describe(
        "Every event the trigger's calls emitted (kept, delivered to the subscribers), the one asked for among them.",
      ),
    delivery: z
      .object({ id: z.string(), url: z.string(), secret: z.string() })
      .optional()
      .describe('The delivery to `to` (GET /api/deliveries/{id}).'),
  });
  return { shownSchema, triggerSchema, triggeredSchema };
});

/** What GET and PUT answer: the setting without its document, and what the engine made of it. */
async function shown(
  name: string,
  setting: TwinSetting,
  twins: TwinTable,
): Promise<z.infer<ReturnType<typeof twinSchemas>['shownSchema']>> {
  const { model, checked } = await twins.build(setting);
  const info = model.doc.info as { title?: unknown } | undefined;
  const events = flowsOf(checked.flows)?.events;
  return {
    ...(setting.provider === undefined ? {} : { provider: setting.provider }),
    unseen: setting.unseen ?? 'missing',
    ...(typeof info?.title === 'string' ? { title: info.title.slice(0, 200) } : {}),
    profile: checked as unknown as Record<string, unknown>,
    operations: model.operations.length,
    collections: model.resources.map((resource) => resource.template),
    kept: Object.fromEntries(model.resources.map((resource) => [resource.template, resource.key])),
    triggers: triggerable({ model, profile: checked, events }),
    triggerFields: triggerFields(checked.flows),
    ...(events === undefined
      ? {}
      : { events: { listed: events.eventsTemplate, subscriptions: events.endpointsTemplate } }),
    webhooks: twins.webhooks(name),
  };
}

export function registerTwinRoutes(app: Hono, ctx: AppContext): void {
  const { endpoints, options, twins, schemas } = ctx;
  const settingSchema = NAME_SETTINGS.twin.input.schema(schemas);
  const path = '/api/endpoints/:name/twin';
  const none = (name: string) =>
    new MockpointError('TWIN_NOT_FOUND', `"${name}" has no twin; make one with PUT /api/endpoints/${name}/twin`);

  // The twin table follows the name's changes: it makes the engine again (replicas hear of it from the store).
  const changing = async (name: string, write: () => Promise<unknown>) => {
    try {
      await write();
    } finally {
      endpoints.changes.changed(name);
    }
  };

  /** The providers this daemon ships: none without a catalog; the catalog reads them on first use. */
  const shipped = async (): Promise<readonly string[]> => (await twins.catalog?.providers()) ?? [];

  app.get('/api/twins', async (c) => c.json({ providers: await shipped() }));

  app.get(path, async (c) => {
    const name = pathName(c.req.param('name') ?? '');
    const setting = await endpoints.store.getSetting('twin', name);
    if (setting === undefined) throw none(name);
    // `?setting=true`: the setting as put, its document whole (what `mockpoint export` keeps).
    if (c.req.query('setting') === 'true') return c.json(setting);
    return c.json(await shown(name, setting, twins));
  });

  app.put(path, async (c) => {
    const name = pathName(c.req.param('name') ?? '');
    // Its input, read by its declaration (settings/twin-setting.ts); checked against the providers it ships here.
    const body = await NAME_SETTINGS.twin.input.read(c.req.raw, options, schemas);
    const setting = await parseTwinSetting(body, shipped);
    const answer = await shown(name, setting, twins);
    await changing(name, () => endpoints.store.setSetting('twin', name, setting));
    return c.json(answer);
  });

  app.post(`${path}/trigger`, async (c) => {
    const name = pathName(c.req.param('name') ?? '');
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes);
    const body = Object.fromEntries([...members].map(([member, text]) => [member, JSON.parse(text)]));
    const trigger = parseTrigger(body);
    // Refused before the twin changes anything: a receiver the daemon may not reach.
    if (trigger.to !== undefined) checkDeliveryTarget(trigger.to, options.deliveryAllowHosts);
    const engine = await twins.engine(name);
    if (engine === null) {
      // The providers, to name in the message; their package missing is named by PUT, not here.
      const providers = (await shipped().catch(() => [])).join(', ') || '(none)';
      throw new MockpointError(
        'TWIN_NOT_FOUND',
        `"${name}" has no twin to trigger; make one with PUT /api/endpoints/${name}/twin { "provider": one of ${providers} }`,
      );
    }
    return c.json(await runTrigger(engine, trigger));
  });

  app.delete(path, async (c) => {
    const name = pathName(c.req.param('name') ?? '');
    await changing(name, () => endpoints.store.setSetting('twin', name, undefined));
    return c.body(null, 204);
  });

  const params = { name: { description: 'Endpoint name (the record need not exist).', schema: schemas.name } };
  ctx.describe?.push(
    readDoc(
      schemas,
      { path: '/api/twins', summary: 'The providers this daemon ships twins of (docs/twins.md).', tag: 'endpoints' },
      { description: 'The providers.', schema: z.object({ providers: z.array(z.string()) }) },
    ),
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/twin',
        summary: "The endpoint's twin; with ?setting=true, the setting as put (its document whole).",
        tag: 'endpoints',
        params,
        query: z.object({
          setting: z
            .enum(['true', 'false'])
            .optional()
            .describe('true: the setting as put (provider, document, profile), for mockpoint export.'),
        }),
      },
      {
        description: 'The twin (with ?setting=true: provider, document, profile as put).',
        schema: z.union([twinSchemas().shownSchema, settingSchema]),
      },
      'TWIN_NOT_FOUND',
    ),
    writeDoc(
      schemas,
      {
        method: 'put',
        path: '/api/endpoints/{name}/twin',
        summary:
          'Make /endpoint/{name} a stateful twin of a provider or of an OpenAPI document: collections from its paths, objects kept, the rest answered from its examples (docs/twins.md).',
        tag: 'endpoints',
        params,
        body: settingSchema,
      },
      { 200: { description: 'Saved; the twin.', schema: twinSchemas().shownSchema } },
      STORE_ERRORS,
      'INVALID_TWIN',
    ),
    writeDoc(
      schemas,
      {
        method: 'post',
        path: '/api/endpoints/{name}/twin/trigger',
        summary:
          "Send one of the provider's events on demand, as a provider's own command-line tool triggers them: the twin makes the objects it is about through its API, so the event is kept (GET /v1/events) and delivered to the subscribers; `to` gets one more delivery, signed the provider's way (docs/twins.md#trigger-an-event).",
        tag: 'endpoints',
        params,
        body: twinSchemas().triggerSchema,
      },
      { 200: { description: 'Sent; the events emitted.', schema: twinSchemas().triggeredSchema } },
      STORE_ERRORS,
      [
        'INVALID_TRIGGER',
        'UNKNOWN_TWIN_EVENT',
        'TWIN_EVENT_NOT_MADE',
        'TWIN_NOT_FOUND',
        'INVALID_DELIVERY_URL',
        'DELIVERY_HOST_NOT_ALLOWED',
        'TOO_MANY_DELIVERIES',
      ],
    ),
    clearDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/twin',
        summary: 'Remove the twin (its objects stay in the collections).',
        tag: 'endpoints',
        params,
      },
      'Removed (or there was none).',
    ),
  );
}
