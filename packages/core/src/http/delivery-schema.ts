/**
 * The zod schemas of `/api/deliveries`, for the OpenAPI document. The request
 * itself is checked field by field by `parseDeliveryRequest` (each refusal with
 * its own code); these describe the same shapes.
 *
 * @module
 */
import { z } from 'zod';
import {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  MAX_DELIVERY_TIMEOUT_MS,
  MAX_RETRIES,
  TAMPER_MODES,
} from '../api/delivery-json.js';
import { onFirstUse } from '../cache/on-first-use.js';

/** The schemas of this module, built on their first use: a start that never uses them does not build them (docs/performance.md, "Ready"). */
export const deliverySchemas = onFirstUse(() => {
  const scheme = z
    .string()
    .describe('A registered scheme (GET /api/signature-schemes): the generic ones and those of the providers loaded.');
  const tamper = z.enum(TAMPER_MODES as [string, ...string[]]);
  const method = z.enum(['POST', 'PUT', 'PATCH']);

  /** The body of `POST /api/deliveries`. */
  const deliveryRequestSchema = z
    .object({
      url: z
        .string()
        .describe(
          'http(s) URL of the receiver: a loopback address unless the host is in MOCKPOINT_DELIVERY_ALLOW_HOSTS.',
        ),
      method: method.optional().describe('Default POST.'),
      data: z.unknown().optional().describe('A JSON value, sent as its exact text (application/json).'),
      body: z.string().optional().describe('Text, sent as its UTF-8 bytes.'),
      bodyBase64: z.string().optional().describe('Bytes in base64.'),
      headers: z.record(z.string(), z.string()).optional(),
      sign: z
        .object({
          scheme,
          secret: z
            .string()
            .describe('whsec_<base64> for standard; the secret text for the others. Never reported back.'),
          hmac: z
            .object({
              header: z.string(),
              algorithm: z.enum(['sha1', 'sha256', 'sha512']).optional(),
              encoding: z.enum(['hex', 'base64']).optional(),
              prefix: z.string().optional(),
            })
            .optional(),
          id: z
            .string()
            .optional()
            .describe("The delivery id, in the scheme's id header (webhook-id for standard); generated when absent."),
        })
        .optional(),
      retry: z
        .union([z.literal('standard'), z.object({ delaysMs: z.array(z.number().int().min(0)).max(MAX_RETRIES) })])
        .optional()
        .describe(
          'Retries after a failed first attempt; none by default. "standard": 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.',
        ),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .max(MAX_DELIVERY_TIMEOUT_MS)
        .optional()
        .describe(`Default ${DEFAULT_DELIVERY_TIMEOUT_MS}.`),
      tamper: tamper.optional().describe('Send a deliberately bad delivery (needs sign); never retried.'),
    })
    .strict();

  const attempt = z.object({
    n: z.number().int(),
    at: z.string(),
    durationMs: z.number(),
    status: z.number().int().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
    bodyTruncated: z.boolean().optional(),
    error: z
      .object({
        code: z.enum(['TIMEOUT', 'CONNECTION_REFUSED', 'CONNECTION_FAILED', 'REDIRECT_NOT_FOLLOWED', 'INTERRUPTED']),
        message: z.string(),
      })
      .optional(),
    tamper: tamper.optional(),
  });

  /** A delivery with its attempts. */
  const deliverySchema = z.object({
    id: z.string(),
    url: z.string(),
    method,
    state: z.enum(['pending', 'delivered', 'failed', 'cancelled', 'not-sent']),
    webhookId: z.string().optional(),
    sign: z.object({ scheme }).optional(),
    tamper: tamper.optional(),
    retry: z.object({ delaysMs: z.array(z.number().int()) }),
    timeoutMs: z.number().int(),
    bodyBytes: z.number().int(),
    createdAt: z.string(),
    nextAttemptAt: z.string().optional(),
    attempts: z.array(attempt),
    sending: z.object({ n: z.number().int(), at: z.string() }).optional(),
    outcome: z
      .object({
        code: z.enum(['DELIVERED', 'GONE', 'RETRIES_EXHAUSTED', 'CANCELLED', 'HOST_NOT_ALLOWED']),
        message: z.string(),
        hint: z.string().optional(),
      })
      .optional(),
  });

  const deliveryPageSchema = z.object({ deliveries: z.array(deliverySchema) });
  return { deliveryRequestSchema, deliverySchema, deliveryPageSchema };
});
