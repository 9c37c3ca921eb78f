/**
 * The body limit, first of the pipeline: a request whose body came to more than
 * `MOCKPOINT_MAX_BODY_BYTES` (the adapter read no further and set
 * `bodyTooLarge`) is refused with `413` before any step reads it, so that no
 * step answers, stores or forwards the journal's first bytes as if they were
 * the body. The refusal is in the provider's form where there is one: a twin's
 * error JSON (Stripe's, GitHub's); an MCP route's JSON-RPC error is written by
 * MCP's edge (engine/mcp-edge.ts); anything else is mockpoint's own error.
 *
 * @module
 */
import { errorAnswer } from '../../answer/endpoint-answer.js';
import { BY_NONE, BY_TWIN } from '../../journal/journal-entry.js';
import type { TwinEngine } from '../../twin/twin-engine.js';
import type { Exchange } from './exchange.js';
import { after, FIRST_BYTES, type Maybe, type Step, type Verdict } from './step.js';
import { twinVerdict } from './twin-step.js';

/** What a body over the limit is told, naming the limit and the setting that raises it. */
function bodyTooLargeMessage(maxBytes: number): string {
  return `request body is larger than the limit of ${maxBytes} bytes (MOCKPOINT_MAX_BODY_BYTES); nothing of it was kept: send less, or raise --max-body-bytes`;
}

/** The refusal of `exchange`: in its twin's form when the name has one, else mockpoint's `BODY_TOO_LARGE`. */
function refused(engine: TwinEngine | null, exchange: Exchange): Verdict {
  const message = bodyTooLargeMessage(exchange.parts.maxBodyBytes);
  // The connection is closed after the answer: the rest of the body was not read.
  const close = { connection: 'close' };
  if (engine !== null) {
    const answer = engine.refuse({ status: 413, type: 'invalid_request_error', code: 'body_too_large', message });
    const verdict = twinVerdict(exchange, { ...answer, headers: { ...answer.headers, ...close } });
    return { ...verdict, mark: BY_TWIN };
  }
  const answer = errorAnswer(413, 'BODY_TOO_LARGE', message, { head: exchange.head, cors: true, extra: close });
  return { answer, mark: BY_NONE };
}

export const bodyLimitStep: Step = {
  name: 'body limit',
  answers: 'http',
  // Every request within the limit passes; one past it never takes the cached record's
  // shortcut (EndpointHandler.handle walks the pipeline for it).
  passes: () => true,
  reads: FIRST_BYTES,
  run(exchange): Maybe<Verdict | undefined> {
    if (exchange.request.bodyTooLarge !== true) return undefined;
    const twins = exchange.parts.twins;
    if (twins === undefined) return refused(null, exchange);
    const known = twins.peek(exchange.name);
    if (known !== undefined) return refused(known, exchange);
    return after(twins.engine(exchange.name), refused, exchange);
  },
};
