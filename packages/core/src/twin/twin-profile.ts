/**
 * A twin's **profile** (docs/twins.md#the-profile-format): the small, documented
 * JSON that says how a provider's API maps onto the generic stateful engine —
 * how bodies are encoded, how ids look, which verb updates, how lists page,
 * what an error and a deleted object look like, where timestamps go, whether a
 * key is required and idempotency keys are honoured. Checked when loaded: a
 * profile that breaks the format is refused with `INVALID_TWIN` naming the field.
 *
 * @module
 */
import { z } from 'zod';
import { MAX_RATE_LIMIT, MAX_RATE_WINDOW_MS, rateLimitStyleSchema, windowMs } from '../api/rate-limit.js';
import { onFirstUse } from '../cache/on-first-use.js';
import { MockpointError } from '../registry/errors.js';
import { loadedProviders, providerOf } from './twin-provider.js';

/** How lists page (cursor or numbered), built on first use as the profile's schema is. */
const pageSchemas = onFirstUse(() => {
  const cursorPages = z
    .object({
      style: z.literal('cursor'),
      /** The query parameters: page size, the id to start after, the id to end before. */
      limit: z.string().max(64).default('limit'),
      after: z.string().max(64).default('starting_after'),
      before: z.string().max(64).default('ending_before'),
      defaultLimit: z.number().int().min(1).max(1000).default(10),
      maxLimit: z.number().int().min(1).max(1000).default(100),
    })
    .strict();

  const numberedPages = z
    .object({
      style: z.literal('page'),
      /** The query parameters: page size and page number (from 1); answered with a `Link` header. */
      limit: z.string().max(64).default('per_page'),
      page: z.string().max(64).default('page'),
      defaultLimit: z.number().int().min(1).max(1000).default(30),
      maxLimit: z.number().int().min(1).max(1000).default(100),
    })
    .strict();

  /** As the document's list operation says (twin-document.ts): its cursor parameter, else numbered pages. */
  const documentPages = z.object({ style: z.literal('document') }).strict();

  return {
    pagination: z
      .discriminatedUnion('style', [cursorPages, numberedPages, documentPages])
      .prefault({ style: 'document' }),
  };
});

/**
 * The members of an `envelope` list the twin fills: `items` the page; `hasMore` whether more
 * follow; where the document's example has them, `url` the list's path, `total` the count of
 * the items listed and `nextPage` `null`.
 */
