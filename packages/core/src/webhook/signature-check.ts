/**
 * The signature check of one endpoint name, ready for the read path: the stored
 * settings, and {@link SignatureCheck.check} that judges one recorded request
 * over its exact bytes (valid, invalid, missing, stale or replayed).
 *
 * @module
 */

import { rawHeaderJoined } from '../codec/raw-headers.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import { type HeaderReader, type VerifyResult, WebhookVerifier } from '../signing/signature.js';
import { signatureScheme } from '../signing/signature-schemes.js';
import type { SignatureMark, SignatureSettings } from '../signing/signature-settings.js';
import type { ReplayGuard } from './replay-guard.js';

/**
 * How long the id of a delivery whose signature carries no timestamp (GitHub's
 * `X-GitHub-Delivery`) is remembered: a day, since such a replay never turns
 * `stale` (the in-process memory's bound on ids still applies).
 */
export const UNTIMED_ID_MEMORY_SEC = 86_400;

/** Valid marks kept per check at most (a verifier's valid reasons: one per secret, with and without a timestamp). */
const MAX_VALID_MARKS = 64;

/** Reads header `name` (lower case) from raw headers; repeated ones joined with `, ` (as the journal shows them). */
function rawHeaderReader(rawHeaders: readonly string[]): HeaderReader {
  return (name) => rawHeaderJoined(rawHeaders, name);
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
   * `X-GitHub-Delivery`; for Stripe and Slack the MAC that was verified, which
   * covers its timestamp) is remembered in `replays`; seen again while
   * remembered, the request is `replayed`. The generic `hmac` scheme carries no id
   * or timestamp: it is never `replayed`. Synchronous where the runtime has
   * `node:crypto` and the replay memory answers at once. `now`: the time a
   * signed timestamp is judged against, in seconds (the app's clock); default real time.
   */
  check(
    name: string,
    request: RecordedRequest,
    replays: ReplayGuard,
    wholeBody?: Uint8Array,
    now?: number,
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
    const result = this.#verifier.verify(rawHeaderReader(request.rawHeaders), wholeBody ?? request.body, now);
    return result instanceof Promise
      ? result.then((verified) => this.#replayed(name, verified, replays))
      : this.#replayed(name, result, replays);
  }

  /**
   * A valid result's delivery looked up in (and added to) the replay memory: by
   * its id where the scheme sends one, else (Stripe, Slack) by the MAC that was
   * verified, so a replay is known however its signature is spelled. Ids of a
   * scheme with a timestamp are remembered for the tolerance (a replay after it
   * is `stale`), others for {@link UNTIMED_ID_MEMORY_SEC}.
   */
  #replayed(name: string, result: VerifyResult, replays: ReplayGuard): SignatureMark | Promise<SignatureMark> {
    const { scheme, toleranceSec } = this.settings;
    if (result.status !== 'valid') return { scheme, status: result.status, reason: result.reason };
    const id = result.id;
    const key = id ?? result.verified;
    const valid = this.#valid(result.reason);
    const definition = signatureScheme(scheme);
    if (key === undefined || definition === undefined || definition.replays === false) return valid;
    const timed = definition.timed;
    const seen = replays.seen(`${name}\n${scheme}\n${key}`, timed ? toleranceSec : UNTIMED_ID_MEMORY_SEC);
    if (typeof seen === 'boolean') return seen ? this.#replay(id, timed) : valid;
    return seen.then((later) => (later ? this.#replay(id, timed) : valid));
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

  #replay(id: string | undefined, timed: boolean): SignatureMark {
    const { scheme, toleranceSec } = this.settings;
    const what = id === undefined ? 'the same signed timestamp and body' : `delivery id ${JSON.stringify(id)}`;
    const within = timed ? `${toleranceSec} s` : `${UNTIMED_ID_MEMORY_SEC / 3600} h`;
    return {
      scheme,
      status: 'replayed',
      reason: `signature matches, but ${what} arrived before within the last ${within} (a replayed delivery)`,
    };
  }
}
