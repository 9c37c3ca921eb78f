/**
 * The gRPC family's edge of the one pipeline: a call (Connect, gRPC-Web,
 * native gRPC), decoded by its method's handler (grpc/stream-answers.ts), is
 * made into an {@link Exchange} and walks the same steps as an HTTP request
 * (EndpointHandler.walkCall). Only the ends are the protocol's: a refusal
 * ({@link refuse}: a 401 `unauthenticated`, a 429 `resource_exhausted`, a 503
 * fault `unavailable`, a reset the stream reset, a hang the call held) and an
 * answer ({@link encode}: a call's answer, a `grpc` route's or queued answer's
 * reply or none for schema mode, with the rate limit's headers as metadata and
 * the delay and bandwidth the steps' after-work gave it, chaos-step.ts's as an
 * HTTP answer's). A call to a method no definitions declare is
 * answered `unimplemented` in its protocol's form ({@link unimplementedCall}).
 *
 * @module
 */
import type { CallAnswer, RespondAnswer, StreamAnswer } from '../answer/endpoint-answer.js';
import { answerCases, matchAnswer } from '../answer/match-answer.js';
import { RequestView } from '../answer/request-view.js';
import { concatBytes } from '../codec/concat-bytes.js';
import type { GrpcCallInfo, GrpcReply, GrpcRouting } from '../grpc/grpc-reply.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import type { EndpointHandler } from './endpoint-handler.js';
import { Exchange, type ExchangeCall, type PipelineParts } from './pipeline/exchange.js';
import type { Verdict } from './pipeline/step.js';
import { refusalHeaders } from './pipeline/verdicts.js';

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

/** The body of a call whose requests were not kept whole (a native client stream): nothing to sign. */
const NO_BODY = new Uint8Array(0);

/** A call as the one filter sees it: its `grpc` field, its (first) message as the JSON body. */
class CallView extends RequestView {
  readonly grpc: { readonly service: string; readonly method: string; readonly message: unknown };
  #body: string | undefined;

  constructor(request: RecordedRequest, info: GrpcCallInfo) {
    super(request, request.target);
    this.grpc = { service: info.service, method: info.method, message: info.messages[0] };
  }

  override get body(): string {
    this.#body ??= JSON.stringify(this.grpc.message ?? null);
    return this.#body;
  }

  override get json(): unknown {
    return this.grpc.message;
  }

  override get bodyTruncated(): boolean {
    return false;
  }
}

/** A call as the request the steps read: a `POST` of `/{service}/{method}`, its body the bytes as sent where kept. */
class CallRequest implements RecordedRequest {
  readonly method = 'POST';
  readonly body: Uint8Array;
  readonly bodyTruncated = false;
  signature: RecordedRequest['signature'];
  #raw: string[] | undefined;

  constructor(
    readonly target: string,
    readonly info: GrpcCallInfo,
  ) {
    this.body = info.body ?? NO_BODY;
  }

  /** The call's metadata as raw pairs, made when first read (a direct call makes its `Headers` only when asked). */
  get rawHeaders(): string[] {
    if (this.#raw === undefined) {
      this.#raw = [];
      for (const [name, value] of this.info.headers) this.#raw.push(name, value);
    }
    return this.#raw;
  }
}

/** A call to `name` as an exchange. */
function callExchange(parts: PipelineParts, name: string, info: GrpcCallInfo): Exchange {
  const request = new CallRequest(`/${info.service}/${info.method}`, info);
  const call: ExchangeCall = { view: new CallView(request, info), info };
  return new Exchange(parts, name, request.target, request, undefined, undefined, call);
}

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

/**
 * Who refused, for the reply, read from the verdict's mark: chaos (the name's or the
 * namespace's), a route (its rate limit), a queued answer, the signature check (a
 * request it judged not valid), or else a step of the pipeline (one added later).
 */