const envelopeSchema = onFirstUse(() => {
  const member = z.string().min(1).max(64);
  return z
    .object({
      items: member,
      hasMore: member.optional(),
      url: member.optional(),
      total: member.optional(),
      nextPage: member.optional(),
    })
    .strict();
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The profile's members about what every answer carries (request ids, a rate limit), built on first use. */
const answerSchemas = onFirstUse(() => ({
  /**
   * A new id on every answer, in `header` (Stripe's `Request-Id: req_…`); with `original`, an
   * answer to a request with an idempotency key names in that header the request that first
   * used the key (Stripe's `Original-Request`). @default no request ids
   */
  requestIds: z
    .object({
      header: z.string().min(1).max(64).default('request-id'),
      prefix: z.string().max(32).default('req_'),
      length: z.number().int().min(8).max(64).default(14),
      original: z.string().min(1).max(64).optional(),
      /**
       * Ids of groups of random upper-case hex digits joined by `:`, of these lengths, instead of
       * `prefix` and `length` (GitHub's `X-GitHub-Request-Id: C0DE:1A2B:3C4D5E:6F7A8B:65F0A1B2`).
       */
      hexGroups: z.array(z.number().int().min(1).max(16)).min(1).max(8).optional(),
    })
    .strict()
    .optional(),
  /**
   * The provider's own rate limit (GitHub's 5,000 requests an hour a token): each token's
   * requests counted in the daemon's memory in fixed windows of `per`, every answer carrying
   * the headers of `style` (api/rate-limit.ts), a request past `limit` refused with `status`
   * until the window ends. @default no limit
   */
  rateLimit: z
    .object({
      limit: z.number().int().min(1).max(MAX_RATE_LIMIT),
      per: z
        .string()
        .max(32)
        .refine((per) => (windowMs(per) ?? 0) >= 1000 && (windowMs(per) ?? 0) <= MAX_RATE_WINDOW_MS, {
          message: 'a duration from 1s to 31d, such as "1h"',
        }),
      style: rateLimitStyleSchema().default('ietf'),
      status: z.union([z.literal(403), z.literal(429)]).default(429),
    })
    .strict()
    .optional(),
  /**
   * How the provider refuses a client that asks too much at once: a request whose expensive work
   * (a large answer, a read of the whole state) the daemon's budget could not take within its wait
   * (turns/work-budget.ts) is answered `status` with the `429` of `style` (api/rate-limit-headers.ts)
   * and `Retry-After`, as the provider's SDKs read it. @default `ietf`, `429`
   */
  busy: z
    .object({
      style: rateLimitStyleSchema().default('ietf'),
      status: z.union([z.literal(403), z.literal(429)]).default(429),
    })
    .strict()
    .default({ style: 'ietf', status: 429 }),
  /**
   * The provider's dated API versions (Stripe's `2024-04-10` … `2026-10-28.endive`), oldest
   * first: a request's `header` names the one it is answered in, echoed in the answer's; none
   * answers in the newest (the last), an unknown one is refused (twin-versions.ts). @default no versions
   */
  versions: z
    .object({
      header: z.string().min(1).max(64),
      known: z.array(z.string().min(1).max(64)).min(1).max(500),
    })
    .strict()
    .optional(),
}));

/** The profile's members about what an item reads of other collections (twin-related.ts), built on first use. */
const relatedSchemas = onFirstUse(() => ({
  /**
   * Collections whose items are also items of another, by last path segment (GitHub's
   * `pulls` → `issues`: a pull request is an issue): numbered in one sequence with it per
   * scope, and listed in its lists as the provider's flows show them (`member`).
   */
  within: z.record(z.string().max(32), z.string().max(32)).default({}),
  /**
   * Fields that count the live items of another collection, by the item's collection and then
   * the field, read when the item is answered: a collection's last segment counts those made
   * below the item (GitHub's `issues` → `comments` → `comments`: the comments made at
   * `…/issues/{issue_number}/comments`); `{ of, by, where }` those of `of` (and the
   * collections `within` it) in the item's scope whose field `by` (a dotted path) is the
   * item's key and whose `where` fields are as named (GitHub's milestone's `open_issues`: the
   * issues and pull requests whose `milestone.number` is its number, `state` `open`).
   */
  counts: z
    .record(
      z.string().max(32),
      z.record(
        z.string().max(64),
        z.union([
          z.string().max(32),
          z
            .object({
              of: z.string().min(1).max(32),
              by: z.string().min(1).max(128),
              where: z
                .record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean(), z.null()]))
                .default({}),
            })
            .strict(),
        ]),
      ),
    )
    .default({}),
}));

/** How a list answers (the profile's `list`): its style, order and an envelope's members. */
function listSchema() {
  return z
    .object({
      style: z.enum(['bare', 'envelope', 'document']).default('document'),
      order: z.enum(['newest', 'oldest']).default('oldest'),
      envelope: envelopeSchema().optional(),
    })
    .strict()
    .refine((list) => list.style !== 'envelope' || list.envelope !== undefined, {
      message:
        'list.style "envelope" names the members it fills: list.envelope { "items", "hasMore", "url", "total", "nextPage" } (items required)',
    })
    .prefault({});
}

