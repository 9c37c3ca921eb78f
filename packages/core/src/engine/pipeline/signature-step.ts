/**
 * The first step: a name that checks signatures has each request judged over
 * its exact bytes before anyone answers it, so the journal entry and the
 * filters of the queue and the routes see the outcome. With `enforce`, anything
 * but `valid` is answered `401 SIGNATURE_INVALID` (and journaled).
 *
 * @module
 */

import { errorAnswer } from '../../answer/endpoint-answer.js';
import { BY_NONE } from '../../journal/journal-entry.js';
import type { SignatureMark } from '../../signing/signature-settings.js';
import type { SignatureCheck } from '../../webhook/signature-check.js';
import type { Exchange } from './exchange.js';
import { after, type BodyReads, type Maybe, type Step, type Verdict } from './step.js';

function judge(exchange: Exchange, check: SignatureCheck): Maybe<Verdict | undefined> {
  const { replays, clock } = exchange.parts;
  // A timestamp is judged by the app's clock (docs/clock.md): a webhook signed "tomorrow" is on time tomorrow.
  const now = clock.real ? undefined : Math.floor(clock.now() / 1000);
  const mark = check.check(exchange.name, exchange.request, replays, exchange.wholeBody, now);
  return after(mark, check.enforce ? enforced : judged, exchange);
}

/** The request marked with the outcome; the next step answers. */
function judged(mark: SignatureMark, exchange: Exchange): undefined {
  exchange.request.signature = mark;
  return undefined;
}

/** The request marked with the outcome; anything but `valid` answered 401. */
function enforced(mark: SignatureMark, exchange: Exchange): Verdict | undefined {
  judged(mark, exchange);
  if (mark.status === 'valid') return undefined;
  const { name } = exchange;
  const answer = errorAnswer(
    401,
    'SIGNATURE_INVALID',
    `the ${mark.scheme} signature is ${mark.status}: ${mark.reason}. "${name}" enforces signatures (PUT /api/endpoints/${name}/signature); sign with one of its secrets, or set enforce: false to record without refusing`,
    { head: exchange.head, cors: true, details: { ...mark } },
  );
  return { answer, mark: BY_NONE };
}

const checkReads = (check: SignatureCheck | null): BodyReads => (check === null ? 'first-bytes' : 'whole-body');

export const signatureStep: Step = {
  name: 'signature check',
  passes: (parts, name) => parts.endpoints.compiled.get('signature', name) === null,
  // A signature is over the exact bytes: all of them.
  reads({ endpoints }, name) {
    const check = endpoints.compiled.get('signature', name);
    return check === undefined ? endpoints.compiled.read('signature', name).then(checkReads) : checkReads(check);
  },
  run(exchange) {
    // A call whose requests stream in (native gRPC's client streams) has no body to sign before it is
    // answered (engine/grpc-signature-rule.ts refuses an enforced check there): it is not judged.
    if (exchange.call !== undefined && exchange.call.info.body === undefined) return undefined;
    const { endpoints } = exchange.parts;
    // One synchronous Map lookup when the name is known to check no signatures.
    const check = endpoints.compiled.get('signature', exchange.name);
    if (check === null) return undefined;
    if (check !== undefined) return judge(exchange, check);
    return endpoints.compiled
      .read('signature', exchange.name)
      .then((loaded) => (loaded === null ? undefined : judge(exchange, loaded)));
  },
};