function refuserOf(verdict: Verdict, request: RecordedRequest): string {
  const by = verdict.mark?.answeredBy;
  if (typeof by === 'object') {
    if ('chaos' in by) return by.namespace === true ? "the namespace's chaos" : 'chaos';
    if ('route' in by) return `route ${by.route}`;
    if ('queue' in by) return 'a queued answer';
  }
  const { signature } = request;
  if (signature !== undefined && signature.status !== 'valid') return 'the signature check';
  return 'a step of the pipeline';
}

/** A step's refusal in the call's form: a status by {@link GRPC_CODE_OF_STATUS}, a reset, or a hold then a reset. */
function refuse(verdict: Verdict, request: RecordedRequest): GrpcReply {
  const { answer, mark } = verdict;
  const reply: GrpcReply = { by: refuserOf(verdict, request), messages: [] };
  if (mark !== undefined) reply.mark = mark;
  if (answer.delay > 0) reply.delay = answer.delay;
  return matchAnswer(answer, REFUSAL, reply, undefined);
}

/** A refusal's answer in the call's form, on `reply`: a fault a reset (held first when it hangs); a response its code, message and limits' metadata. */
const REFUSAL = answerCases<GrpcReply, GrpcReply>({
  fault: (answer, reply) => {
    reply.reset = true;
    if (answer.fault === 'hang') reply.hold = answer.release ?? new AbortController().signal;
    return reply;
  },
  respond: (answer, reply) => refused(answer, messageOf(answer.body), reply),
  // A refusal the chaos bandwidth paced (chaos-bandwidth.ts): its frames are the error's body.
  stream: (answer, reply) => refused(answer, messageOf(concatBytes(answer.frames.map(bytesOf))), reply),
  otherwise: (_, reply) => {
    reply.status = { code: GRPC_CODE_OF_STATUS[500] ?? 2, message: '' };
    return reply;
  },
});

function bytesOf(frame: StreamAnswer['frames'][number]): Uint8Array {
  return frame.bytes;
}

/** A refused status in the call's form: its code, `message` and the limits' headers as metadata. */
function refused(answer: RespondAnswer | StreamAnswer, message: string, reply: GrpcReply): GrpcReply {
  reply.status = { code: GRPC_CODE_OF_STATUS[answer.status] ?? 2, message };
  const metadata = refusalHeaders(answer);
  if (Object.keys(metadata).length > 0) reply.metadata = metadata;
  return reply;
}

/**
 * A call's answer as its reply: the route's or queued answer's with the headers the steps
 * gathered (a rate limit's) as metadata, or schema mode's (none, when it is played as it is).
 */
function played(answer: CallAnswer): GrpcReply | undefined {
  const { reply, delay, bandwidth } = answer;
  const headers = answer.headers as Record<string, string>;
  let gathered = false;
  for (const _ in headers) {
    gathered = true;
    break;
  }
  if (reply === undefined && delay <= 0 && bandwidth === undefined && !gathered) return undefined;
  const out: GrpcReply = reply === undefined ? { by: 'chaos', messages: [], schema: true, delay } : { ...reply, delay };
  if (bandwidth !== undefined) out.bandwidth = bandwidth;
  if (gathered) out.metadata = { ...headers, ...reply?.metadata };
  return out;
}

/** The verdict's answer as the call's reply: a call's answer played, any other a refusal. */
const REPLY = answerCases<GrpcReply | undefined, Verdict, RecordedRequest>({
  call: (answer) => played(answer),
  otherwise: (_, verdict, request) => refuse(verdict, request),
});

/**
 * The call's reply for the pipeline's `verdict` (`undefined`: schema mode, played as it is): with
 * the signature check's outcome and the state for the journal.
 */
function encode(exchange: Exchange, verdict: Verdict): GrpcReply | undefined {
  const { request } = exchange;
  const { signature } = request;
  const state = exchange.journalState();
  const reply = matchAnswer(verdict.answer, REPLY, verdict, request);
  if (signature === undefined && state === undefined) return reply;
  const out: GrpcReply = reply ?? { by: 'chaos', messages: [], schema: true };
  if (signature !== undefined) out.signature = signature;
  if (state !== undefined) out.state = state;
  return out;
}

