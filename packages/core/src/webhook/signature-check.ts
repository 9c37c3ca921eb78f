/**
 * The signature check of one endpoint name, ready for the read path: the stored
 * settings, and {@link SignatureCheck.check} that judges one recorded request
 * over its exact bytes (valid, invalid, missing, stale or replayed).
 *
 * @module
 */
import type { RecordedRequest } from '../journal/journal-entry.js';
import { JOURNAL_BODY_LIMIT } from '../wire/limits.js';
import type { SignatureMark, SignatureSettings } from '../wire/signature-settings.js';
import type { ReplayGuard } from './replay-guard.js';
import { deliveryId, type SignatureScheme, verifyWebhook } from './signature.js';

/** The headers whose value identifies a delivery of a scheme without an id header: the signature itself (with its timestamp). */
const SIGNATURE_AS_ID: Readonly<Record<string, string | undefined>> = {
  stripe: 'stripe-signature',
  slack: 'x-slack-signature',
};

/** The headers each scheme reads (the `hmac` scheme: its own). */
const SCHEME_HEADERS: Readonly<Record<SignatureScheme, readonly string[]>> = {
  standard: ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'svix-id', 'svix-timestamp', 'svix-signature'],
  stripe: ['stripe-signature'],
  github: ['x-hub-signature-256', 'x-hub-signature', 'x-github-delivery'],
  slack: ['x-slack-request-timestamp', 'x-slack-signature'],
  hmac: [],
};

export class SignatureCheck {
  readonly settings: SignatureSettings;
  /** The lower-case names of the headers the scheme reads: only these are looked at. */
  readonly #wanted: ReadonlySet<string>;

  constructor(settings: SignatureSettings) {
    this.settings = settings;
    const own = settings.hmac === undefined ? [] : [settings.hmac.header.toLowerCase()];
    this.#wanted = new Set([...SCHEME_HEADERS[settings.scheme], ...own]);
  }

  /** The headers the scheme reads, lower-cased names, repeated ones joined with `, ` (as the journal shows them). */
  #headers(rawHeaders: readonly string[]): Record<string, string> {
    const headers: Record<string, string> = Object.create(null);
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = (rawHeaders[i] as string).toLowerCase();
      if (!this.#wanted.has(name)) continue;
      const value = rawHeaders[i + 1] as string;
      const seen = headers[name];
      headers[name] = seen === undefined ? value : `${seen}, ${value}`;
    }
    return headers;
  }

  /** Whether a request whose signature is not valid is answered 401. */
  get enforce(): boolean {
    return this.settings.enforce;
  }

  /**
   * Judges `request` sent to `name`. A valid signature's delivery id (the
   * `webhook-id`/`svix-id`, `X-GitHub-Delivery`; for Stripe and Slack the signed
   * header itself, which holds its timestamp) is remembered in `replays` for the
   * tolerance; seen again within it, the request is `replayed`. The generic
   * `hmac` scheme carries no id or timestamp: it is never `replayed`.
   */
  async check(name: string, request: RecordedRequest, replays: ReplayGuard): Promise<SignatureMark> {
    const { scheme, secrets, toleranceSec, hmac } = this.settings;
    if (request.bodyTruncated) {
      return {
        scheme,
        status: 'invalid',
        reason: `the body is longer than the ${JOURNAL_BODY_LIMIT} bytes mockpoint keeps of a request, so its signature cannot be checked`,
      };
    }
    const headers = this.#headers(request.rawHeaders);
    const result = await verifyWebhook({ scheme, secrets, hmac, headers, body: request.body, toleranceSec });
    if (result.status !== 'valid') return { scheme, status: result.status, reason: result.reason };
    const asId = SIGNATURE_AS_ID[scheme];
    const id = asId === undefined ? deliveryId(scheme, headers) : headers[asId];
    if (id !== undefined && (await replays.seen(`${name}\n${scheme}\n${id}`, toleranceSec))) {
      const what = asId === undefined ? `delivery id ${JSON.stringify(id)}` : 'the same signature and timestamp';
      return {
        scheme,
        status: 'replayed',
        reason: `signature matches, but ${what} arrived before within the last ${toleranceSec} s (a replayed delivery)`,
      };
    }
    return { scheme, status: 'valid', reason: result.reason };
  }
}
