/**
 * The one webhook signing module: signs outgoing deliveries and checks the
 * signatures of incoming requests, in each scheme of the one list
 * (signature-schemes.ts: the generic ones built in, a provider's added). Always
 * over the exact body bytes, through `node:crypto` or Web Crypto, comparing
 * without early exit.
 *
 * Replay detection needs memory of earlier ids, so it is not done here:
 * {@link VerifyResult.id} (and {@link deliveryId}) give the id a scheme
 * identifies a delivery by, for whoever keeps that memory.
 *
 * @module
 */

import { concatBytes } from '../codec/concat-bytes.js';
import { MockpointError } from '../registry/errors.js';
import { hexSpells, hmac, latin1Equal, latin1Text, macNow, utf8Bytes } from './hmac.js';
import {
  type HeaderReader,
  type HmacSchemeOptions,
  quote,
  type MacPlan as SchemeMacPlan,
  type SchemeSettings,
  type SignatureSchemeDefinition,
  schemeNames,
  signatureScheme,
} from './signature-schemes.js';

export type { HeaderReader, HmacSchemeOptions } from './signature-schemes.js';

/** A scheme's name: one of the registered schemes (signature-schemes.ts), built in or a provider's. */
export type SignatureScheme = string;

/** The outcome of a check. `replayed` is decided by the caller, from {@link VerifyResult.id}. */
export type SignatureStatus = 'valid' | 'invalid' | 'missing' | 'stale';

/** What both operations share. */
interface SchemeOptions {
  /** The scheme, one registered (signature-schemes.ts); an unknown one throws `UNKNOWN_SIGNATURE_SCHEME`. */
  scheme: SignatureScheme;
  /** Settings of the `hmac` scheme (required for it, ignored by the others). */
  hmac?: HmacSchemeOptions;
  /** The exact bytes of the body as sent or received. */
  body: Uint8Array;
}

/** Options of {@link signWebhook}. */
export interface SignOptions extends SchemeOptions {
  /**
   * The signing secret: `whsec_<base64>` (or bare base64) for `standard`; for the
   * others the secret text itself (a Stripe `whsec_…` is used as it is written).
   */
  secret: string;
  /** The delivery id (`webhook-id` for `standard`, `X-GitHub-Delivery` for `github`). @default a fresh `msg_…` id for `standard`, none for the others */
  id?: string;
  /** Unix time in seconds written into the signature. @default the current time */
  timestamp?: number;
}

/** Options of {@link verifyWebhook}. */
export interface VerifyOptions extends SchemeOptions {
  /** The secret, or several (key rotation: any one may have signed). */
  secret?: string;
  /** Several secrets, any of which may have signed. Used together with `secret`. */
  secrets?: readonly string[];
  /** The request headers (names in any case). */
  headers: Headers | Readonly<Record<string, string | undefined>>;
  /** Unix time in seconds to judge the timestamp against. @default the current time */
  now?: number;
  /** How far (seconds) a timestamp may be from `now`, either way. @default 300 */
  toleranceSec?: number;
}

/** The result of {@link verifyWebhook}. */
export interface VerifyResult {
  status: SignatureStatus;
  /** What was found or what differed, for a person; never a secret. */
  reason: string;
  /** The id the scheme identifies the delivery by (for replay detection), if the request carries one. */
  id: string | undefined;
  /**
   * On a valid result of {@link WebhookVerifier.verify} (never of {@link verifyWebhook}), the MAC of what was verified under the first secret (as
   * `latin1` text, whichever secret matched): for schemes that send no id (Stripe,
   * Slack) it names the delivery for replay detection. It covers the timestamp and
   * the body, and not how the signature was spelled (hex case, other entries beside it).
   */
  verified?: string;
}

/** The default of {@link VerifyOptions.toleranceSec}. */
export const DEFAULT_TOLERANCE_SEC = 300;

/** The id a request carries for the scheme (`webhook-id`/`svix-id`, `X-GitHub-Delivery`), for replay detection. */
export function deliveryId(scheme: SignatureScheme, headers: VerifyOptions['headers']): string | undefined {
  return readDeliveryId(checkScheme(scheme), (name) => header(headers, name));
}

