/**
 * `GET /api/requests.pact?consumer=&provider=[&names=a,b][&secrets=true][&types=true]`: the
 * journal (every name, or those of `names`) as a Pact V4 consumer contract
 * ({@link pactContract}), from the oldest entry to the newest there was when
 * the export began. Read a page of entries at a time; a namespace's (a test
 * session's) is `/ns/{ns}/api/requests.pact`.
 *
 * @module
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { onFirstUse } from '../../cache/on-first-use.js';
import { JOURNAL_READ_PAGE, type NamedEntry } from '../../journal/journal.js';
import { pactContract } from '../../journal/pact-contract.js';
import { MockpointError } from '../../registry/errors.js';
import { VERSION } from '../../registry/version.js';
import type { AppContext } from '../context.js';
import { journalName } from './journal.js';
import { errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

const PARTY_RULE = 'consumer and provider are each 1-200 characters';
const party = onFirstUse(() => z.string().min(1).max(200));

const pactQuery = onFirstUse(() =>
  z.object({
    consumer: party().describe('The consumer’s name (the code under test), as the contract names it.'),
    provider: party().describe('The provider’s name (the API the mocks stand for).'),
    names: z.string().optional().describe('Only the requests to these names, comma-separated (default: every name).'),
    secrets: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: keep Authorization, Cookie, Set-Cookie and API-key headers (left out by default).'),
    types: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: JSON answers are checked by type, not value (a Pact type matcher on each JSON body).'),
  }),
);

const pactDocument = onFirstUse(() =>
  z
    .object({
      consumer: z.object({ name: z.string() }),
      provider: z.object({ name: z.string() }),
      interactions: z.array(z.record(z.string(), z.unknown())),
      metadata: z.object({
        pactSpecification: z.object({ version: z.literal('4.0') }),
        mockpoint: z.object({
          version: z.string(),
          leftOut: z.array(z.object({ what: z.string(), why: z.string() })),
        }),
      }),
    })
    .describe(
      'A Pact V4 consumer contract (docs/pact.md): one Synchronous/HTTP interaction per distinct request and answer; what was left out in metadata.mockpoint.leftOut.',
    ),
);

export function registerJournalPactRoutes(app: Hono, ctx: Pick<AppContext, 'describe' | 'journal' | 'schemas'>): void {
  const { journal, schemas } = ctx;

  app.get('/api/requests.pact', async (c) => {
    const parsed = pactQuery().safeParse(c.req.query());
    if (!parsed.success) {
      throw new MockpointError(
        'INVALID_QUERY',
        `${PARTY_RULE}; names a comma-separated list; secrets and types true or false`,
      );
    }
    const { consumer, provider, secrets, types } = parsed.data;
    const names = parsed.data.names
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map(journalName);
    const wanted = names === undefined || names.length === 0 ? undefined : new Set(names);
    // One name is read from its own journal; several (or all) from every name's, filtered.
    const one = wanted?.size === 1 ? (names?.[0] as string) : undefined;
    const entries: NamedEntry[] = [];
    let cursor = 0;
    let newest: number | undefined;
    let done = false;
    while (!done) {
      const since = await journal.since(cursor, one, JOURNAL_READ_PAGE);
      newest ??= since.newest;
      // Up to the newest entry there was when the export began: what arrives meanwhile is the next export's.
      for (const named of since.entries) {
        if (named.entry.id > newest) {
          done = true;
          break;
        }
        if (wanted === undefined || wanted.has(named.name)) entries.push(named);
        cursor = named.entry.id;
      }
      if (since.entries.length < JOURNAL_READ_PAGE) done = true;
    }
    const contract = pactContract(entries, {
      consumer,
      provider,
      secrets: secrets === 'true',
      types: types === 'true',
      version: VERSION,
    });
    return new Response(c.req.method === 'HEAD' ? null : contract.text, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': 'attachment; filename="pact.json"',
        'cache-control': 'no-store',
      },
    });
  });

  ctx.describe?.push({
    method: 'get',
    path: '/api/requests.pact',
    summary:
      'The request journal as a Pact V4 consumer contract: what the code under test sent and what the mocks answered, one interaction per distinct request and answer (every name, or those of names), for Pact’s verifier to check against the real provider. Secrets are left out unless secrets=true; what cannot be an interaction is listed in metadata.mockpoint.leftOut.',
    tag: 'journal',
    query: pactQuery(),
    responses: {
      200: { description: 'The Pact file (sent as an attachment).', schema: pactDocument() },
      ...errorResponses(schemas, REQUEST_ERRORS, STORE_ERRORS),
    },
  });
}
