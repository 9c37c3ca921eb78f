/**
 * gRPC answers as they cross the wire: `grpc: { message | messages, on?,
 * status?, metadata?, trailers? }` in a route's answer (docs/grpc.md#routes),
 * its schema, the status codes by name or number, and the checks the schema
 * cannot state (one message form, header-safe metadata, trailers and status
 * messages, bounded details and delays, template syntax), each refused with
 * `INVALID_GRPC_ANSWER`. Whether a message fits the method's output type is
 * checked by the engine, which holds the definitions.
 *
 * @module
 */
import { z } from 'zod';
import { headerNameProblem, headerValueProblem } from '../codec/http-header.js';
import { templateSyntaxProblem } from '../template/template-syntax.js';
import type { RouteSchemaParts } from './answer-kind.js';
import { GRPC_CODE_NAMES } from './grpc-json.js';
import type { RequestFilter } from './journal-json.js';

/** One message a route sends, in proto3 JSON, after `delay` milliseconds. */
export interface GrpcAnswerMessage {
  message: Record<string, unknown>;
  /** Milliseconds after the message before it (after the answer's `delay`, for the first). @default 0 */
  delay?: number;
}

/** A bidirectional call's reply to one client message. */
export interface GrpcAnswerReply {
  /** The one filter, its `body` a JSON subset of the message (proto3 JSON); absent: every message. */
  match?: RequestFilter;
  send?: GrpcAnswerMessage[];
}

/** How a call ends: a status code by name (`not_found`, `NOT_FOUND`) or number (5). */
export interface GrpcAnswerStatus {
  code: string | number;
  /** The status message (at most 1024 characters, no control characters). */
  message?: string;
  /** google.rpc.Status details: a message's full type name and its binary encoding in base64. */
  details?: { type: string; value: string }[];
}

/**
 * A route's answer to a gRPC call.
 * @example { message: { id: '7', items: ['tea'] }, metadata: { 'x-shop': 'a' } }
 */
export interface GrpcAnswer {
  /** The message a unary or client-streaming call answers. */
  message?: Record<string, unknown>;
  /** What a server-streaming call sends, in order (a bidirectional one: sent once the first message arrives). */
  messages?: GrpcAnswerMessage[];
  /** A bidirectional call: for each client message, the first reply whose `match` holds is sent. */
  on?: GrpcAnswerReply[];
  /** Absent: `ok`. */
  status?: GrpcAnswerStatus;
  /** Response headers (the call's leading metadata). */
  metadata?: Record<string, string | string[]>;
  /** Trailers (trailing metadata). */
  trailers?: Record<string, string | string[]>;
}

/** The code of a status (`not_found`, `NOT_FOUND`, `5`), or `undefined` when it is none. */
export function grpcCodeOf(code: string | number): number | undefined {
  if (typeof code === 'number')
    return Number.isInteger(code) && code >= 0 && code < GRPC_CODE_NAMES.length ? code : undefined;
  const at = GRPC_CODE_NAMES.indexOf(code.toLowerCase());
  return at === -1 ? undefined : at;
}

/** Metadata names the protocol itself sends. */
/** Headers HTTP/2 forbids (RFC 9113 §8.2.2; Node's `stream.respond` throws on them); `te` is in {@link RESERVED}. */
const CONNECTION_SPECIFIC = /^(connection|keep-alive|proxy-connection|transfer-encoding|upgrade|host)$/i;
const RESERVED = /^(grpc-|connect-|content-type$|content-encoding$|te$|user-agent$|:)/i;
const MAX_METADATA = 64;
const MAX_VALUE_BYTES = 8192;
const MAX_STATUS_MESSAGE = 1024;
const MAX_DETAILS = 16;
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function createGrpcAnswerSchema(parts: RouteSchemaParts) {
  const message = z.record(z.string(), z.unknown()).describe("A message in proto3 JSON (the method's output type).");
  const sent = z.strictObject({
    message,
    delay: parts.delay.optional().describe('Milliseconds after the message before it; default 0.'),
  });
  const metadata = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
  return z
    .strictObject({
      message: message.optional().describe('The message a unary or client-streaming call answers.'),
      messages: z.array(sent).optional().describe('Sent in order by a server-streaming call, each after its delay.'),
      on: z
        .array(
          z.strictObject({
            match: parts.requestFilter
              .optional()
              .describe('The one filter over a client message: body is a JSON subset of it. Absent: every message.'),
            send: z.array(sent).optional(),
          }),
        )
        .optional()
        .describe(
          'A bidirectional call: for each client message, the first entry whose match holds sends its messages.',
        ),
      status: z
        .strictObject({
          code: z.union([z.string(), z.number().int()]).describe('By name (not_found, NOT_FOUND) or number (5).'),
          message: z.string().optional(),
          details: z
            .array(z.strictObject({ type: z.string(), value: z.string().describe('The binary message in base64.') }))
            .optional()
            .describe('google.rpc.Status details.'),
        })
        .optional()
        .describe('How the call ends; absent: ok.'),
      metadata: metadata.optional().describe('Response headers (leading metadata).'),
      trailers: metadata.optional().describe('Trailers (trailing metadata).'),
    })
    .meta({
      title: 'GrpcAnswer',
      description: 'The answer to a gRPC, gRPC-Web or Connect call (docs/grpc.md#routes).',
    });
}

