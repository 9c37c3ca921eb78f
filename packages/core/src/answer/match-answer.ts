/**
 * The one dispatch over the kinds of {@link EndpointAnswer}: code that does
 * something per kind gives {@link matchAnswer} one function per kind (or some
 * and an `otherwise`), so a new kind is one new case here and a compile error
 * wherever a full set of cases misses it. Nothing outside `answer/` compares an
 * answer's `kind` (`layers.test.ts`'s neighbour `answer-kinds.test.ts` counts).
 *
 * The cases are made once by `answerCases` (a module's constant), and up to
 * two values ride along to them (`a`, `b`), so dispatching allocates nothing:
 * a cached GET goes through it.
 *
 * @module
 */
import type { AnswerHeaderMap, EndpointAnswer } from './endpoint-answer.js';

/** The kinds of answer: `respond`, `stream`, `fault`, `relay`, `upgrade`, `call`. */
export type AnswerKind = EndpointAnswer['kind'];

/** The answer of one kind. */
export type AnswerOf<K extends AnswerKind> = Extract<EndpointAnswer, { kind: K }>;

/** A function for every kind of answer; each gets the answer, narrowed, and the values passed along. */
export type AnswerCases<R, A = void, B = void> = {
  readonly [K in AnswerKind]: (answer: AnswerOf<K>, a: A, b: B) => R;
};

/** Functions for some kinds of answer and `otherwise` for the rest. */
export type SomeAnswerCases<R, A = void, B = void> = Partial<AnswerCases<R, A, B>> & {
  readonly otherwise: (answer: EndpointAnswer, a: A, b: B) => R;
};

declare const made: unique symbol;

/** Cases made by {@link answerCases}, the only ones {@link matchAnswer} takes. */
export type MadeCases<R, A = void, B = void> = AnswerCases<R, A, B> & { readonly [made]: true };

/**
 * The cases {@link matchAnswer} takes: one function per kind (`otherwise` for
 * those not given), always in one order, frozen. Every set made here has the
 * same hidden class, so `matchAnswer`'s reads of them stay monomorphic on the
 * hot path however many sets there are; make each once (a module constant).
 */
export function answerCases<R, A = void, B = void>(
  cases: AnswerCases<R, A, B> | SomeAnswerCases<R, A, B>,
): MadeCases<R, A, B> {
  const some = cases as SomeAnswerCases<R, A, B>;
  const { otherwise } = some;
  return Object.freeze({
    respond: some.respond ?? otherwise,
    stream: some.stream ?? otherwise,
    fault: some.fault ?? otherwise,
    relay: some.relay ?? otherwise,
    upgrade: some.upgrade ?? otherwise,
    call: some.call ?? otherwise,
  }) as MadeCases<R, A, B>;
}

/** Calls the case of `answer`'s kind with `answer`, `a` and `b`. */
export function matchAnswer<R, A = void, B = void>(answer: EndpointAnswer, cases: MadeCases<R, A, B>, a: A, b: B): R {
  switch (answer.kind) {
    case 'respond':
      return cases.respond(answer, a, b);
    case 'stream':
      return cases.stream(answer, a, b);
    case 'fault':
      return cases.fault(answer, a, b);
    case 'relay':
      return cases.relay(answer, a, b);
    case 'upgrade':
      return cases.upgrade(answer, a, b);
    case 'call':
      return cases.call(answer, a, b);
  }
}

const LET_GO = answerCases<void>({
  // Cancelling the body stops the upstream request.
  relay: (answer) => void answer.body?.cancel().catch(() => undefined),
  otherwise: () => undefined,
});

/**
 * Lets go of what an answer that will not be sent holds (its client left, or
 * it cannot be carried): a relay's upstream body is cancelled; the other kinds
 * hold nothing open.
 */
export function letGo(answer: EndpointAnswer): void {
  matchAnswer(answer, LET_GO, undefined, undefined);
}

const WITH_HEADERS = answerCases<EndpointAnswer, AnswerHeaderMap>({
  // A fault sends no headers of its own (a `close` its status line and body's).
  fault: (answer) => answer,
  otherwise: (answer, headers) => ({ ...answer, headers: { ...answer.headers, ...headers } }) as EndpointAnswer,
});

/** `answer` with `headers` added to its own (a name it has too takes the new value); a fault as it is. */
export function headersAdded(answer: EndpointAnswer, headers: AnswerHeaderMap): EndpointAnswer {
  return matchAnswer(answer, WITH_HEADERS, headers, undefined);
}
