/**
 * The body of `POST /api/deliveries`, checked field by field into the delivery
 * to store. Every refusal has its own code, so a client can tell a bad URL from
 * a host that is not allowed, a bad retry list or a tamper without a signature.
 *
 * @module
 */

import {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  type DeliverySign,
  MAX_DELIVERY_TIMEOUT_MS,
  MAX_RETRIES,
  MAX_RETRY_SPAN_MS,
  STANDARD_RETRY_DELAYS_MS,
  TAMPER_MODES,
  type TamperMode,
} from '../api/delivery-json.js';
import { FORBIDDEN_HEADERS } from '../api/route.js';
import { fromBase64, toBase64 } from '../codec/base64.js';
import { HEADER_VALUE_RULE, headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { type ErrorCode, MockpointError } from '../registry/errors.js';
import { utf8Bytes } from '../signing/hmac.js';
import { signWebhook } from '../signing/signature.js';
import { signatureScheme, signatureSchemes } from '../signing/signature-schemes.js';
import { newDeliveryId, type StoredDelivery } from './delivery-store.js';
import { allowHint, deliveryUrl, hostRefusal } from './delivery-target.js';

/** What {@link parseDeliveryRequest} needs besides the body. */
export interface DeliveryRequestOptions {
  /** Hosts besides loopback that deliveries may target. */
  allowHosts: readonly string[];
  /** Largest body a delivery may send. */
  maxBodyBytes: number;
  /** Milliseconds since the epoch. */
  now: number;
  /**
   * A host not allowed is not refused: the delivery is kept as `not-sent`, with why and how to
   * allow it (a twin's webhooks, whose endpoints take every URL the provider takes). @default false
   */
  keepNotAllowed?: boolean;
}

const FIELDS = new Set([
  'url',
  'method',
  'data',
  'body',
  'bodyBase64',
  'headers',
  'sign',
  'retry',
  'timeoutMs',
  'tamper',
]);
const SIGN_FIELDS = new Set(['scheme', 'secret', 'hmac', 'id']);
const METHODS = new Set(['POST', 'PUT', 'PATCH']);

function refuse(code: ErrorCode, message: string): never {
  throw new MockpointError(code, message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the body of `POST /api/deliveries` (its top-level members as exact JSON
 * text, see `readJsonObjectBody`; `data` is sent as exactly that text) and
 * returns the new delivery, due now.
 */
export async function parseDeliveryRequest(
  members: ReadonlyMap<string, string>,
  options: DeliveryRequestOptions,
): Promise<StoredDelivery> {
  const unknown = [...members.keys()].filter((key) => !FIELDS.has(key));
  if (unknown.length > 0) {
    refuse('UNKNOWN_FIELD', `unknown field(s): ${unknown.join(', ')}; a delivery has ${[...FIELDS].join(', ')}`);
  }
  const field = (name: string): unknown => {
    const text = members.get(name);
    return text === undefined ? undefined : JSON.parse(text);
  };
  const target = deliveryUrl(field('url'));
  const notAllowed = hostRefusal(target, options.allowHosts);
  if (notAllowed !== undefined && options.keepNotAllowed !== true) refuse('DELIVERY_HOST_NOT_ALLOWED', notAllowed);
  const url = target.href;

  const method = field('method') ?? 'POST';
  if (typeof method !== 'string' || !METHODS.has(method))
    refuse('INVALID_DELIVERY', 'method must be POST, PUT or PATCH');

  const forms = ['data', 'body', 'bodyBase64'].filter((form) => members.has(form));
  if (forms.length > 1) refuse('INVALID_BODY', `give one of data, body and bodyBase64, not ${forms.join(' and ')}`);
  let bytes: Uint8Array = new Uint8Array(0);
  let contentType: string | undefined;
  if (members.has('data')) {
    // The exact text as sent: big integers, key order and all.
    bytes = utf8Bytes(members.get('data') as string);
    contentType = 'application/json';
  } else if (members.has('body')) {
    const body = field('body');
    if (typeof body !== 'string') refuse('INVALID_BODY', 'body must be a string (use data for JSON)');
    bytes = utf8Bytes(body);
    contentType = 'text/plain; charset=utf-8';
  } else if (members.has('bodyBase64')) {
    const decoded = fromBase64(String(field('bodyBase64')));
    if (decoded === undefined) refuse('INVALID_BODY', 'bodyBase64 is not base64 (A-Z a-z 0-9 + /, padded with =)');
    bytes = decoded;
    contentType = 'application/octet-stream';
  }
  if (bytes.length > options.maxBodyBytes) {
    refuse('BODY_TOO_LARGE', `the delivery body is ${bytes.length} bytes, more than the limit ${options.maxBodyBytes}`);
  }

  const headers = checkHeaders(field('headers'));
  if (contentType !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = contentType;
  }

  const sign = members.has('sign') ? await checkSign(field('sign')) : undefined;
  const tamper = checkTamper(field('tamper'), sign);
  const delaysMs = checkRetry(field('retry'));
  if (tamper !== undefined && delaysMs.length > 0) {
    refuse('INVALID_TAMPER', 'a tampered delivery is sent once (duplicate: twice) and never retried; leave retry out');
  }
  const timeoutMs = field('timeoutMs') ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || (timeoutMs as number) < 1 || (timeoutMs as number) > MAX_DELIVERY_TIMEOUT_MS) {
    refuse(
      'INVALID_DELIVERY_TIMEOUT',
      `timeoutMs must be a whole number of milliseconds from 1 to ${MAX_DELIVERY_TIMEOUT_MS}`,
    );
  }

  const delivery: StoredDelivery = {
    id: newDeliveryId(options.now),
    url,
    method: method as StoredDelivery['method'],
    headers,
    bodyBase64: toBase64(bytes),
    bodyBytes: bytes.length,
    delaysMs,
    timeoutMs: timeoutMs as number,
    createdAt: options.now,
    state: 'pending',
    nextAttemptAt: options.now,
    attempts: [],
    version: 1,
  };
  if (sign !== undefined) {
    delivery.sign = sign;
    const id = sign.id ?? signatureScheme(sign.scheme)?.freshId?.();
    if (id !== undefined) delivery.webhookId = id;
  }
  if (tamper !== undefined) delivery.tamper = tamper;
  if (notAllowed !== undefined) {
    // Never sent: finished as made, with why and what would have it sent.
    delivery.state = 'not-sent';
    delivery.nextAttemptAt = undefined;
    delivery.outcome = { code: 'HOST_NOT_ALLOWED', message: `not sent: ${notAllowed}`, hint: allowHint(target) };
  }
  return delivery;
}

function checkHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) refuse('INVALID_HEADER', 'headers must be an object of header names to string values');
  const headers: Record<string, string> = {};
  for (const [name, one] of Object.entries(value)) {
    const bad = headerNameProblem(name);
    if (bad !== undefined) refuse('INVALID_HEADER', bad);
    if (FORBIDDEN_HEADERS.has(name.toLowerCase()) || name.toLowerCase() === 'host') {
      refuse('INVALID_HEADER', `header ${name} is set by the sender (host, hop-by-hop or framing)`);
    }
    if (typeof one !== 'string') refuse('INVALID_HEADER', `header ${name} must be a string`);
    const problem = headerValueProblem(one);
    if (problem !== undefined) refuse('INVALID_HEADER', `header ${name} ${problem}`);
    headers[name] = one;
  }
  return headers;
}

