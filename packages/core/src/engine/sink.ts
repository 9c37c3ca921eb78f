/**
 * Sending an answer, once for every runtime: {@link sendAnswer} is the one place
 * that sends each kind of {@link EndpointAnswer} (through `matchAnswer`), after a
 * delay or a queued hang; each runtime implements the {@link AnswerSink} capabilities in
 * its own file (`adapter/node/sink.ts` on `node:http`, `engine/fetch-sink.ts`
 * on `Response` for Bun, Deno and workerd). A new kind of answer is one new
 * capability here and one method per sink; nothing else branches per runtime.
 *
 * @module
 */
import type {
  CallAnswer,
  EndpointAnswer,
  FaultAnswer,
  RelayAnswer,
  RespondAnswer,
  StreamAnswer,
  UpgradeAnswer,
} from '../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../answer/match-answer.js';

/**
 * What a runtime can do with one request's answer. `To` is the request's handle
 * on that runtime (a `ServerResponse`, a request's abort signal); `R` what an
 * answer comes to there (nothing on Node, where the sink writes; a `Response`
 * on the Fetch runtimes). A connection upgrade (WebSocket) is one capability
 * like the others: the sink accepts the handshake its runtime's way and hands
 * the connection to the app's one script player (`websocket/open-sockets.ts`).
 */
export interface AnswerSink<To, R> {
  /** Send the status, headers and body. */
  respond(to: To, answer: RespondAnswer): R;
  /** Send the headers, then each frame as it is due (the sink plays it through the app's open streams). */
  stream(to: To, answer: StreamAnswer): R;
  /** Fail the request at the network level: `reset` or `close` (a `hang` is {@link AnswerSink.hold}). */
  fault(to: To, answer: FaultAnswer): R;
  /** Pass an upstream's answer on as it arrives; cancel its body if it cannot be sent. */
  relay(to: To, answer: RelayAnswer): R;
  /**
   * Accept a WebSocket upgrade (101 with the chosen subprotocol and the answer's
   * headers) and give the connection to the script player; a request the
   * runtime cannot upgrade here gets `501 WEBSOCKET_UNSUPPORTED`.
   */
  upgrade(to: To, answer: UpgradeAnswer): R;
  /**
   * Play a gRPC-family call's answer on the call (its edge's sink only, engine/call-sink.ts);
   * absent on a runtime's sink, which never gets one.
   */
  call?(to: To, answer: CallAnswer): R;
  /**
   * Sends `answer` with {@link sendDue} once `ms` have passed, unless the client
   * leaves first: then the timer is freed and the request comes to
   * {@link AnswerSink.gone}. No Promise where the runtime needs none: on Node a
   * delayed answer costs one timer and one listener, as the hot path did before
   * there were sinks (`bench/run.mjs`, "delay").
   */
  delay(to: To, ms: number, answer: EndpointAnswer): R | Promise<R>;
  /** Resolves `true` when `release` aborts, `false` once the client has gone; without `release`, only the latter. */
  hold(to: To, release: AbortSignal | undefined): Promise<boolean>;
  /** What the request comes to when its client left before the answer was sent. */
  gone(to: To): R;
  /** A failure while sending (a throw or a rejection): the sink's last resort for this request alone. */
  fail(to: To, error: unknown): R;
}

/**
 * Sends `answer` through `sink`: at once when it is there (a cached answer is
 * given synchronously), has no delay and is not a queued hang, so the hot path
 * allocates no Promise; otherwise once it is ready, after its delay or its
 * release. Every failure goes to {@link AnswerSink.fail}.
 */
export function sendAnswer<To, R>(
  answer: EndpointAnswer | Promise<EndpointAnswer>,
  sink: AnswerSink<To, R>,
  to: To,
): R | Promise<R> {
  if (answer instanceof Promise) {
    return answer.then(
      (ready) => sendAnswer(ready, sink, to),
      (error: unknown) => sink.fail(to, error),
    );
  }
  try {
    return answer.delay > 0 ? sink.delay(to, answer.delay, answer) : sendNow(answer, sink, to);
  } catch (error) {
    return sink.fail(to, error);
  }
}

/** Sends an answer whose delay is over (a sink's {@link AnswerSink.delay} calls it); a failure goes to {@link AnswerSink.fail}. */
export function sendDue<To, R>(sink: AnswerSink<To, R>, to: To, answer: EndpointAnswer): R | Promise<R> {
  try {
    return sendNow(answer, sink, to);
  } catch (error) {
    return sink.fail(to, error);
  }
}

/** What each kind of answer comes to on a sink (a queued hang: held first); `a` is the sink, `b` the request's handle. */
const SEND = answerCases<unknown, AnswerSink<unknown, unknown>, unknown>({
  respond: (answer, sink, to) => sink.respond(to, answer),
  stream: (answer, sink, to) => sink.stream(to, answer),
  relay: (answer, sink, to) => sink.relay(to, answer),
  upgrade: (answer, sink, to) => sink.upgrade(to, answer),
  fault: (answer, sink, to) => (answer.fault === 'hang' ? released(answer, sink, to) : sink.fault(to, answer)),
  // Only a call's exchange is answered with a call's answer, and only its edge's sink plays it (engine/call-sink.ts).
  call: (answer, sink, to) =>
    sink.call === undefined
      ? sink.fail(to, new Error('mockpoint: a gRPC call answer reached an HTTP sink'))
      : sink.call(to, answer),
});

/** Sends `answer` by its kind ({@link SEND}). */
function sendNow<To, R>(answer: EndpointAnswer, sink: AnswerSink<To, R>, to: To): R | Promise<R> {
  return matchAnswer(answer, SEND, sink as AnswerSink<unknown, unknown>, to) as R | Promise<R>;
}

/** A queued hang: nothing is sent until it is released (then the answer of that moment) or the client leaves. */
function released<To, R>(answer: FaultAnswer, sink: AnswerSink<To, R>, to: To): Promise<R> {
  return sink
    .hold(to, answer.release)
    .then(async (free) => {
      if (!free || answer.next === undefined) return sink.gone(to);
      return sendAnswer(await answer.next(), sink, to);
    })
    .catch((error: unknown) => sink.fail(to, error));
}
