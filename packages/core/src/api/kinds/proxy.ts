/**
 * The proxy kind: forward the request to an upstream and answer with its
 * answer (routes only; see docs/files.md#record-and-replay).
 *
 * @module
 */

import { z } from 'zod';
import { onFirstUse } from '../../cache/on-first-use.js';
import { answerKind } from '../answer-kind.js';
import { checkProxyAnswer, MAX_PROXY_TIMEOUT_MS } from '../proxy-answer.js';

/** A proxy answer. */
function createProxySchema() {
  const headerNames = z.array(z.string());
  return z
    .strictObject({
      url: z
        .string()
        .describe(
          'The upstream, an absolute http(s) URL (no query, user or fragment); the subpath is appended and the query kept. Its host must be in MOCKPOINT_PROXY_ALLOW_HOSTS.',
        ),
      record: z
        .boolean()
        .optional()
        .describe('Keep each distinct request and its answer as a route before this one; default false.'),
      redact: headerNames
        .optional()
        .describe(
          'Headers left out of a recording (never written, never replayed), besides Authorization, Cookie, Set-Cookie and X-Api-Key.',
        ),
      matchHeaders: headerNames
        .optional()
        .describe("Request headers whose values join each recorded route's match; default none."),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .max(MAX_PROXY_TIMEOUT_MS)
        .optional()
        .describe('Milliseconds to wait for the upstream status and headers (504 UPSTREAM_TIMEOUT); default 30000.'),
    })
    .meta({
      title: 'ProxyAnswer',
      description: "Forward the request to an upstream and answer with the upstream's answer (routes only).",
    });
}

const proxySchema = onFirstUse(() => createProxySchema());

export const proxyKind = answerKind({
  key: 'proxy',
  noun: 'a proxy answer',
  code: 'INVALID_PROXY',
  schema: () => proxySchema(),
  describe: 'Forward to an upstream instead (the whole answer: no other field beside it).',
  readsBody: true,
  // checkProxyAnswer refuses what stands beside it, and queued answers.
  checkOrder: 5,
  check(answer, { at, list, limits, refuseItem }) {
    refuseItem();
    checkProxyAnswer(answer as Record<string, unknown>, `${list}[${at}].answer`, limits.proxyAllowHosts, at);
  },
  forms: { wiremock: false, mockoon: false },
});
