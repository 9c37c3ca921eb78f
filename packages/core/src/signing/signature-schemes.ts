/**
 * The one list of webhook signature schemes: each scheme is data — what it is called, whether it
 * signs a timestamp, the headers it carries its id and signature in, how a secret becomes key
 * bytes — and two small functions, how it signs a body and how it reads a request's headers into
 * the MAC to compare. signature.ts signs and checks through this list and names no scheme;
 * outgoing deliveries (webhook/delivery-attempt.ts), the signature check of a name, the API's
 * `GET /api/signature-schemes` and the page read it too.
 *
 * The generic schemes of webhooks are built in (below). A provider of twins with a scheme of its
 * own registers it (twin-provider.ts), and from then on it signs and checks as these do.
 *
 * @module
 */
import { fromBase64, latin1FromBase64, toBase64 } from '../codec/base64.js';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { MockpointError } from '../registry/errors.js';
import { HMAC_ALGORITHMS, type HmacAlgorithm, toHex } from './hmac.js';

/** A request header by its lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

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

/** A scheme's settings, checked and filled in (only the `hmac` scheme has any). */
export type SchemeSettings = Required<HmacSchemeOptions>;

/** What is left to do once a request's headers are read: a MAC per key over `prefix` + body, compared with `candidates`. */
export interface MacPlan {
  algorithm: HmacAlgorithm;
  /** The text signed before the body (`id.timestamp.`, `t.` or nothing). */
  prefix: string;
  /**
   * The signatures sent: hex text as it came (compared digit by digit) when `hex`,
   * else the decoded bytes as `latin1` text (`undefined`: one that does not decode, never matching).
   */
  candidates: (string | undefined)[];
  hex: boolean;
  /** Where the hex digits start in each candidate (after a prefix such as `sha256=`). */
  at: number;
  /** The header the signatures came in, as a reason names it. */
  what: string;
  /** The signed timestamp (Unix seconds) and how a reason names it; `undefined` for schemes without one. */
  seconds: number | undefined;
  when: string;
}

/** A request its headers already judge: no signature (`missing`) or one that cannot be right (`invalid`). */
export interface HeaderVerdict {
  status: 'missing' | 'invalid';
  reason: string;
}

/** What {@link SignatureSchemeDefinition.sign} is given. */
export interface SchemeSignInput {
  /** The MAC of `prefix` (UTF-8) followed by the body, under the secret's key. */
  mac(algorithm: HmacAlgorithm, prefix: string): Promise<Uint8Array>;
  /** The delivery's id, if it has one. */
  id: string | undefined;
  /** Unix time in seconds to sign. */
  timestamp: number;
  /** The scheme's settings, when it takes any. */
  settings: SchemeSettings | undefined;
}

/** One signature scheme: registered once, read by signing, checking, deliveries, the API and the page. */
export interface SignatureSchemeDefinition {
  /** What a delivery's `sign.scheme` and a signature check's `scheme` name it by. */
  name: string;
  /** What the page shows beside the name. */
  title: string;
  /** Its signature carries a timestamp (so `stale` applies, and a replay turns stale in time). */
  timed: boolean;
  /** The headers a request carries its delivery id in, lower case, the first found wins. @default none */
  idHeaders?: readonly string[];
  /** A delivery's id when its `sign.id` is not given. @default none */
  freshId?(): string;
  /** The key bytes of a secret; throws `INVALID_SIGNATURE_SECRET` for one that does not decode. @default its UTF-8 bytes */
  key?(secret: string): Uint8Array;
  /** Checks and fills in the scheme's settings (`hmac`); a scheme without this takes none. */
  settings?(options: HmacSchemeOptions | undefined): SchemeSettings;
  /** The headers (lower case) a `tamper: "signature"` send changes one character of: the signature's, first. */
  signatureHeaders(settings: SchemeSettings | undefined): readonly string[];
  /** Delivery ids seen are remembered, to mark a replay. @default true */
  replays?: boolean;
  /** What a secret looks like, for the page and the API. @default the secret text */
  secretHint?: string;
  /** The headers that sign a body (names in lower case). */
  sign(input: SchemeSignInput): Promise<Record<string, string>>;
  /** A request's headers read: a verdict when they already decide it, else what to compute and compare. */
  read(header: HeaderReader, settings: SchemeSettings | undefined): HeaderVerdict | MacPlan;
}

/** The schemes by name, in the order they were registered. */
const SCHEMES = new Map<string, SignatureSchemeDefinition>();

/** Adds a scheme (a later one of the same name replaces it: a provider loaded again). */
export function registerSignatureScheme(scheme: SignatureSchemeDefinition): void {
  SCHEMES.set(scheme.name, scheme);
}