/** The schemas of this module, built on their first use: a start that never uses them does not build them (docs/performance.md, "Ready"). */
const profileSchemas = onFirstUse(() => {
  const placeholderText = z.string().max(1000);

  /** The profile format, checked when a twin is made. */
  const twinProfileSchema = z
    .object({
      /** What the twin is called in messages (`stripe`, `petstore`). */
      name: z.string().min(1).max(64),
      /** How request bodies come: JSON, or form-encoded with nested brackets (`a[b][0]=x`). */
      body: z.enum(['json', 'form']).default('json'),
      /**
       * The verb that updates an item at its own path (`POST` for Stripe, `PATCH` for GitHub).
       * @default the one the document has at the item path: `PATCH`, else `PUT`
       */
      update: z.enum(['POST', 'PUT', 'PATCH']).optional(),
      /** The status of a successful create. @default the document's success status of the operation */
      createStatus: z.number().int().min(200).max(299).optional(),
      ids: z
        .object({
          /**
           * `random`: a prefix and random letters and digits; `sequence`: 1, 2, 3, … per
           * collection; `auto`: a sequence where the document's ids are integers, else random.
           */
          style: z.enum(['auto', 'random', 'sequence']).default('auto'),
          /** Random letters after the prefix. */
          length: z.number().int().min(4).max(64).default(24),
          /** A prefix per collection, by its last path segment (`customers` → `cus_`). */
          prefixes: z.record(z.string().max(32), z.string().max(32)).default({}),
          /**
           * The field an item's path id reads, by the collection's last path segment
           * (GitHub's `issues` → `number`, counted 1, 2, 3 per repository; `labels` → `name`).
           */
          keys: z.record(z.string().max(32), z.string().max(64)).default({}),
        })
        .strict()
        .prefault({}),
      pagination: pageSchemas().pagination,
      /**
       * A list's answer: `bare` (an array), `envelope`: the document's example of the list
       * object with the members `envelope` names filled (Stripe's `{ object: "list", data,
       * has_more, url }`), or `document`: as the list operation's answer schema says (an array,
       * or the object whose array member holds it).
       */
      list: listSchema(),
      /** Timestamps the clock writes: field names, and as Unix seconds or ISO 8601 text. */
      timestamps: z
        .object({
          format: z.enum(['unix', 'iso']).default('iso'),
          created: z.array(z.string().max(64)).max(8).default(['created_at']),
          updated: z.array(z.string().max(64)).max(8).default(['updated_at']),
        })
        .strict()
        .prefault({}),
      /**
       * The error body, as JSON text with `{type}`, `{code}`, `{message}`, `{param}` and
       * `{reason}` in it (each replaced, JSON-escaped, inside its string) and `"{status}"` (the
       * answer's status, a number). @default the document's error answers' (twin-document.ts)
       */
      error: placeholderText
        .default('{"message":"{message}"}')
        .refine((text) => isJson(text.replace(/\{(type|code|message|param|reason|status)\}/g, 'x')), {
          message:
            'the error template is JSON once its {type}, {code}, {message}, {param}, {reason} and {status} are filled',
        }),
      /**
       * What DELETE answers: `204` no body, the item's `{ id, object, deleted: true }`, or (the
       * default) what the document's DELETE answers: its status, and its object with the id and
       * `deleted: true` where the schema has them.
       */
      deleted: z.enum(['no-content', 'tombstone', 'document']).default('document'),
      /**
       * A key required on every request: `Authorization: <scheme> <prefix>…` with one of
       * `schemes` (Stripe: `Bearer` or `Basic` with the key as the user; GitHub: `token` or `Bearer`).
       */
      auth: z
        .object({
          bearerPrefix: z.string().max(64).default(''),
          schemes: z
            .array(z.enum(['Bearer', 'Basic', 'token']))
            .min(1)
            .max(3)
            .default(['Bearer', 'Basic']),
        })
        .strict()
        .optional(),
      /** The header whose key replays an earlier answer (same body) or refuses another body. */
      idempotencyHeader: z.string().max(64).optional(),
      /** The header a replayed answer carries, `true` (Stripe's `Idempotent-Replayed`). @default none */
      idempotencyReplayedHeader: z
        .string()
        .regex(/^[A-Za-z0-9-]{1,64}$/)
        .transform((name) => name.toLowerCase())
        .optional(),
      ...answerSchemas(),
      /**
       * A strong `ETag` on every `200` answer to a `GET`, and `304 Not Modified` (no body) when
       * the request's `If-None-Match` names it (GitHub's conditional requests). @default false
       */
      etag: z.boolean().default(false),
      /**
       * Fields a new object holds as `{}` where the document's example leaves them out or `null`
       * (Stripe's `metadata`), on every object whose schema has them.
       */
      emptyObjects: z.array(z.string().min(1).max(64)).max(16).default([]),
      /** `expand[]` (Stripe): ids in the answer replaced by the objects they name. */
      expand: z.string().max(64).optional(),
      /**
       * A provider's built-in flows beside the generic engine: the name of a provider of
       * `@mockpoint/twins` (checked against those loaded, twin-table.ts loads the one named).
       */
      flows: z
        .string()
        .regex(/^[a-z][a-z0-9-]{0,63}$/)
        .optional(),
      /**
       * Paths that create and list the items of a collection found elsewhere, by
       * that collection's path (GitHub's `…/issues/{issue_number}/comments` →
       * `…/issues/comments`, whose `…/{comment_id}` reads, updates and deletes);
       * `''` for a path that is no collection although it looks like one (the
       * provider's flows answer it: GitHub's `…/issues/{issue_number}/labels`).
       */
      aliases: z.record(z.string().max(300), z.string().max(300)).default({}),
      ...relatedSchemas(),
      /**
       * Path parameters naming what the twin takes as existing though it keeps none (GitHub's
       * `owner`, `repo`: an issue is made in any repository). With them, a `GET` outside the
       * collections of what the twin never made (`unseen: "missing"`) answers as the provider
       * does: a list empty, a path naming an object by another parameter (`/orgs/{org}`) the
       * provider's 404. @default absent: every operation outside the collections answers its example
       */
      implied: z.array(z.string().min(1).max(64)).max(16).optional(),
      /**
       * Body parameters, at any depth, by their own name (`price` of `items[0][price]`), that name
       * an item of the collection at a template (`/v1/prices`) where the document does not say so:
       * an id the twin does not hold is refused as the provider refuses it (twin-references.ts).
       * @default none
       */
      references: z.record(z.string().min(1).max(64), z.string().min(1).max(300)).optional(),
    })
    .strict();
  return { twinProfileSchema };
});

