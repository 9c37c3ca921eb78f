/**
 * The signature check of one endpoint name, ready for the read path: the stored
 * settings, and {@link SignatureCheck.check} that judges one recorded request
 * over its exact bytes (valid, invalid, missing, stale or replayed).
 *
 * @module
 */
import type { RecordedRequest } from '../journal/journal-entry.js';
import type { SignatureMark, SignatureSettings } from '../wire/signature-settings.js';
import type { ReplayGuard } from './replay-guard.js';
import { type HeaderReader, type VerifyResult, WebhookVerifier } from './signature.js';

/** The headers whose value identifies a delivery of a scheme without an id header: the signature itself (with its timestamp). */
const SIGNATURE_AS_ID: Readonly<Record<string, string | undefined>> = {
  stripe: 'stripe-signature',
  slack: 'x-slack-signature',
};

/** Valid marks kept per check at most (a verifier's valid reasons: one per secret, with and without a timestamp). */
const MAX_VALID_MARKS = 64;

/**
 * Reads header `name` (lower case) from raw headers, without building a record
 * or lower-casing every name; repeated ones joined with `, ` (as the journal shows them).
 */
function rawHeaderReader(rawHeaders: readonly string[]): HeaderReader {
  return (name) => {
    let value: string | undefined;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      if (!sameName(rawHeaders[i] as string, name)) continue;
      const next = rawHeaders[i + 1] as string;
      value = value === undefined ? next : `${value}, ${next}`;
    }
    return value;
  };
}

/** Whether header name `raw` (any case) is `lower` (lower case). */
function sameName(raw: string, lower: string): boolean {
  if (raw.length !== lower.length) return false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    const l = lower.charCodeAt(i);
    if (c !== l && !(l >= 97 && l <= 122 && c === l - 32)) return false;
  }
  return true;
}

export class SignatureCheck {
  readonly settings: SignatureSettings;
  readonly #verifier: WebhookVerifier;
  readonly #validMarks = new Map<string, SignatureMark>();

  /** Throws a {@link MockpointError} when the settings are bad (as `PUT …/signature` does before storing them). */
  constructor(settings: SignatureSettings) {
    this.settings = settings;
    const { scheme, secrets, toleranceSec, hmac } = settings;
    this.#verifier = new WebhookVerifier({ scheme, secrets, toleranceSec, hmac });
  }

  /** Whether a request whose signature is not valid is answered 401. */
  get enforce(): boolean {
    return this.settings.enforce;
  }

  /**
   * Judges `request` sent to `name`, over `wholeBody` when the adapter kept the
   * whole of a body longer than the journal's copy (else over `request.body`).
   * A valid signature's delivery id (the `webhook-id`/`svix-id`,
   * `X-GitHub-Delivery`; for Stripe and Slack the signed header itself, which
   * holds its timestamp) is remembered in `replays` for the tolerance; seen again
   * within it, the request is `replayed`. The generic `hmac` scheme carries no id
   * or timestamp: it is never `replayed`. Synchronous where the runtime has
   * `node:crypto` and the replay memory answers at once.
   */
  check(
    name: string,
    request: RecordedRequest,
    replays: ReplayGuard,
    wholeBody?: Uint8Array,
  ): SignatureMark | Promise<SignatureMark> {
    const { scheme } = this.settings;
    if (request.bodyTruncated && wholeBody === undefined) {
      return {
        scheme,
        status: 'invalid',
        reason:
          'the body is longer than MOCKPOINT_MAX_BODY_BYTES, the most mockpoint reads of a request, so its signature cannot be checked',
      };
    }
    const headers = rawHeaderReader(request.rawHeaders);
    const result = this.#verifier.verify(headers, wholeBody ?? request.body);
    return result instanceof Promise
      ? result.then((verified) => this.#replayed(name, headers, verified, replays))
      : this.#replayed(name, headers, result, replays);
  }

  /** A valid result's delivery id looked up in (and added to) the replay memory. */
  #replayed(
    name: string,
    headers: HeaderReader,
    result: VerifyResult,
    replays: ReplayGuard,
  ): SignatureMark | Promise<SignatureMark> {
    const { scheme, toleranceSec } = this.settings;
    if (result.status !== 'valid') return { scheme, status: result.status, reason: result.reason };
    const asId = SIGNATURE_AS_ID[scheme];
    const id = asId === undefined ? result.id : headers(asId);
    const valid = this.#valid(result.reason);
    if (id === undefined) return valid;
    const seen = replays.seen(`${name}\n${scheme}\n${id}`, toleranceSec);
    if (typeof seen === 'boolean') return seen ? this.#replay(id, asId) : valid;
    return seen.then((later) => (later ? this.#replay(id, asId) : valid));
  }

  /**
   * The mark of a valid signature with this reason: one frozen object per reason
   * (a verifier has a few, made once), so a valid request allocates none.
   */
  #valid(reason: string): SignatureMark {
    let mark = this.#validMarks.get(reason);
    if (mark === undefined) {
      mark = Object.freeze({ scheme: this.settings.scheme, status: 'valid', reason });
      if (this.#validMarks.size < MAX_VALID_MARKS) this.#validMarks.set(reason, mark);
    }
    return mark;
  }

  #replay(id: string, asId: string | undefined): SignatureMark {
    const { scheme, toleranceSec } = this.settings;
    const what = asId === undefined ? `delivery id ${JSON.stringify(id)}` : 'the same signature and timestamp';
    return {
      scheme,
      status: 'replayed',
      reason: `signature matches, but ${what} arrived before within the last ${toleranceSec} s (a replayed delivery)`,
    };
  }
}