/** The scheme of that name, if one is registered. */
export function signatureScheme(name: unknown): SignatureSchemeDefinition | undefined {
  return typeof name === 'string' ? SCHEMES.get(name) : undefined;
}

/** Every registered scheme, the built-in ones first. */
export function signatureSchemes(): SignatureSchemeDefinition[] {
  return [...SCHEMES.values()];
}

/** The names of every registered scheme, as a message lists them. */
export function schemeNames(): string {
  return [...SCHEMES.keys()].join(', ');
}

/** `text` JSON-quoted for a message, cut at 40 characters. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** A Unix time in whole seconds written as text, or `undefined`. */
function parseSeconds(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** A header's timestamp read: the seconds, or the verdict that it is none. */
function timestampOf(text: string, what: string): number | HeaderVerdict {
  const seconds = parseSeconds(text);
  return seconds ?? { status: 'invalid', reason: `${what} ${quote(text)} is not a Unix time in seconds` };
}

/** Standard Webhooks (and Svix, whose headers it reads too): `webhook-id`, `-timestamp`, `-signature: v1,<base64>`. */
const standard: SignatureSchemeDefinition = {
  name: 'standard',
  title: 'Standard Webhooks (and Svix)',
  timed: true,
  idHeaders: ['webhook-id', 'svix-id'],
  freshId: freshMessageId,
  secretHint: 'whsec_<base64>',
  key(secret) {
    const key = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    if (key === undefined || key.length === 0) {
      throw new MockpointError(
        'INVALID_SIGNATURE_SECRET',
        'a standard (Standard Webhooks) secret must be whsec_ followed by base64 of the key bytes',
      );
    }
    return key;
  },
  signatureHeaders: () => ['webhook-signature'],
  async sign({ mac, id = freshMessageId(), timestamp }) {
    const signature = toBase64(await mac('sha256', `${id}.${timestamp}.`));
    return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
  },
  read(header) {
    const svix = header('webhook-signature') === undefined && header('svix-signature') !== undefined;
    const prefix = svix ? 'svix' : 'webhook';
    const names = [`${prefix}-id`, `${prefix}-timestamp`, `${prefix}-signature`];
    const [msgId, timestamp, signature] = names.map((name) => header(name));
    const absent = names.filter((_, i) => [msgId, timestamp, signature][i] === undefined);
    if (absent.length > 0) return { status: 'missing', reason: `no ${absent.join(', ')} header` };
    const seconds = timestampOf(timestamp as string, `${prefix}-timestamp`);
    if (typeof seconds !== 'number') return seconds;
    const candidates = (signature as string)
      .split(' ')
      .filter((entry) => entry.startsWith('v1,'))
      .map((entry) => latin1FromBase64(entry.slice(3)));
    if (candidates.length === 0) return { status: 'invalid', reason: `${prefix}-signature has no v1, entry` };
    return {
      algorithm: 'sha256',
      prefix: `${msgId}.${timestamp}.`,
      candidates,
      hex: false,
      at: 0,
      what: `${prefix}-signature`,
      seconds,
      when: `${prefix}-timestamp`,
    };
  },
};

/** `Stripe-Signature: t=<seconds>,v1=<hex>` over `t.` and the body. */
const stripe: SignatureSchemeDefinition = {
  name: 'stripe',
  title: 'Stripe-Signature',
  timed: true,
  signatureHeaders: () => ['stripe-signature'],
  async sign({ mac, timestamp }) {
    return { 'stripe-signature': `t=${timestamp},v1=${toHex(await mac('sha256', `${timestamp}.`))}` };
  },
  read(header) {
    const value = header('stripe-signature');
    if (value === undefined) return { status: 'missing', reason: 'no Stripe-Signature header' };
    const pairs = value.split(',').map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? ['', pair] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    });
    const timestamp = pairs.find(([k]) => k === 't')?.[1];
    if (timestamp === undefined) return { status: 'invalid', reason: 'Stripe-Signature has no t= timestamp' };
    const seconds = parseSeconds(timestamp);
    if (seconds === undefined)
      return { status: 'invalid', reason: `Stripe-Signature t=${quote(timestamp)} is not a Unix time in seconds` };
    const candidates = pairs.filter(([k]) => k === 'v1').map(([, v]) => v as string);
    if (candidates.length === 0) return { status: 'invalid', reason: 'Stripe-Signature has no v1= signature' };
    return {
      algorithm: 'sha256',
      prefix: `${timestamp}.`,
      candidates,
      hex: true,
      at: 0,
      what: 'Stripe-Signature',
      seconds,
      when: 'the Stripe-Signature timestamp',
    };
  },
};

