/**
 * The gRPC family's edge of the one pipeline: a call (Connect, gRPC-Web,
 * native gRPC), decoded by its method's handler (grpc/stream-answers.ts), is
 * made into an {@link Exchange} and walks the same steps as an HTTP request
 * (EndpointHandler.walkCall), and its verdict is sent to the call as every
 * answer is sent (engine/call-sink.ts: the latency waited, a hold held, a
 * fault a reset, a refusal its status: a 401 `unauthenticated`, a 429
 * `resource_exhausted`, a 503 `unavailable`). A call to a method no
 * definitions declare is answered `unimplemented` in its protocol's form
 * ({@link unimplementedCall}).
 *
 * @module
 */
import { answerCases, matchAnswer } from '../answer/match-answer.js';
import { RequestView } from '../answer/request-view.js';
import type { GrpcCall } from '../grpc/call-record.js';
import type { GrpcCallInfo, GrpcRouting } from '../grpc/grpc-reply.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import { sendToCall } from './call-sink.js';
import type { EndpointHandler } from './endpoint-handler.js';
import { Exchange, type ExchangeCall, type PipelineParts } from './pipeline/exchange.js';
import type { Verdict } from './pipeline/step.js';

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

/** Whether an answer is a refusal (anything but a call's answer: a step refused the call). */
const REFUSAL = answerCases<boolean>({ call: () => false, otherwise: () => true });

/**
 * Notes in `record` (the call's journal mark) what the walk decided: the signature check's
 * outcome, the state read or moved, and the mark of a step that refused the call.
 */
function noted(record: GrpcCall | undefined, exchange: Exchange, verdict: Verdict): void {
  if (record === undefined) return;
  const { signature } = exchange.request;
  if (signature !== undefined) record.signature = signature;
  const state = exchange.journalState();
  if (state !== undefined) record.state = state;
  if (verdict.mark !== undefined && matchAnswer(verdict.answer, REFUSAL, undefined, undefined)) {
    record.mark = verdict.mark;
  }
}

/**
 * The routing of `name`'s calls (grpc/grpc-server.ts asks it once a call's first message, or a
 * client stream's every one, is read): the call walks `handler`'s pipeline, and its verdict is
 * sent to the call as every answer is sent (engine/call-sink.ts: its latency waited, a hold
 * held), said in the call's form. A failure rejects (the call ends with its code, as Connect ends one).
 */
export function callRouting(handler: EndpointHandler, name: string): GrpcRouting {
  return async (info, handle, record) => {
    // A name whose settings are known to leave every call to its definitions walks no steps.
    if (handler.passesCall(name)) return undefined;
    const exchange = callExchange(handler.parts, name, info);
    const verdict = await handler.walkCall(exchange);
    noted(record, exchange, verdict);
    return sendToCall(verdict.answer, handle);
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
