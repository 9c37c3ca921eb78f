/**
 * The handlers of the four kinds of call: each reads its request messages,
 * asks the routing for a route's answer ({@link GrpcRouting}) and plays it, or
 * answers in schema mode — unary and client streaming one message, server
 * streaming {@link SCHEMA_STREAM_LENGTH}, bidirectional one per message
 * received — noting every message both ways in the call's journal mark.
 *
 * @module
 */
import {
  create,
  type DescMessage,
  type DescMethod,
  fromJson,
  type Message,
  toBinary,
  toJson,
} from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { GRPC_CODE_NAMES } from '../api/grpc-json.js';
import { SeededRandom, seedOf } from '../random/seeded-random.js';
import { type GrpcCall, noteRequest, noteResponse } from './call-record.js';
import type { GrpcOut, GrpcReply, GrpcRouting } from './grpc-reply.js';
import { MessageTooLarge, mockMessageJson } from './mock-message.js';
import { tooMuchHeld } from './stream-limit.js';

/** How many messages a server-streaming method sends in schema mode. */
export const SCHEMA_STREAM_LENGTH = 2;

/**
 * What a handler reads of its call's context: Connect's `HandlerContext` has it, and so has a
 * native call answered without Connect's handler (direct-context.ts).
 */
export type AnswerContext = Pick<HandlerContext, 'signal' | 'requestHeader' | 'responseHeader' | 'responseTrailer'>;

/** What a handler is given besides its requests: the call's mark, the routing and its bound. */
export interface CallParts {
  call: GrpcCall | undefined;
  routing: GrpcRouting | undefined;
  /** The bytes (on the wire) of a client stream's messages held until it ends; one past: `RESOURCE_EXHAUSTED`. */
  maxHeldBytes: number;
  /** What the routing gave the call for chaos bandwidth: the milliseconds each message is held for its encoded bytes. */
  pace?: (bytes: number) => number;
}

/**
 * The output types whose schema-mode message is over its bound of values: how many
 * values a message holds depends on its type alone, so a type found over is refused at once after.
 */
const TOO_LARGE = new WeakMap<DescMessage, MessageTooLarge>();

/**
 * A message of `output` seeded by `seed`: the same seed, the same message. One
 * over that bound (mock-message.ts) ends the call with `RESOURCE_EXHAUSTED`, naming the bound.
 */
export function schemaMessageJson(output: DescMessage, seed: string): unknown {
  let tooLarge = TOO_LARGE.get(output);
  if (tooLarge === undefined) {
    const random = new SeededRandom();
    random.reseed(seedOf(seed));
    try {
      return mockMessageJson(output, random);
    } catch (error) {
      if (!(error instanceof MessageTooLarge)) throw error;
      tooLarge = error;
      TOO_LARGE.set(output, error);
    }
  }
  throw new ConnectError(tooLarge.message, Code.ResourceExhausted);
}

/** A message to send: a route's (`message`), or schema mode's (`seed`: made when sent). */
type Out = GrpcOut & { seed?: string };

/** Schema mode's message for `method`, seeded by the method and `request` (and `extra`: a stream's index). */
function schemaOut(method: DescMethod, request: unknown, extra = ''): Out {
  return { message: undefined, seed: `${method.parent.typeName}/${method.name}\n${JSON.stringify(request)}${extra}` };
}