/** `X-Hub-Signature-256: sha256=<hex>` over the body, the delivery's id in `X-GitHub-Delivery`. */
const github: SignatureSchemeDefinition = {
  name: 'github',
  title: 'X-Hub-Signature-256',
  timed: false,
  idHeaders: ['x-github-delivery'],
  freshId: () => crypto.randomUUID(),
  // Its SHA-1 signature beside the SHA-256 one is made wrong too: no header of the send verifies.
  signatureHeaders: () => ['x-hub-signature-256', 'x-hub-signature'],
  async sign({ mac, id }) {
    // GitHub still sends the SHA-1 `X-Hub-Signature` beside it, for the integrations that read it.
    const headers: Record<string, string> = {
      'x-hub-signature-256': `sha256=${toHex(await mac('sha256', ''))}`,
      'x-hub-signature': `sha1=${toHex(await mac('sha1', ''))}`,
    };
    if (id !== undefined) headers['x-github-delivery'] = id;
    return headers;
  },
  read(header) {
    const value = header('x-hub-signature-256');
    if (value === undefined) {
      const legacy =
        header('x-hub-signature') === undefined ? '' : ' (only the SHA-1 X-Hub-Signature, which is not checked)';
      return { status: 'missing', reason: `no X-Hub-Signature-256 header${legacy}` };
    }
    if (!value.startsWith('sha256='))
      return { status: 'invalid', reason: 'X-Hub-Signature-256 does not start with sha256=' };
    const what = 'X-Hub-Signature-256';
    return {
      algorithm: 'sha256',
      prefix: '',
      candidates: [value],
      hex: true,
      at: 7,
      what,
      seconds: undefined,
      when: '',
    };
  },
};

/** `X-Slack-Signature: v0=<hex>` over `v0:<timestamp>:` and the body. */
const slack: SignatureSchemeDefinition = {
  name: 'slack',
  title: 'X-Slack-Signature',
  timed: true,
  signatureHeaders: () => ['x-slack-signature'],
  async sign({ mac, timestamp }) {
    const signature = toHex(await mac('sha256', `v0:${timestamp}:`));
    return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${signature}` };
  },
  read(header) {
    const timestamp = header('x-slack-request-timestamp');
    const value = header('x-slack-signature');
    const absent = [
      ...(value === undefined ? ['X-Slack-Signature'] : []),
      ...(timestamp === undefined ? ['X-Slack-Request-Timestamp'] : []),
    ];
    if (value === undefined || timestamp === undefined)
      return { status: 'missing', reason: `no ${absent.join(', ')} header` };
    const seconds = timestampOf(timestamp, 'X-Slack-Request-Timestamp');
    if (typeof seconds !== 'number') return seconds;
    if (!value.startsWith('v0=')) return { status: 'invalid', reason: 'X-Slack-Signature does not start with v0=' };
    return {
      algorithm: 'sha256',
      prefix: `v0:${timestamp}:`,
      candidates: [value],
      hex: true,
      at: 3,
      what: 'X-Slack-Signature',
      seconds,
      when: 'X-Slack-Request-Timestamp',
    };
  },
};

/** A generic HMAC of the body in one header, as its settings say (header, hash, encoding, prefix). */
const hmac: SignatureSchemeDefinition = {
  name: 'hmac',
  title: 'HMAC of the body in a header of your choice',
  timed: false,
  // It sends no id, and its MAC is no delivery's name: nothing to remember.
  replays: false,
  settings: hmacSettings,
  signatureHeaders: (settings) => [settings?.header ?? ''],
  async sign({ mac, settings }) {
    const { header, algorithm, encoding, prefix } = settings as SchemeSettings;
    const bytes = await mac(algorithm, '');
    return { [header]: `${prefix}${encoding === 'hex' ? toHex(bytes) : toBase64(bytes)}` };
  },
  read(header, settings) {
    const { header: name, algorithm, encoding, prefix } = settings as SchemeSettings;
    const value = header(name);
    if (value === undefined) return { status: 'missing', reason: `no ${name} header` };
    if (!value.startsWith(prefix)) return { status: 'invalid', reason: `${name} does not start with ${quote(prefix)}` };
    return {
      algorithm,
      prefix: '',
      candidates: [encoding === 'hex' ? value : latin1FromBase64(value.slice(prefix.length))],
      hex: encoding === 'hex',
      at: encoding === 'hex' ? prefix.length : 0,
      what: name,
      seconds: undefined,
      when: '',
    };
  },
};

function hmacSettings(options: HmacSchemeOptions | undefined): SchemeSettings {
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

function freshMessageId(): string {
  return `msg_${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
}

for (const scheme of [standard, stripe, github, slack, hmac]) registerSignatureScheme(scheme);
