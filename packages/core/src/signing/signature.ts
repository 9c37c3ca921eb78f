/**
 * The one webhook signing module: signs outgoing deliveries and checks the
 * signatures of incoming requests, for Standard Webhooks (and Svix), Stripe,
 * GitHub, Slack and a generic HMAC header. Always over the exact body bytes,
 * through Web Crypto, comparing without early exit.
 *
 * Replay detection needs memory of earlier ids, so it is not done here:
 * {@link VerifyResult.id} (and {@link deliveryId}) give the id a scheme
 * identifies a delivery by, for whoever keeps that memory.
 *
 * @module
 */

import { fromBase64, latin1FromBase64, toBase64 } from '../codec/base64.js';
import { concatBytes } from '../codec/concat-bytes.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { MockpointError } from '../registry/errors.js';
import {
  HMAC_ALGORITHMS,
  type HmacAlgorithm,
  hexSpells,
  hmac,
  latin1Equal,
  latin1Text,
  macNow,
  toHex,
  utf8Bytes,
} from './hmac.js';

/** The signature schemes mockpoint knows. */
export const SIGNATURE_SCHEMES = ['standard', 'stripe', 'github', 'slack', 'hmac'] as const;

/** One of {@link SIGNATURE_SCHEMES}. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** Schemes whose signature carries a timestamp (so `stale` applies, and a replay turns stale in time). */
export const TIMED_SCHEMES: ReadonlySet<SignatureScheme> = new Set<SignatureScheme>(['standard', 'stripe', 'slack']);

/** The outcome of a check. `replayed` is decided by the caller, from {@link VerifyResult.id}. */
export type SignatureStatus = 'valid' | 'invalid' | 'missing' | 'stale';

/** The settings of the generic `hmac` scheme. */
export interface HmacSchemeOptions {
  /** The header carrying the signature, e.g. `X-Signature`. */
  header: string;
  /** The hash function. @default 'sha256' */
  algorithm?: HmacAlgorithm;
  /** How the signature is written. @default 'hex' */
  encoding?: 'hex' | 'base64';
  /** Text before the encoded signature, e.g. `sha256=`. @default '' */
  prefix?: string;
}

