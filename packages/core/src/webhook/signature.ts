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

import { MockpointError } from '../wire/errors.js';
import {
  concatBytes,
  constantTimeEqual,
  fromBase64,
  fromHex,
  HMAC_ALGORITHMS,
  type HmacAlgorithm,
  hmac,
  toBase64,
  toHex,
  utf8Bytes,
} from './hmac.js';

/** The signature schemes mockpoint knows. */
export const SIGNATURE_SCHEMES = ['standard', 'stripe', 'github', 'slack', 'hmac'] as const;

/** One of {@link SIGNATURE_SCHEMES}. */
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

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
}

/** The default of {@link VerifyOptions.toleranceSec}. */
export const DEFAULT_TOLERANCE_SEC = 300;

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
  for (const name of ID_HEADERS[checkScheme(scheme)]) {
    const value = header(headers, name);
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
      const mac = await hmac('sha256', key, concatBytes(utf8Bytes(`${timestamp}.`), body));
      return { 'stripe-signature': `t=${timestamp},v1=${toHex(mac)}` };
    }
    case 'github': {
      const headers: Record<string, string> = {
        'x-hub-signature-256': `sha256=${toHex(await hmac('sha256', key, body))}`,
      };
      if (options.id !== undefined) headers['x-github-delivery'] = options.id;
      return headers;
    }
    case 'slack': {
      const mac = await hmac('sha256', key, concatBytes(utf8Bytes(`v0:${timestamp}:`), body));
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
 * Checks the signature a request carries. Bad settings (unknown scheme, a secret
 * that does not decode, bad `hmac` settings) throw a {@link MockpointError};
 * anything wrong with the request itself is a result, never a throw.
 */
export async function verifyWebhook(options: VerifyOptions): Promise<VerifyResult> {
  const scheme = checkScheme(options.scheme);
  const secrets = [...(options.secret === undefined ? [] : [options.secret]), ...(options.secrets ?? [])];
  if (secrets.length === 0)
    throw new MockpointError('INVALID_SIGNATURE_SECRET', 'give a secret (or secrets) to check signatures with');
  const keys = secrets.map((secret) => secretKey(scheme, secret));
  const now = checkSeconds(options.now ?? Math.floor(Date.now() / 1000), 'now');
  const tolerance = checkSeconds(options.toleranceSec ?? DEFAULT_TOLERANCE_SEC, 'toleranceSec');
  const settings = scheme === 'hmac' ? hmacSettings(options.hmac) : undefined;
  const { headers, body } = options;
  const id = deliveryId(scheme, headers);
  const result = (status: SignatureStatus, reason: string): VerifyResult => ({ status, reason, id });

  switch (scheme) {
    case 'standard': {
      const svix =
        header(headers, 'webhook-signature') === undefined && header(headers, 'svix-signature') !== undefined;
      const prefix = svix ? 'svix' : 'webhook';
      const names = [`${prefix}-id`, `${prefix}-timestamp`, `${prefix}-signature`];
      const [msgId, timestamp, signature] = names.map((name) => header(headers, name));
      const absent = names.filter((_, i) => [msgId, timestamp, signature][i] === undefined);
      if (absent.length > 0) return result('missing', `no ${absent.join(', ')} header`);
      const seconds = parseSeconds(timestamp as string);
      if (seconds === undefined)
        return result('invalid', `${prefix}-timestamp ${quote(timestamp as string)} is not a Unix time in seconds`);
      const candidates = (signature as string)
        .split(' ')
        .filter((entry) => entry.startsWith('v1,'))
        .map((entry) => fromBase64(entry.slice(3)));
      if (candidates.length === 0) return result('invalid', `${prefix}-signature has no v1, entry`);
      const content = standardContent(msgId as string, timestamp as string, body);
      const match = await findMatch(keys, candidates, (key) => hmac('sha256', key, content));
      if (match === undefined)
        return result('invalid', mismatch(`${prefix}-signature`, candidates.length, keys.length, body));
      return judgeTime(result, seconds, now, tolerance, `${prefix}-timestamp`, match, keys.length);
    }
    case 'stripe': {
      const value = header(headers, 'stripe-signature');
      if (value === undefined) return result('missing', 'no Stripe-Signature header');
      const pairs = value.split(',').map((pair) => {
        const at = pair.indexOf('=');
        return at < 0 ? ['', pair] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      });
      const timestamp = pairs.find(([k]) => k === 't')?.[1];
      if (timestamp === undefined) return result('invalid', 'Stripe-Signature has no t= timestamp');
      const seconds = parseSeconds(timestamp);
      if (seconds === undefined)
        return result('invalid', `Stripe-Signature t=${quote(timestamp)} is not a Unix time in seconds`);
      const candidates = pairs.filter(([k]) => k === 'v1').map(([, v]) => fromHex(v as string));
      if (candidates.length === 0) return result('invalid', 'Stripe-Signature has no v1= signature');
      const content = concatBytes(utf8Bytes(`${timestamp}.`), body);
      const match = await findMatch(keys, candidates, (key) => hmac('sha256', key, content));
      if (match === undefined)
        return result('invalid', mismatch('Stripe-Signature', candidates.length, keys.length, body));
      return judgeTime(result, seconds, now, tolerance, 'the Stripe-Signature timestamp', match, keys.length);
    }
    case 'github': {
      const value = header(headers, 'x-hub-signature-256');
      if (value === undefined) {
        const legacy =
          header(headers, 'x-hub-signature') === undefined
            ? ''
            : ' (only the SHA-1 X-Hub-Signature, which is not checked)';
        return result('missing', `no X-Hub-Signature-256 header${legacy}`);
      }
      if (!value.startsWith('sha256=')) return result('invalid', 'X-Hub-Signature-256 does not start with sha256=');
      const match = await findMatch(keys, [fromHex(value.slice(7))], (key) => hmac('sha256', key, body));
      if (match === undefined) return result('invalid', mismatch('X-Hub-Signature-256', 1, keys.length, body));
      return result('valid', `X-Hub-Signature-256 matches${secretNote(match, keys.length)}`);
    }
    case 'slack': {
      const timestamp = header(headers, 'x-slack-request-timestamp');
      const value = header(headers, 'x-slack-signature');
      const absent = [
        ...(value === undefined ? ['X-Slack-Signature'] : []),
        ...(timestamp === undefined ? ['X-Slack-Request-Timestamp'] : []),
      ];
      if (value === undefined || timestamp === undefined) return result('missing', `no ${absent.join(', ')} header`);
      const seconds = parseSeconds(timestamp);
      if (seconds === undefined)
        return result('invalid', `X-Slack-Request-Timestamp ${quote(timestamp)} is not a Unix time in seconds`);
      if (!value.startsWith('v0=')) return result('invalid', 'X-Slack-Signature does not start with v0=');
      const content = concatBytes(utf8Bytes(`v0:${timestamp}:`), body);
      const match = await findMatch(keys, [fromHex(value.slice(3))], (key) => hmac('sha256', key, content));
      if (match === undefined) return result('invalid', mismatch('X-Slack-Signature', 1, keys.length, body));
      return judgeTime(result, seconds, now, tolerance, 'X-Slack-Request-Timestamp', match, keys.length);
    }
    case 'hmac': {
      const { header: name, algorithm, encoding, prefix } = settings as Required<HmacSchemeOptions>;
      const value = header(headers, name);
      if (value === undefined) return result('missing', `no ${name} header`);
      if (!value.startsWith(prefix)) return result('invalid', `${name} does not start with ${quote(prefix)}`);
      const encoded = value.slice(prefix.length);
      const candidate = encoding === 'hex' ? fromHex(encoded) : fromBase64(encoded);
      const match = await findMatch(keys, [candidate], (key) => hmac(algorithm, key, body));
      if (match === undefined) return result('invalid', mismatch(name, 1, keys.length, body));
      return result('valid', `${name} matches${secretNote(match, keys.length)}`);
    }
  }
}

/** The index of the first key whose MAC equals one of the candidates (each compared in constant time). */
async function findMatch(
  keys: Uint8Array[],
  candidates: (Uint8Array | undefined)[],
  mac: (key: Uint8Array) => Promise<Uint8Array>,
): Promise<number | undefined> {
  for (let i = 0; i < keys.length; i++) {
    const expected = await mac(keys[i] as Uint8Array);
    let found = false;
    for (const candidate of candidates)
      if (candidate !== undefined && constantTimeEqual(expected, candidate)) found = true;
    if (found) return i;
  }
  return undefined;
}

function judgeTime(
  result: (status: SignatureStatus, reason: string) => VerifyResult,
  seconds: number,
  now: number,
  tolerance: number,
  what: string,
  match: number,
  keyCount: number,
): VerifyResult {
  const age = now - seconds;
  if (Math.abs(age) > tolerance) {
    const when = age > 0 ? `${age} s old` : `${-age} s in the future`;
    return result('stale', `signature matches but ${what} is ${when} (tolerance ${tolerance} s)`);
  }
  return result('valid', `signature matches${secretNote(match, keyCount)}`);
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
  return concatBytes(utf8Bytes(`${id}.${timestamp}.`), body);
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

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function hmacSettings(options: HmacSchemeOptions | undefined): Required<HmacSchemeOptions> {
  const bad = (message: string) => new MockpointError('INVALID_SIGNATURE_OPTIONS', message);
  if (options === undefined || typeof options.header !== 'string' || !HEADER_NAME.test(options.header)) {
    throw bad('the hmac scheme needs hmac.header, a valid HTTP header name');
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
  const direct = headers[name];
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