/** A checked profile, its defaults filled. */
export type TwinProfile = z.output<ReturnType<typeof profileSchemas>['twinProfileSchema']>;

/** `value` as a profile, or `INVALID_TWIN` naming the first field that breaks the format. */
export function checkProfile(value: unknown): TwinProfile {
  const parsed = profileSchemas().twinProfileSchema.safeParse(value ?? {});
  if (parsed.success) {
    const { flows } = parsed.data;
    if (flows !== undefined && providerOf(flows) === undefined) {
      const loaded = loadedProviders().map(({ name }) => `"${name}"`);
      throw new MockpointError(
        'INVALID_TWIN',
        `profile.flows: no provider "${flows}" is loaded${loaded.length === 0 ? '' : ` (loaded: ${loaded.join(', ')})`}; a provider's flows come with its twin, { "provider": "${flows}" } (see docs/twins.md)`,
      );
    }
    return parsed.data;
  }
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `profile.${issue.path.join('.')}` : 'profile';
  throw new MockpointError('INVALID_TWIN', `${where}: ${issue?.message ?? 'not a profile'} (see docs/twins.md)`);
}

/** The reasons of the statuses a twin refuses with. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

/** The error body of `profile` for one failure. */
export function errorBody(
  profile: TwinProfile,
  fields: { status?: number; type: string; code?: string; message: string; param?: string },
): string {
  const fill = (value: string | undefined) => JSON.stringify(value ?? '').slice(1, -1);
  const text = profile.error
    .replaceAll('"{status}"', String(fields.status ?? 400))
    .replaceAll('{status}', String(fields.status ?? 400))
    .replaceAll('{reason}', fill(REASONS[fields.status ?? 400] ?? 'Error'))
    .replaceAll('{type}', fill(fields.type))
    .replaceAll('{code}', fill(fields.code))
    .replaceAll('{message}', fill(fields.message))
    .replaceAll('{param}', fill(fields.param));
  // A profile whose template is not JSON once filled still answers something a client can read.
  try {
    return JSON.stringify(JSON.parse(text), (_key, value) => (value === '' ? undefined : value));
  } catch {
    return JSON.stringify({ message: fields.message });
  }
}