async function checkSign(value: unknown): Promise<DeliverySign> {
  if (!isObject(value)) refuse('INVALID_DELIVERY', 'sign must be an object: { scheme, secret }');
  const unknown = Object.keys(value).filter((key) => !SIGN_FIELDS.has(key));
  if (unknown.length > 0)
    refuse('UNKNOWN_FIELD', `unknown field(s) in sign: ${unknown.join(', ')}; sign has scheme, secret, hmac and id`);
  // The id is sent as a header value (webhook-id, x-github-delivery).
  if (
    value.id !== undefined &&
    (typeof value.id !== 'string' || value.id === '' || headerValueProblem(value.id) !== undefined)
  ) {
    refuse('INVALID_DELIVERY', `sign.id must be a non-empty string that a header can carry: ${HEADER_VALUE_RULE}`);
  }
  const sign = value as unknown as DeliverySign;
  // Signing once checks the scheme, the secret and the hmac settings with the module's own codes.
  await signWebhook({
    scheme: sign.scheme,
    secret: sign.secret,
    hmac: sign.hmac,
    body: new Uint8Array(0),
    id: 'check',
  });
  const out: DeliverySign = { scheme: sign.scheme, secret: sign.secret };
  if (sign.hmac !== undefined) out.hmac = sign.hmac;
  if (sign.id !== undefined) out.id = sign.id;
  return out;
}

function checkTamper(value: unknown, sign: DeliverySign | undefined): TamperMode | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(TAMPER_MODES as readonly string[]).includes(value)) {
    refuse('INVALID_TAMPER', `tamper must be one of ${TAMPER_MODES.join(', ')}`);
  }
  if (sign === undefined) refuse('INVALID_TAMPER', 'tamper needs sign: a tampered delivery is a badly signed one');
  if (value === 'stale' && signatureScheme(sign.scheme)?.timed !== true) {
    const timed = signatureSchemes().filter((scheme) => scheme.timed);
    refuse(
      'INVALID_TAMPER',
      `tamper stale needs a scheme whose signature carries a timestamp (${timed.map((scheme) => scheme.name).join(', ')}), not ${sign.scheme}`,
    );
  }
  return value as TamperMode;
}

function checkRetry(value: unknown): number[] {
  if (value === undefined) return [];
  if (value === 'standard') return [...STANDARD_RETRY_DELAYS_MS];
  const rule = `retry must be "standard" or { "delaysMs": [...] } with at most ${MAX_RETRIES} whole numbers of milliseconds, ${MAX_RETRY_SPAN_MS / 3_600_000} h at most together`;
  if (!isObject(value) || Object.keys(value).some((key) => key !== 'delaysMs') || !Array.isArray(value.delaysMs)) {
    refuse('INVALID_RETRY', rule);
  }
  const delays = value.delaysMs as unknown[];
  if (delays.length > MAX_RETRIES) refuse('INVALID_RETRY', `${rule}; got ${delays.length} delays`);
  let total = 0;
  for (const delay of delays) {
    if (!Number.isInteger(delay) || (delay as number) < 0) refuse('INVALID_RETRY', rule);
    total += delay as number;
  }
  if (total > MAX_RETRY_SPAN_MS) refuse('INVALID_RETRY', `${rule}; these add up to ${total} ms`);
  return delays as number[];
}