/**
 * The routing of `name`'s calls (grpc/grpc-server.ts asks it once a call's first message, or a
 * client stream's every one, is read): the call walks `handler`'s pipeline and its verdict is
 * written in the call's form. A failure rejects (the call ends with its code, as Connect ends one).
 */
export function callRouting(handler: EndpointHandler, name: string): GrpcRouting {
  return async (info) => {
    // A name whose settings are known to leave every call to its definitions walks no steps.
    if (handler.passesCall(name)) return undefined;
    const exchange = callExchange(handler.parts, name, info);
    return encode(exchange, await handler.walkCall(exchange));
  };
}

/** The gRPC status code `unimplemented`, and Connect's name for it. */
const UNIMPLEMENTED = 12;

/** What `grpc-message` may not carry as it is: `%` and anything but printable ASCII. */
const NOT_PERCENT_SAFE = /[^\x20-\x24\x26-\x7e]+/g;
const utf8 = new TextEncoder();

/**
 * `text` as gRPC's `grpc-message` says it: only `%` and bytes outside printable
 * ASCII percent-encoded (its spec's rule). `encodeURIComponent` would encode
 * `:` and `/` too, which grpc-js (it decodes with `decodeURI`) shows as `%3A`.
 */
function grpcMessage(text: string): string {
  return text.replace(NOT_PERCENT_SAFE, (run) => {
    let out = '';
    for (const byte of utf8.encode(run)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    return out;
  });
}

/**
 * A call of a gRPC-family protocol, told by its headers: gRPC-Web, native gRPC,
 * a Connect stream, or a Connect unary call (its `Connect-Protocol-Version`
 * header, which Connect's clients send, or a binary body); `undefined` for a
 * plain HTTP request (a JSON `POST` without the header), which keeps the app's 404.
 */
export function callProtocolOf(headers: Headers): 'trailers' | 'connect-stream' | 'connect' | undefined {
  const type = headers.get('content-type') ?? '';
  if (type.startsWith('application/grpc')) return 'trailers';
  if (type.startsWith('application/connect+')) return 'connect-stream';
  if (headers.has('connect-protocol-version') || type.startsWith('application/proto')) return 'connect';
  return undefined;
}

/**
 * The answer to a gRPC-family call of a method no definitions declare: the
 * status `unimplemented` with `message`, in the call's form (gRPC and
 * gRPC-Web: Trailers-Only, the status in the headers; a Connect stream: its
 * end-of-stream message; a unary Connect call: HTTP 404 with Connect's error
 * JSON), or `undefined` when `headers` are a plain HTTP request's.
 */
export function unimplementedCall(headers: Headers, message: string): Response | undefined {
  const protocol = callProtocolOf(headers);
  if (protocol === undefined) return undefined;
  const type = headers.get('content-type') ?? 'application/json';
  if (protocol === 'trailers') {
    return new Response(null, {
      status: 200,
      headers: {
        'content-type': type,
        'grpc-status': String(UNIMPLEMENTED),
        'grpc-message': grpcMessage(message),
      },
    });
  }
  const error = { code: 'unimplemented', message };
  if (protocol === 'connect') {
    return new Response(JSON.stringify(error), { status: 404, headers: { 'content-type': 'application/json' } });
  }
  // Connect's end-of-stream message: flags 0b10, the length, then the JSON (whatever the codec).
  const json = new TextEncoder().encode(JSON.stringify({ error }));
  const frame = new Uint8Array(5 + json.length);
  frame[0] = 0b10;
  new DataView(frame.buffer).setUint32(1, json.length);
  frame.set(json, 5);
  return new Response(frame, { status: 200, headers: { 'content-type': type } });
}
