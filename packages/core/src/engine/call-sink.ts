/**
 * The sink of a gRPC-family call: the pipeline's verdict is sent to a call
 * through the one {@link sendAnswer} every runtime's sink goes through, so the
 * latency, a held call (chaos `timeout`, a queued hang: released, then what
 * answers at that moment) and a fault mean on a call what they mean on an HTTP
 * request. Only the capabilities say the answer in the call's form, for its
 * writer (grpc/stream-answers.ts) to put on the wire: a call's answer is its
 * reply to play (none: schema mode as it is); a refusal a status by
 * {@link GRPC_CODE_OF_STATUS} with the limits' headers as metadata; a fault a
 * reset (the writer's RST_STREAM or cut connection). The waits end when the
 * call does (its deadline, the client gone): the call then fails with why.
 *
 * @module
 */
import type { CallAnswer, EndpointAnswer, RespondAnswer, StreamAnswer } from '../answer/endpoint-answer.js';
import { concatBytes } from '../codec/concat-bytes.js';
import type { CallHandle, GrpcReply } from '../grpc/grpc-reply.js';
import { refusalHeaders } from './pipeline/verdicts.js';
import { type AnswerSink, sendAnswer, sendDue } from './sink.js';

/** The gRPC status codes of the pipeline's HTTP statuses (the Connect protocol's mapping); others `unknown` (2). */
const GRPC_CODE_OF_STATUS: Readonly<Record<number, number>> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  409: 10,
  429: 8,
  500: 13,
  501: 12,
  503: 14,
  504: 4,
};

/** Who a reply that is no route's comes from, for messages. */
const REFUSED_BY = 'a step of the pipeline';

/** What an answer comes to on a call: the reply its writer plays, `undefined` for schema mode as it is. */
type Played = GrpcReply | undefined;

/** The message of a coded error answer (`{ success: false, error: { message } }`). */
function messageOf(body: RespondAnswer['body']): string {
  if (body === null) return '';
  try {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    return String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? '');
  } catch {
    return '';
  }
}

/** A refused status in the call's form: its code, `message` and the limits' headers as metadata. */
function refused(answer: RespondAnswer | StreamAnswer, message: string): GrpcReply {
  const reply: GrpcReply = { by: REFUSED_BY, messages: [] };
  reply.status = { code: GRPC_CODE_OF_STATUS[answer.status] ?? 2, message };
  const metadata = refusalHeaders(answer);
  if (Object.keys(metadata).length > 0) reply.metadata = metadata;
  return reply;
}

/** A fault in the call's form: the call cut, no status (its writer resets the stream or the connection). */
function cut(): GrpcReply {
  return { by: REFUSED_BY, messages: [], reset: true };
}

/** An answer a call cannot be given (a relay, an upgrade): `internal`. */
function internal(): GrpcReply {
  return { by: REFUSED_BY, messages: [], status: { code: GRPC_CODE_OF_STATUS[500] ?? 2, message: '' } };
}

/**
 * A call's answer as its reply: the route's or queued answer's with the headers the steps
 * gathered (a rate limit's) as metadata and the chaos bandwidth's pace, or schema mode's
 * (none, when it is played as it is).
 */
function played(answer: CallAnswer): Played {
  const { reply, pace } = answer;
  const headers = answer.headers as Record<string, string>;
  let gathered = false;
  for (const _ in headers) {
    gathered = true;
    break;
  }
  if (pace === undefined && !gathered) return reply;
  const out: GrpcReply = reply === undefined ? { by: 'chaos', messages: [], schema: true } : { ...reply };
  if (pace !== undefined) out.pace = pace;
  if (gathered) out.metadata = { ...headers, ...reply?.metadata };
  return out;
}

/** Resolves after `ms`, or rejects with why once the call ends first. */
function waited(to: CallHandle, ms: number): Promise<void> {
  // Read only when there is a wait: a direct call makes its signal then (grpc/direct-context.ts).
  const { signal } = to;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', ended);
      resolve();
    }, ms);
    const ended = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', ended, { once: true });
  });
}

/** Resolves `true` once `release` aborts, `false` once the call ends first (without `release`: only then). */
function held(to: CallHandle, release: AbortSignal | undefined): Promise<boolean> {
  const { signal } = to;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    if (release?.aborted === true) return resolve(true);
    const released = () => {
      signal.removeEventListener('abort', ended);
      resolve(true);
    };
    const ended = () => {
      release?.removeEventListener('abort', released);
      resolve(false);
    };
    release?.addEventListener('abort', released, { once: true });
    signal.addEventListener('abort', ended, { once: true });
  });
}

const CALL_SINK: AnswerSink<CallHandle, Played> = {
  respond: (_to, answer) => refused(answer, messageOf(answer.body)),
  // A refusal the chaos bandwidth paced (chaos-bandwidth.ts): its frames are the error's body.
  stream: (_to, answer) => refused(answer, messageOf(concatBytes(answer.frames.map((frame) => frame.bytes)))),
  fault: cut,
  relay: internal,
  upgrade: internal,
  call: (_to, answer) => played(answer),
  delay: (to, ms, answer: EndpointAnswer) => waited(to, ms).then(() => sendDue(CALL_SINK, to, answer)),
  hold: held,
  // The call ended while it was held: it fails with why (its deadline, the client gone); a hold
  // released with nothing to answer then is cut.
  gone: (to) => {
    if (to.signal.aborted) throw to.signal.reason;
    return cut();
  },
  fail: (_to, error) => {
    throw error;
  },
};

/**
 * Sends `answer` to the call `to` as every answer is sent (engine/sink.ts): resolves, once its
 * latency is waited or its hold released, to the reply its writer plays; rejects when the call ends first.
 */
export async function sendToCall(answer: EndpointAnswer, to: CallHandle): Promise<Played> {
  return sendAnswer(answer, CALL_SINK, to);
}