/** What both operations share. */
interface SchemeOptions {
  /** The scheme; an unknown one throws `UNKNOWN_SIGNATURE_SCHEME`. */
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

/** GitHub's signature header, as a reason names it. */
const GITHUB_HEADER = 'X-Hub-Signature-256';

/** The header each scheme carries its delivery id in, if it has one. */
const ID_HEADERS: Readonly<Record<SignatureScheme, readonly string[]>> = {
  standard: ['webhook-id', 'svix-id'],
  stripe: [],
  github: ['x-github-delivery'],
  slack: [],
  hmac: [],
};

/** The id a request carries for the scheme (`webhook-id`/`svix-id`, `X-GitHub-Delivery`), for replay detection. */
export function deliveryId(scheme: SignatureScheme, headers: VerifyOptions['headers']): string | undefined {
  return readDeliveryId(checkScheme(scheme), (name) => header(headers, name));
}

function readDeliveryId(scheme: SignatureScheme, header: HeaderReader): string | undefined {
  for (const name of ID_HEADERS[scheme]) {
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
  switch (scheme) {
    case 'standard': {
      const id = options.id ?? freshId();
      const mac = await hmac('sha256', key, standardContent(id, String(timestamp), body));
      return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${toBase64(mac)}` };
    }
    case 'stripe': {
      const mac = await hmac('sha256', key, concatBytes([utf8Bytes(`${timestamp}.`), body]));
      return { 'stripe-signature': `t=${timestamp},v1=${toHex(mac)}` };
    }
    case 'github': {
      // GitHub still sends the SHA-1 `X-Hub-Signature` beside it, for the integrations that read it.
      const headers: Record<string, string> = {
        'x-hub-signature-256': `sha256=${toHex(await hmac('sha256', key, body))}`,
        'x-hub-signature': `sha1=${toHex(await hmac('sha1', key, body))}`,
      };
      if (options.id !== undefined) headers['x-github-delivery'] = options.id;
      return headers;
    }
    case 'slack': {
      const mac = await hmac('sha256', key, concatBytes([utf8Bytes(`v0:${timestamp}:`), body]));
      return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${toHex(mac)}` };
    }
    case 'hmac': {
      const settings = hmacSettings(options.hmac);
      const mac = await hmac(settings.algorithm, key, body);
      const encoded = settings.encoding === 'hex' ? toHex(mac) : toBase64(mac);
      return { [settings.header]: `${settings.prefix}${encoded}` };
    }
  }
}

/**
 * Throws the {@link MockpointError} signing would throw for these settings (an
 * unknown scheme, a secret that does not decode, bad `hmac` settings), without
 * signing anything: the same judge, synchronously (a mock file is checked so).
 */
export function checkSigningSettings(options: Pick<SignOptions, 'scheme' | 'secret' | 'hmac'>): void {
  const scheme = checkScheme(options.scheme);
  secretKey(scheme, options.secret);
  if (scheme === 'hmac') hmacSettings(options.hmac);
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

/** A request header by its lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** What is left to do once the headers are read: a MAC per key over `prefix` + body, compared with `candidates`. */
interface MacPlan {
  algorithm: HmacAlgorithm;
  /** The text signed before the body (`id.timestamp.`, `t.`, `v0:ts:` or nothing). */
  prefix: string;
  /**
   * The signatures sent: hex text as it came (compared digit by digit) when `hex`,
   * else the decoded bytes as `latin1` text (`undefined`: one that does not decode, never matching).
   */
  candidates: (string | undefined)[];
  hex: boolean;
  /** Where the hex digits start in each candidate (after `sha256=`, `v0=` or the `hmac` prefix). */
  at: number;
  /** The header the signatures came in, as a reason names it. */
  what: string;
  /** The signed timestamp (Unix seconds) and how a reason names it; `undefined` for schemes without one. */
  seconds: number | undefined;
  when: string;
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
  readonly #keys: Uint8Array[];
  readonly #tolerance: number;
  readonly #hmac: Required<HmacSchemeOptions> | undefined;
  /** The reason of a valid result by the index of the secret that matched: for schemes with a timestamp, and without (made once, not per request). */
  readonly #signatureMatches: string[];
  readonly #headerMatches: string[];

  /** Throws a {@link MockpointError} for bad settings (see {@link verifyWebhook}). */
  constructor(options: VerifierOptions) {
    const scheme = checkScheme(options.scheme);
    const secrets = [...(options.secret === undefined ? [] : [options.secret]), ...(options.secrets ?? [])];
    if (secrets.length === 0)
      throw new MockpointError('INVALID_SIGNATURE_SECRET', 'give a secret (or secrets) to check signatures with');
    this.scheme = scheme;
    this.#keys = secrets.map((secret) => secretKey(scheme, secret));
    this.#tolerance = checkSeconds(options.toleranceSec ?? DEFAULT_TOLERANCE_SEC, 'toleranceSec');
    this.#hmac = scheme === 'hmac' ? hmacSettings(options.hmac) : undefined;
    const notes = this.#keys.map((_, i) => secretNote(i, this.#keys.length));
    const header = this.#hmac === undefined ? GITHUB_HEADER : this.#hmac.header;
    this.#signatureMatches = notes.map((note) => `signature matches${note}`);
    this.#headerMatches = notes.map((note) => `${header} matches${note}`);
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
      return { status: 'valid', reason: this.#headerMatches[match] as string, id, verified: first };
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

  /** Reads the scheme's headers: a result when they already decide it (missing, malformed), else what to compute. */
  #plan(header: HeaderReader): VerifyResult | MacPlan {
    const { scheme } = this;
    const id = readDeliveryId(scheme, header);
    switch (scheme) {
      case 'standard': {
        const svix = header('webhook-signature') === undefined && header('svix-signature') !== undefined;
        const prefix = svix ? 'svix' : 'webhook';
        const names = [`${prefix}-id`, `${prefix}-timestamp`, `${prefix}-signature`];
        const [msgId, timestamp, signature] = names.map((name) => header(name));
        const absent = names.filter((_, i) => [msgId, timestamp, signature][i] === undefined);
        if (absent.length > 0) return { status: 'missing', reason: `no ${absent.join(', ')} header`, id };
        const seconds = parseSeconds(timestamp as string);
        if (seconds === undefined)
          return {
            status: 'invalid',
            reason: `${prefix}-timestamp ${quote(timestamp as string)} is not a Unix time in seconds`,
            id,
          };
        const candidates = (signature as string)
          .split(' ')
          .filter((entry) => entry.startsWith('v1,'))
          .map((entry) => latin1FromBase64(entry.slice(3)));
        if (candidates.length === 0) return { status: 'invalid', reason: `${prefix}-signature has no v1, entry`, id };
        return {
          algorithm: 'sha256',
          prefix: `${msgId}.${timestamp}.`,
          candidates,
          hex: false,
          at: 0,
          what: `${prefix}-signature`,
          seconds,
          when: `${prefix}-timestamp`,
          id,
        };
      }
      case 'stripe': {
        const value = header('stripe-signature');
        if (value === undefined) return { status: 'missing', reason: 'no Stripe-Signature header', id };
        const pairs = value.split(',').map((pair) => {
          const at = pair.indexOf('=');
          return at < 0 ? ['', pair] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        });
        const timestamp = pairs.find(([k]) => k === 't')?.[1];
        if (timestamp === undefined) return { status: 'invalid', reason: 'Stripe-Signature has no t= timestamp', id };
        const seconds = parseSeconds(timestamp);
        if (seconds === undefined)
          return {
            status: 'invalid',
            reason: `Stripe-Signature t=${quote(timestamp)} is not a Unix time in seconds`,
            id,
          };
        const candidates = pairs.filter(([k]) => k === 'v1').map(([, v]) => v as string);
        if (candidates.length === 0) return { status: 'invalid', reason: 'Stripe-Signature has no v1= signature', id };
        return {
          algorithm: 'sha256',
          prefix: `${timestamp}.`,
          candidates,
          hex: true,
          at: 0,
          what: 'Stripe-Signature',
          seconds,
          when: 'the Stripe-Signature timestamp',
          id,
        };
      }
      case 'github': {
        const value = header('x-hub-signature-256');
        if (value === undefined) {
          const legacy =
            header('x-hub-signature') === undefined ? '' : ' (only the SHA-1 X-Hub-Signature, which is not checked)';
          return { status: 'missing', reason: `no X-Hub-Signature-256 header${legacy}`, id };
        }
        if (!value.startsWith('sha256='))
          return { status: 'invalid', reason: 'X-Hub-Signature-256 does not start with sha256=', id };
        return {
          algorithm: 'sha256',
          prefix: '',
          candidates: [value],
          hex: true,
          at: 7,
          what: GITHUB_HEADER,
          seconds: undefined,
          when: '',
          id,
        };
      }
      case 'slack': {
        const timestamp = header('x-slack-request-timestamp');
        const value = header('x-slack-signature');
        const absent = [
          ...(value === undefined ? ['X-Slack-Signature'] : []),
          ...(timestamp === undefined ? ['X-Slack-Request-Timestamp'] : []),
        ];
        if (value === undefined || timestamp === undefined)
          return { status: 'missing', reason: `no ${absent.join(', ')} header`, id };
        const seconds = parseSeconds(timestamp);
        if (seconds === undefined)
          return {
            status: 'invalid',
            reason: `X-Slack-Request-Timestamp ${quote(timestamp)} is not a Unix time in seconds`,
            id,
          };
        if (!value.startsWith('v0='))
          return { status: 'invalid', reason: 'X-Slack-Signature does not start with v0=', id };
        return {
          algorithm: 'sha256',
          prefix: `v0:${timestamp}:`,
          candidates: [value],
          hex: true,
          at: 3,
          what: 'X-Slack-Signature',
          seconds,
          when: 'X-Slack-Request-Timestamp',
          id,
        };
      }
      case 'hmac': {
        const { header: name, algorithm, encoding, prefix } = this.#hmac as Required<HmacSchemeOptions>;
        const value = header(name);
        if (value === undefined) return { status: 'missing', reason: `no ${name} header`, id };
        if (!value.startsWith(prefix))
          return { status: 'invalid', reason: `${name} does not start with ${quote(prefix)}`, id };
        return {
          algorithm,
          prefix: '',
          candidates: [encoding === 'hex' ? value : latin1FromBase64(value.slice(prefix.length))],
          hex: encoding === 'hex',
          at: encoding === 'hex' ? prefix.length : 0,
          what: name,
          seconds: undefined,
          when: '',
          id,
        };
      }
    }
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

function standardContent(id: string, timestamp: string, body: Uint8Array): Uint8Array {
  return concatBytes([utf8Bytes(`${id}.${timestamp}.`), body]);
}

function checkScheme(scheme: unknown): SignatureScheme {
  if (typeof scheme === 'string' && (SIGNATURE_SCHEMES as readonly string[]).includes(scheme))
    return scheme as SignatureScheme;
  throw new MockpointError(
    'UNKNOWN_SIGNATURE_SCHEME',
    `unknown signature scheme ${typeof scheme === 'string' ? quote(scheme) : String(scheme)}: use one of ${SIGNATURE_SCHEMES.join(', ')}`,
  );
}

/** The HMAC key a secret stands for under the scheme. */
function secretKey(scheme: SignatureScheme, secret: unknown): Uint8Array {
  if (typeof secret !== 'string' || secret === '') {
    throw new MockpointError('INVALID_SIGNATURE_SECRET', 'the signing secret must be a non-empty string');
  }
  // The same key bytes for the same secret, so `hmac` can reuse what it prepared for them.
  const cacheKey = `${scheme === 'standard' ? 's' : 't'}${secret}`;
  let key = keyCache.get(cacheKey);
  if (key === undefined) {
    key = decodeSecret(scheme, secret);
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
    keyCache.set(cacheKey, key);
  }
  return key;
}

/** Secrets' key bytes by secret (and whether it is a `standard` one); cleared when full. */
const keyCache = new Map<string, Uint8Array>();
const KEY_CACHE_SIZE = 1000;

function decodeSecret(scheme: SignatureScheme, secret: string): Uint8Array {
  if (scheme !== 'standard') return utf8Bytes(secret);
  const encoded = secret.startsWith('whsec_') ? secret.slice(6) : secret;
  const key = fromBase64(encoded);
  if (key === undefined || key.length === 0) {
    throw new MockpointError(
      'INVALID_SIGNATURE_SECRET',
      'a standard (Standard Webhooks) secret must be whsec_ followed by base64 of the key bytes',
    );
  }
  return key;
}

function hmacSettings(options: HmacSchemeOptions | undefined): Required<HmacSchemeOptions> {
  const bad = (message: string) => new MockpointError('INVALID_SIGNATURE_OPTIONS', message);
  if (options === undefined || typeof options.header !== 'string' || headerNameProblem(options.header) !== undefined) {
    throw bad('the hmac scheme needs hmac.header, a valid HTTP header name (a token, not __proto__)');
  }
  const algorithm = options.algorithm ?? 'sha256';
  if (!Object.hasOwn(HMAC_ALGORITHMS, algorithm)) {
    throw bad(`hmac.algorithm ${quote(String(algorithm))} is not one of ${Object.keys(HMAC_ALGORITHMS).join(', ')}`);
  }
  const encoding = options.encoding ?? 'hex';
  if (encoding !== 'hex' && encoding !== 'base64')
    throw bad(`hmac.encoding ${quote(String(encoding))} is not hex or base64`);
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') throw bad('hmac.prefix must be a string');
  // The prefix starts the signature header's value when a delivery is signed.
  const problem = headerValueProblem(prefix);
  if (problem !== undefined) throw bad(`hmac.prefix ${problem}`);
  return { header: options.header.toLowerCase(), algorithm, encoding, prefix };
}

function checkSeconds(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new MockpointError('INVALID_SIGNATURE_OPTIONS', `${what} must be a whole number of seconds ≥ 0`);
  }
  return value;
}

function parseSeconds(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function header(headers: VerifyOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // Own keys only: a header named `__proto__` or `constructor` is a header like any other.
  const direct = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (direct !== undefined) return direct;
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

function freshId(): string {
  return `msg_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