function readDeliveryId(scheme: SignatureSchemeDefinition, header: HeaderReader): string | undefined {
  for (const name of scheme.idHeaders ?? []) {
    const value = header(name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The headers that sign `body` under the scheme (names in lower case). */
export async function signWebhook(options: SignOptions): Promise<Record<string, string>> {
  const scheme = checkScheme(options.scheme);
  const key = secretKey(scheme, options.secret);
  const timestamp = checkSeconds(options.timestamp ?? Math.floor(Date.now() / 1000), 'timestamp');
  const { body } = options;
  return scheme.sign({
    mac: (algorithm, prefix) => hmac(algorithm, key, prefix === '' ? body : concatBytes([utf8Bytes(prefix), body])),
    id: options.id,
    timestamp,
    settings: scheme.settings?.(options.hmac),
  });
}

/**
 * Throws the {@link MockpointError} signing would throw for these settings (an
 * unknown scheme, a secret that does not decode, bad `hmac` settings), without
 * signing anything: the same judge, synchronously (a mock file is checked so).
 */
export function checkSigningSettings(options: Pick<SignOptions, 'scheme' | 'secret' | 'hmac'>): void {
  const scheme = checkScheme(options.scheme);
  secretKey(scheme, options.secret);
  scheme.settings?.(options.hmac);
}

/**
 * Checks the signature a request carries. Bad settings (unknown scheme, a secret
 * that does not decode, bad `hmac` settings) throw a {@link MockpointError};
 * anything wrong with the request itself is a result, never a throw.
 */
export async function verifyWebhook(options: VerifyOptions): Promise<VerifyResult> {
  const verifier = new WebhookVerifier(options);
  const now = checkSeconds(options.now ?? Math.floor(Date.now() / 1000), 'now');
  const { headers } = options;
  // `verified` (a MAC under the first secret) stays inside: the replay memory's business.
  const { status, reason, id } = await verifier.verify((name) => header(headers, name), options.body, now);
  return { status, reason, id };
}

/** The settings of a {@link WebhookVerifier}: {@link VerifyOptions} without the request. */
export type VerifierOptions = Omit<VerifyOptions, 'headers' | 'body' | 'now'>;

/** What is left to do once the headers are read, with the delivery id the request carries. */
interface MacPlan extends SchemeMacPlan {
  /** The delivery id the request carries, if any. */
  id: string | undefined;
}

/**
 * The check of one scheme with its secrets, settings validated and secrets
 * decoded once: {@link WebhookVerifier.verify} per request. Where the runtime has
 * `node:crypto` it answers synchronously (no promise on the webhook POST path);
 * elsewhere through `crypto.subtle`, with a promise.
 */
export class WebhookVerifier {
  readonly scheme: SignatureScheme;
  readonly #definition: SignatureSchemeDefinition;
  readonly #keys: Uint8Array[];
  readonly #tolerance: number;
  readonly #settings: SchemeSettings | undefined;
  /** The reason of a valid result by the index of the secret that matched: for schemes with a timestamp, and without (made once, not per request). */
  readonly #signatureMatches: string[];
  /** Those of a scheme without a timestamp, which name the header (`X-Hub-Signature-256 matches`): made on the first valid request, again only if the header's name changes. */
  #headerMatches: { what: string; reasons: string[] } | undefined;
  readonly #notes: string[];

  /** Throws a {@link MockpointError} for bad settings (see {@link verifyWebhook}). */
  constructor(options: VerifierOptions) {
    const scheme = checkScheme(options.scheme);
    const secrets = [...(options.secret === undefined ? [] : [options.secret]), ...(options.secrets ?? [])];
    if (secrets.length === 0)
      throw new MockpointError('INVALID_SIGNATURE_SECRET', 'give a secret (or secrets) to check signatures with');
    this.scheme = scheme.name;
    this.#definition = scheme;
    this.#keys = secrets.map((secret) => secretKey(scheme, secret));
    this.#tolerance = checkSeconds(options.toleranceSec ?? DEFAULT_TOLERANCE_SEC, 'toleranceSec');
    this.#settings = scheme.settings?.(options.hmac);
    const notes = this.#keys.map((_, i) => secretNote(i, this.#keys.length));
    this.#notes = notes;
    this.#signatureMatches = notes.map((note) => `signature matches${note}`);
  }

  /**
   * Judges a request with these headers and exact body bytes at `now` (Unix
   * seconds; the current time, read only by schemes with a timestamp): a result
   * at once where `node:crypto` computes the MACs, else a promise.
   */
  verify(header: HeaderReader, body: Uint8Array, now?: number): VerifyResult | Promise<VerifyResult> {
    const plan = this.#plan(header);
    if ('status' in plan) return plan;
    const keys = this.#keys;
    let first: string | undefined;
    for (let i = 0; i < keys.length; i++) {
      const expected = macNow(plan.algorithm, keys[i] as Uint8Array, plan.prefix, body);
      if (expected === undefined) return this.#verifyLater(plan, body, now);
      first ??= expected;
      if (matchesAny(expected, plan)) return this.#judge(plan, i, first, body, now);
    }
    return this.#judge(plan, undefined, first, body, now);
  }

  async #verifyLater(plan: MacPlan, body: Uint8Array, now: number | undefined): Promise<VerifyResult> {
    const content = plan.prefix === '' ? body : concatBytes([utf8Bytes(plan.prefix), body]);
    let first: string | undefined;
    for (let i = 0; i < this.#keys.length; i++) {
      const expected = latin1Text(await hmac(plan.algorithm, this.#keys[i] as Uint8Array, content));
      first ??= expected;
      if (matchesAny(expected, plan)) return this.#judge(plan, i, first, body, now);
    }
    return this.#judge(plan, undefined, first, body, now);
  }

  /** The result once the index of the matching key (or none) is known; `first` is the MAC under the first key. */
  #judge(
    plan: MacPlan,
    match: number | undefined,
    first: string | undefined,
    body: Uint8Array,
    now: number | undefined,
  ): VerifyResult {
    const keyCount = this.#keys.length;
    const { id } = plan;
    if (match === undefined)
      return { status: 'invalid', reason: mismatch(plan.what, plan.candidates.length, keyCount, body), id };
    if (plan.seconds === undefined)
      return { status: 'valid', reason: this.#headerMatch(plan.what, match), id, verified: first };
    const age = (now ?? Math.floor(Date.now() / 1000)) - plan.seconds;
    const tolerance = this.#tolerance;
    if (Math.abs(age) > tolerance) {
      const when = age > 0 ? `${age} s old` : `${-age} s in the future`;
      return {
        status: 'stale',
        reason: `signature matches but ${plan.when} is ${when} (tolerance ${tolerance} s)`,
        id,
      };
    }
    return { status: 'valid', reason: this.#signatureMatches[match] as string, id, verified: first };
  }

  #headerMatch(what: string, match: number): string {
    if (this.#headerMatches?.what !== what)
      this.#headerMatches = { what, reasons: this.#notes.map((note) => `${what} matches${note}`) };
    return this.#headerMatches.reasons[match] as string;
  }

  /** Reads the scheme's headers: a result when they already decide it (missing, malformed), else what to compute. */
  #plan(header: HeaderReader): VerifyResult | MacPlan {
    const id = readDeliveryId(this.#definition, header);
    const read = this.#definition.read(header, this.#settings);
    if ('status' in read) return { status: read.status, reason: read.reason, id };
    return { ...read, id };
  }
}

/** True when the MAC (`latin1` text) equals one of the plan's candidates (each compared in constant time, all of them looked at). */
function matchesAny(expected: string, plan: MacPlan): boolean {
  const { candidates, hex, at } = plan;
  let found = false;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i];
    if (candidate !== undefined && (hex ? hexSpells(expected, candidate, at) : latin1Equal(expected, candidate)))
      found = true;
  }
  return found;
}

function secretNote(match: number, keyCount: number): string {
  return keyCount > 1 ? ` (secret ${match + 1} of ${keyCount})` : '';
}

function mismatch(what: string, signatures: number, secrets: number, body: Uint8Array): string {
  const sigs = signatures === 1 ? 'the signature does not match' : `none of ${signatures} signatures matches`;
  const keys = secrets === 1 ? 'the secret' : `any of ${secrets} secrets`;
  return `${what}: ${sigs} ${keys} over the ${body.length} body bytes received (body changed, or signed with another secret)`;
}

function checkScheme(scheme: unknown): SignatureSchemeDefinition {
  const found = signatureScheme(scheme);
  if (found !== undefined) return found;
  throw new MockpointError(
    'UNKNOWN_SIGNATURE_SCHEME',
    `unknown signature scheme ${typeof scheme === 'string' ? quote(scheme) : String(scheme)}: use one of ${schemeNames()}`,
  );
}

/** The HMAC key a secret stands for under the scheme. */
function secretKey(scheme: SignatureSchemeDefinition, secret: unknown): Uint8Array {
  if (typeof secret !== 'string' || secret === '') {
    throw new MockpointError('INVALID_SIGNATURE_SECRET', 'the signing secret must be a non-empty string');
  }
  // The same key bytes for the same secret, so `hmac` can reuse what it prepared for them.
  const cacheKey = scheme.key === undefined ? `\n${secret}` : `${scheme.name}\n${secret}`;
  let key = keyCache.get(cacheKey);
  if (key === undefined) {
    key = scheme.key === undefined ? utf8Bytes(secret) : scheme.key(secret);
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
    keyCache.set(cacheKey, key);
  }
  return key;
}

/** Secrets' key bytes by the scheme that decodes them (none: their UTF-8 bytes) and secret; cleared when full. */
const keyCache = new Map<string, Uint8Array>();
const KEY_CACHE_SIZE = 1000;

function checkSeconds(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new MockpointError('INVALID_SIGNATURE_OPTIONS', `${what} must be a whole number of seconds ≥ 0`);
  }
  return value;
}

function header(headers: VerifyOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // Own keys only: a header named `__proto__` or `constructor` is a header like any other.
  const direct = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (direct !== undefined) return direct;
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}
