/**
 * The answer pipeline's parts: a {@link Step} looks at one request's
 * {@link Exchange} and either passes (`undefined`) or gives the {@link Verdict};
 * {@link runSteps} asks each in order until one answers, then takes the verdict
 * back out through the steps it passed, innermost first, each acting on it
 * after the answer (`Step.after`: an onion, as hono's `compose` runs each
 * middleware around `await next()`): the chaos step adds its latency and
 * bandwidth there, the journal step records the request. Steps are synchronous
 * where the state they read is cached (a known endpoint is answered without a
 * Promise) and asynchronous where they must ask a store: the value-or-Promise
 * union lives here, in {@link after} and {@link runSteps}, and nowhere else.
 *
 * @module
 */

import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import type { Exchange, PipelineParts } from './exchange.js';

/** A value now, or once a store has answered. */
export type Maybe<T> = T | Promise<T>;

/**
 * What a step decided: the answer, and how the journal records the request
 * (`mark`, with `status` when it is not the answer's own, as for a fault that
 * sends no status line). Without `mark` the request is not journaled here (a
 * proxy route journals once its upstream has answered; a failure is not).
 */
export interface Verdict {
  readonly answer: EndpointAnswer;
  readonly mark?: AnswerMark;
  readonly status?: number;
}

/**
 * How much of a request's body a step reads for a name: `'whole-body'` (up to
 * the body limit: a signature over the exact bytes, a body match, a proxy that
 * forwards it) or only `'first-bytes'`, the journal's copy every request keeps.
 */
export type BodyReads = 'whole-body' | 'first-bytes';

/**
 * What a body is read for: a plain HTTP request (an MCP call's too), or a
 * gRPC-family call, which the steps select and render on its decoded messages
 * (engine/grpc-edge.ts `CallView`): only a step that reads a call's bytes as
 * sent (a signature check) needs them whole.
 */
export type ExchangeKind = 'request' | 'call';

/** One step of the pipeline: a signature check, the queue, validation, the routes, the record, not found. */
export interface Step {
  /** What it is, for the architecture table in docs/development.md and for debugging. */
  readonly name: string;
  /** The verdict, or `undefined` to let the next step decide. */
  run(exchange: Exchange): Maybe<Verdict | undefined>;
  /**
   * True when this step is known now (no lookup to wait for) to pass every request
   * to `name` (its `run` would give `undefined`): lets a cached plain record be
   * answered without walking the pipeline (EndpointHandler). Absent or `false`:
   * the request walks it.
   */
  passes?(parts: PipelineParts, name: string): boolean;
  /**
   * How much of the body this step reads for a `kind` of exchange to `name`,
   * given its settings (a Promise while they are looked up). Required, so that
   * no step's need is forgotten: the adapters keep a body whole exactly when a
   * step of the pipeline says so ({@link readsWholeBody}).
   */
  reads(parts: PipelineParts, name: string, kind: ExchangeKind): Maybe<BodyReads>;
  /**
   * `'http'`: it answers plain HTTP requests only (the record at the bare URL, a
   * twin's API, a GraphQL query, the 404 of no route, a request checked against
   * its route's schemas): a gRPC-family call walks the pipeline without it
   * (EndpointHandler.walkCall). Absent: every protocol's.
   */
  readonly answers?: 'http';
  /**
   * Acts on the verdict once it is given, by this step or one after it, on its
   * way back out (innermost first): the chaos step's latency and bandwidth, the
   * journal. A module-level function, so that a request allocates nothing for it.
   * Absent: the verdict passes out unchanged.
   */
  after?(verdict: Verdict, exchange: Exchange): Maybe<Verdict>;
}

/**
 * A protocol's form of the verdict (an MCP call's refusal as a JSON-RPC error,
 * engine/mcp-edge.ts), applied where the verdict is given, before any step's
 * {@link Step.after}: the after-work then sees the answer as it will be sent.
 */
export type VerdictForm = (verdict: Verdict, exchange: Exchange) => Maybe<Verdict>;

/** For a step that looks at no more than the journal's copy of any body. */
export const FIRST_BYTES = (): BodyReads => 'first-bytes';

/** A lookup that failed reads nothing more: the request will be answered with that failure. */
const readsNothingMore = (): BodyReads => 'first-bytes';

/**
 * Whether any of `steps` reads the whole body of a `kind` of exchange to `name`:
 * `true` as soon as one says so now; else, when some must look their settings
 * up, once they have. Derived from each step's {@link Step.reads}, never listed by hand.
 */
export function readsWholeBody(
  steps: readonly Step[],
  parts: PipelineParts,
  name: string,
  kind: ExchangeKind,
): Maybe<boolean> {
  const later: Promise<BodyReads>[] = [];
  for (const step of steps) {
    const reads = step.reads(parts, name, kind);
    if (reads === 'whole-body') return true;
    if (reads instanceof Promise) later.push(reads.catch(readsNothingMore));
  }
  if (later.length === 0) return false;
  return Promise.all(later).then((all) => all.includes('whole-body'));
}

/**
 * `next(value, exchange)` now when `value` is there, else once it is. `next` is
 * a module-level function, not a closure: a request allocates nothing for it.
 */
export function after<T, U>(
  value: Maybe<T>,
  next: (value: T, exchange: Exchange) => Maybe<U>,
  exchange: Exchange,
): Maybe<U> {
  return value instanceof Promise ? value.then((ready) => next(ready, exchange)) : next(value, exchange);
}

/**
 * Asks `steps` in order, from `from`, until one gives a verdict (the last step
 * always gives one); the verdict in the protocol's `form`, then back out
 * through each step's {@link Step.after}, from the one that gave it to the first.
 */
export function runSteps(steps: readonly Step[], exchange: Exchange, form?: VerdictForm, from = 0): Maybe<Verdict> {
  for (let i = from; i < steps.length; i++) {
    const verdict = (steps[i] as Step).run(exchange);
    if (verdict instanceof Promise) {
      return verdict.then((later) =>
        later === undefined ? runSteps(steps, exchange, form, i + 1) : outward(steps, i, later, exchange, form),
      );
    }
    if (verdict !== undefined) return outward(steps, i, verdict, exchange, form);
  }
  throw new Error(`mockpoint: no step of the answer pipeline answered ${exchange.request.target}`);
}

/** The verdict step `at` gave, in `form`, then out through the steps from `at` to the first. */
function outward(
  steps: readonly Step[],
  at: number,
  verdict: Verdict,
  exchange: Exchange,
  form: VerdictForm | undefined,
): Maybe<Verdict> {
  return unwind(steps, at, form === undefined ? verdict : form(verdict, exchange), exchange);
}

/** `verdict` through each step's {@link Step.after}, from `at` down to the first (a Promise only once one is). */
function unwind(steps: readonly Step[], at: number, verdict: Maybe<Verdict>, exchange: Exchange): Maybe<Verdict> {
  let out = verdict;
  for (let i = at; i >= 0; i--) {
    const step = steps[i] as Step;
    if (step.after === undefined) continue;
    if (out instanceof Promise) return out.then((ready) => unwind(steps, i, ready, exchange));
    out = step.after(out, exchange);
  }
  return out;
}