/** Waits `ms`, or rejects when the call ends first (its deadline, the client gone). */
function sleep(ms: number | undefined, context: AnswerContext): Promise<void> {
  if (ms === undefined || ms <= 0) return Promise.resolve();
  // Read only when there is a wait: a direct call makes its signal then (direct-context.ts).
  const signal = context.signal;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** The message of `output` a route's JSON stands for; `internal` naming the route when it does not fit. */
function encodeOut(output: DescMessage, json: unknown, reply: GrpcReply | undefined): Message {
  if (reply === undefined) {
    try {
      return fromJson(output, json as never, { ignoreUnknownFields: true });
    } catch {
      return create(output);
    }
  }
  try {
    return fromJson(output, json as never);
  } catch (error) {
    throw new ConnectError(
      `${reply.by}: its message is no ${output.typeName}: ${(error as Error).message}`,
      Code.Internal,
    );
  }
}

function setAll(headers: Headers, values: Record<string, string | string[]> | undefined): void {
  for (const [name, value] of Object.entries(values ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
}

/** Starts playing a reply: its metadata and trailers (its latency and any hold were the routing's, engine/call-sink.ts). */
function open(reply: GrpcReply | undefined, context: AnswerContext): void {
  if (reply === undefined) return;
  setAll(context.responseHeader, reply.metadata);
  setAll(context.responseTrailer, reply.trailers);
}

/** Ends a reply: a reset (a route's, or a fault the steps gave), or its status (thrown, as Connect ends a call). */
function close(reply: GrpcReply | undefined, parts: CallParts): void {
  if (reply?.reset === true) {
    if (parts.call !== undefined) parts.call.reset = true;
    throw new ConnectError('reset by the route', Code.Aborted);
  }
  const status = reply?.status;
  if (status === undefined || status.code === 0) return;
  const error = new ConnectError(status.message ?? '', status.code);
  for (const detail of status.details ?? []) {
    error.details.push({ type: detail.type, value: Uint8Array.from(atob(detail.value), (c) => c.charCodeAt(0)) });
  }
  throw error;
}

/** A message as sent: the message of its output type, its proto3 JSON and that JSON's length. */
interface Sent {
  output: DescMessage;
  message: Message;
  json: unknown;
  size: number;
}

/**
 * The messages of routes as sent, by the route's message object: a route's answer that is
 * not templated hands the same object to every call, so each is converted (`fromJson`,
 * `toJson`, its size for the journal) once, not per call.
 */
const SENT = new WeakMap<object, Sent>();

/** The messages {@link SENT} and {@link SCHEMA} hold: the same object on every call, never changed. */
const STABLE = new WeakSet<Message>();

/** Whether `message` is sent unchanged on every call that sends it (its encoding may be kept). */
export function stableMessage(message: Message): boolean {
  return STABLE.has(message);
}

/**
 * Schema mode's messages as sent, by output type and seed (same request, same answer: made once), at most 256 a type.
 * A seed holds the whole request as JSON: one longer than {@link MAX_CACHED_SEED} is not kept (256 requests of
 * 4 MiB would pin more than 1 GB), so the cache holds at most 256 × 4 KiB of seeds a type.
 */
const SCHEMA = new WeakMap<DescMessage, Map<string, Sent>>();

/** The longest seed (characters) whose message {@link SCHEMA} keeps; a longer one's is made on each call. */
const MAX_CACHED_SEED = 4096;

function schemaSent(output: DescMessage, seed: string): Sent {
  const made = () => sentJson(output, encodeOut(output, schemaMessageJson(output, seed), undefined));
  if (seed.length > MAX_CACHED_SEED) return made();
  let byType = SCHEMA.get(output);
  if (byType === undefined) {
    byType = new Map();
    SCHEMA.set(output, byType);
  }
  let sent = byType.get(seed);
  if (sent === undefined) {
    sent = made();
    if (byType.size >= 256) byType.clear();
    byType.set(seed, sent);
    STABLE.add(sent.message);
  }
  return sent;
}

/** `message` as sent: with its proto3 JSON and that JSON's length. */
function sentJson(output: DescMessage, message: Message): Sent {
  const json = toJson(output, message);
  return { output, message, json, size: (JSON.stringify(json) ?? '').length };
}

function sentOf(output: DescMessage, out: Out, reply: GrpcReply | undefined): Sent {
  if (out.seed !== undefined) return schemaSent(output, out.seed);
  // A templated reply's messages are rendered per call: keeping them would only fill the caches.
  const kept = reply !== undefined && reply.templated !== true;
  const key = kept && out.message !== null && typeof out.message === 'object' ? out.message : undefined;
  const cached = key === undefined ? undefined : SENT.get(key);
  if (cached !== undefined && cached.output === output) return cached;
  const sent = sentJson(output, encodeOut(output, out.message, reply));
  if (key !== undefined) {
    SENT.set(key, sent);
    STABLE.add(sent.message);
  }
  return sent;
}

/** One message sent after its delay, noted in the call. */
async function send(
  method: DescMethod,
  out: Out,
  reply: GrpcReply | undefined,
  context: AnswerContext,
  parts: CallParts,
): Promise<Message> {
  await sleep(out.delay, context);
  const sent = sentOf(method.output, out, reply);
  const { pace } = parts;
  // Chaos bandwidth: the message goes out once its bytes would have (engine/pipeline/chaos-bandwidth.ts).
  if (pace !== undefined) await sleep(pace(toBinary(method.output, sent.message).length), context);
  noteResponse(parts.call, sent.json, sent.size);
  return sent.message;
}

/**
 * A request in proto3 JSON. A message can be well-formed on the wire and have no JSON form (a
 * `Timestamp` past year 9999): such a request is `invalid_argument`, not an `internal` error
 * (HTTP 500) from inside the handler.
 */
function requestJson(method: DescMethod, request: Message): unknown {
  try {
    return toJson(method.input, request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError(`the request has no proto3 JSON form: ${reason}`, Code.InvalidArgument);
  }
}

/** Reads one request message into proto3 JSON, noted in the call. */
function received(method: DescMethod, request: Message, parts: CallParts): unknown {
  const json = requestJson(method, request);
  noteRequest(parts.call, json);
  return json;
}

async function routed(method: DescMethod, context: AnswerContext, parts: CallParts, messages: unknown[]) {
  // The headers are read when a route or queued answer is looked for (a direct call makes them then).
  const info = {
    service: method.parent.typeName,
    method: method.name,
    kind: method.methodKind,
    get headers() {
      return context.requestHeader;
    },
    messages,
    body: parts.call?.body,
  };
  // Resolves once the answer's latency is waited (or its hold released); notes in the call how it was answered.
  const reply = await parts.routing?.(info, context, parts.call);
  if (reply?.pace !== undefined) parts.pace = reply.pace;
  if (reply?.schema === true) {
    setAll(context.responseHeader, reply.metadata);
    return undefined;
  }
  if (reply?.route !== undefined && parts.call !== undefined) parts.call.route = reply.route;
  if (reply?.queued === true && parts.call !== undefined) parts.call.queued = true;
  return reply;
}

/** Notes the status a handler ends with (an error thrown: its code and message). */
export function noteEnd(parts: CallParts, error: unknown): never {
  const connect = ConnectError.from(error);
  if (parts.call !== undefined) {
    parts.call.code = GRPC_CODE_NAMES[connect.code] ?? String(connect.code);
    parts.call.statusMessage = connect.rawMessage;
  }
  throw connect;
}

export async function unary(
  method: DescMethod,
  request: Message,
  context: AnswerContext,
  parts: CallParts,
): Promise<Message> {
  const json = received(method, request, parts);
  const reply = await routed(method, context, parts, [json]);
  open(reply, context);
  const first = reply === undefined ? schemaOut(method, json) : reply.messages[0];
  if (reply !== undefined && (reply.reset === true || reply.status !== undefined || first === undefined)) {
    close(reply, parts);
  }
  return send(method, first ?? { message: {} }, reply, context, parts);
}

export async function* serverStream(
  method: DescMethod,
  request: Message,
  context: AnswerContext,
  parts: CallParts,
): AsyncGenerator<Message> {
  const json = received(method, request, parts);
  const reply = await routed(method, context, parts, [json]);
  open(reply, context);
  const outs =
    reply?.messages ?? Array.from({ length: SCHEMA_STREAM_LENGTH }, (_, i) => schemaOut(method, json, `\n${i}`));
  for (const out of outs) yield await send(method, out, reply, context, parts);
  close(reply, parts);
}

export async function clientStream(
  method: DescMethod,
  requests: AsyncIterable<Message>,
  context: AnswerContext,
  parts: CallParts,
): Promise<Message> {
  const all: unknown[] = [];
  let held = 0;
  for await (const request of requests) {
    // Every message is held for the answer (match, template, schema mode): bounded in all, as a Fetch body is.
    held += toBinary(method.input, request).length;
    if (held > parts.maxHeldBytes) throw new ConnectError(tooMuchHeld(parts.maxHeldBytes), Code.ResourceExhausted);
    all.push(received(method, request, parts));
  }
  const reply = await routed(method, context, parts, all);
  open(reply, context);
  const first = reply === undefined ? schemaOut(method, all) : reply.messages[0];
  if (reply !== undefined && (reply.reset === true || reply.status !== undefined || first === undefined)) {
    close(reply, parts);
  }
  return send(method, first ?? { message: {} }, reply, context, parts);
}

export async function* bidiStream(
  method: DescMethod,
  requests: AsyncIterable<Message>,
  context: AnswerContext,
  parts: CallParts,
): AsyncGenerator<Message> {
  let reply: GrpcReply | undefined;
  let index = 0;
  for await (const request of requests) {
    const json = received(method, request, parts);
    if (index === 0) {
      reply = await routed(method, context, parts, [json]);
      open(reply, context);
      for (const out of reply?.messages ?? []) yield await send(method, out, reply, context, parts);
    }
    const outs =
      reply === undefined ? [schemaOut(method, json, `\n${index}`)] : ((await reply.onMessage?.(json, index)) ?? []);
    for (const out of outs) yield await send(method, out, reply, context, parts);
    index++;
  }
  close(reply, parts);
}