function metadataProblem(values: Record<string, string | string[]>, where: string): string | undefined {
  const names = Object.keys(values);
  if (names.length > MAX_METADATA) return `${where} has ${names.length} entries, more than ${MAX_METADATA}`;
  for (const name of names) {
    const bad = headerNameProblem(name);
    if (bad !== undefined) return `${where}: ${bad}`;
    if (RESERVED.test(name))
      return `${where}: ${name} is sent by the protocol itself (grpc-*, connect-*, content-type, te)`;
    if (CONNECTION_SPECIFIC.test(name))
      return `${where}: ${name} is a connection-specific header, which HTTP/2 forbids (RFC 9113 §8.2.2): native gRPC could not send it`;
    const value = values[name] as string | string[];
    for (const one of Array.isArray(value) ? value : [value]) {
      const problem = headerValueProblem(one);
      if (problem !== undefined) return `${where}.${name} ${problem}`;
      if (one.length > MAX_VALUE_BYTES)
        return `${where}.${name} is ${one.length} characters, more than ${MAX_VALUE_BYTES}`;
      if (name.toLowerCase().endsWith('-bin') && !BASE64.test(one))
        return `${where}.${name} (a -bin entry) is not base64`;
    }
  }
  return undefined;
}

function statusProblem(status: GrpcAnswerStatus): string | undefined {
  if (grpcCodeOf(status.code) === undefined) {
    return `status.code ${JSON.stringify(status.code)} is no gRPC status: a name (${GRPC_CODE_NAMES.join(', ')}, any case) or 0-16`;
  }
  const message = status.message ?? '';
  if (message.length > MAX_STATUS_MESSAGE) return `status.message is longer than ${MAX_STATUS_MESSAGE} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(message)) return 'status.message has a control character (CR, LF, …)';
  const details = status.details ?? [];
  if (details.length > MAX_DETAILS) return `status.details has ${details.length} entries, more than ${MAX_DETAILS}`;
  for (const detail of details) {
    if (!TYPE_NAME.test(detail.type))
      return `status.details type ${JSON.stringify(detail.type)} is no full message name`;
    if (!BASE64.test(detail.value)) return `status.details value of ${detail.type} is not base64`;
  }
  return undefined;
}

/** Every string in `value` (keys too), for the template check. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

/** The limits a gRPC answer is checked against. */
export interface GrpcAnswerLimits {
  maxBodyBytes: number;
  maxDelayMs: number;
  maxStreamEvents: number;
  template: boolean;
  /** The answer's `fault`, when it has one. */
  fault: unknown;
}

/** The first problem of a gRPC answer beyond its schema, in words; `undefined` when none. */
export function grpcAnswerProblem(answer: GrpcAnswer, limits: GrpcAnswerLimits): string | undefined {
  if (answer.message !== undefined && (answer.messages !== undefined || answer.on !== undefined)) {
    return 'give message (a unary or client-streaming answer) or messages and on (streams), not both';
  }
  if (limits.fault !== undefined && limits.fault !== 'reset') {
    return `fault ${JSON.stringify(limits.fault)} does not apply to a gRPC call; fault reset cuts the stream after the messages`;
  }
  const sent = [...(answer.messages ?? []), ...(answer.on ?? []).flatMap((reply) => reply.send ?? [])];
  if (sent.length > limits.maxStreamEvents) {
    return `the answer sends ${sent.length} messages, more than ${limits.maxStreamEvents} (MOCKPOINT_MAX_STREAM_EVENTS)`;
  }
  const late = sent.find((one) => (one.delay ?? 0) > limits.maxDelayMs);
  if (late !== undefined)
    return `a message's delay ${late.delay} is more than ${limits.maxDelayMs} (MOCKPOINT_MAX_DELAY_MS)`;
  const size = new TextEncoder().encode(JSON.stringify(answer)).byteLength;
  if (size > limits.maxBodyBytes) return `the answer is ${size} bytes of JSON, more than ${limits.maxBodyBytes}`;
  if (answer.status !== undefined) {
    const problem = statusProblem(answer.status);
    if (problem !== undefined) return problem;
  }
  for (const [where, values] of [
    ['metadata', answer.metadata],
    ['trailers', answer.trailers],
  ] as const) {
    const problem = values === undefined ? undefined : metadataProblem(values, where);
    if (problem !== undefined) return problem;
  }
  if (limits.template) {
    for (const text of strings(answer)) {
      const problem = templateSyntaxProblem(text);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
