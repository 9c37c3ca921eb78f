/**
 * The pipeline's cross-cutting steps for a gRPC-family call (Connect, gRPC-Web,
 * native gRPC): the signature check and the chaos step run on the call as on
 * an HTTP request, through the same step code (pipeline/signature-step.ts,
 * pipeline/chaos-step.ts); their verdict is turned into the protocol's own form
 * here: a 503 fault `unavailable`, a 401 `unauthenticated`, a 429
 * `resource_exhausted`, a reset the stream reset, a hang the call held. A name
 * known to have neither pays two Map lookups.
 *
 * @module
 */
import type { EndpointAnswer } from '../answer/endpoint-answer.js';
import { NAMESPACE_CHAOS_KEY } from '../api/chaos.js';
import type { GrpcCallInfo, GrpcReply } from '../grpc/grpc-reply.js';
import type { RecordedRequest } from '../journal/journal-entry.js';
import { chaosStep } from './pipeline/chaos-step.js';
import { Exchange, type PipelineParts } from './pipeline/exchange.js';
import { signatureStep } from './pipeline/signature-step.js';
import { FIRST_BYTES, runSteps, type Step, type Verdict } from './pipeline/step.js';

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

/** The gRPC status code an HTTP status stands for. */
export function grpcCodeOfStatus(status: number): number {
  return GRPC_CODE_OF_STATUS[status] ?? 2;
}

/** The end of the gate: the call goes on (`undefined`). */
const PASS: Step = { name: 'gRPC call goes on', run: () => PASS_VERDICT, reads: FIRST_BYTES };
const PASS_VERDICT = Object.freeze({}) as Verdict;

const STEPS: readonly Step[] = [signatureStep, chaosStep, PASS];
/** A call whose body the adapter did not keep (a client stream on native gRPC) is not judged by signature. */
const UNSIGNED_STEPS: readonly Step[] = [chaosStep, PASS];

/** Whether `name` may have a signature check or chaos (unknown counts): else the call skips the gate. */
export function mayGate(parts: PipelineParts, name: string): boolean {
  const { signatureChecks, chaosPlans } = parts.endpoints;
  return (
    signatureChecks.get(name) !== null || chaosPlans.get(name) !== null || chaosPlans.get(NAMESPACE_CHAOS_KEY) !== null
  );
}

function rawHeadersOf(headers: Headers): string[] {
  const raw: string[] = [];
  for (const [name, value] of headers) raw.push(name, value);
  return raw;
}

/** The message of a coded error answer (`{ success: false, error: { message } }`). */
function messageOf(answer: EndpointAnswer): string {
  if (answer.kind !== 'respond' || answer.body === null) return '';
  try {
    const text = typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
    return String((JSON.parse(text) as { error?: { message?: unknown } }).error?.message ?? '');
  } catch {
    return '';
  }
}

/** The headers of an error answer worth passing on as metadata (`retry-after`, rate-limit headers). */
function metadataOf(answer: EndpointAnswer): Record<string, string> | undefined {
  if (answer.kind !== 'respond') return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (name === 'retry-after' || name.startsWith('ratelimit') || name.startsWith('x-ratelimit')) {
      out[name] = String(value);
    }
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A step's verdict as the call's reply: a status, a reset, or a hold then a reset. */
export function replyOfVerdict(verdict: Verdict, by: string): GrpcReply {
  const { answer, mark } = verdict;
  const reply: GrpcReply = { by, messages: [] };
  if (mark !== undefined) reply.mark = mark;
  if (answer.delay > 0) reply.delay = answer.delay;
  if (answer.kind === 'fault') {
    reply.reset = true;
    if (answer.fault === 'hang') reply.hold = answer.release ?? new AbortController().signal;
    return reply;
  }
  const status = answer.kind === 'respond' ? answer.status : 500;
  reply.status = { code: grpcCodeOfStatus(status), message: messageOf(answer) };
  const metadata = metadataOf(answer);
  if (metadata !== undefined) reply.metadata = metadata;
  return reply;
}

/**
 * The signature check and chaos for a call to `name`: a reply that ends it
 * (a fault, a refused signature); or one with `schema: true`, the chaos
 * latency as `delay` and the check's outcome (`signature`), for the call to go
 * on after it, and its bandwidth; or `undefined`: nothing to do.
 * Asked only when {@link mayGate}.
 */
export async function gateGrpcCall(
  parts: PipelineParts,
  name: string,
  info: GrpcCallInfo,
): Promise<GrpcReply | undefined> {
  const body = info.body ?? new Uint8Array(0);
  const steps = info.body === undefined ? UNSIGNED_STEPS : STEPS;
  const target = `/${info.service}/${info.method}`;
  const request: RecordedRequest = {
    method: 'POST',
    target,
    rawHeaders: rawHeadersOf(info.headers),
    body,
    bodyTruncated: false,
  };
  const exchange = new Exchange(parts, name, target, request, undefined, undefined);
  const verdict = await runSteps(steps, exchange);
  const { signature } = request;
  if (verdict !== PASS_VERDICT) {
    const chaos = verdict.mark?.answeredBy;
    const by = typeof chaos === 'object' && 'chaos' in chaos ? 'chaos' : 'the signature check';
    const reply = replyOfVerdict(verdict, by);
    if (signature !== undefined) reply.signature = signature;
    return reply;
  }
  const delay = exchange.chaos?.delay ?? 0;
  const bandwidth = exchange.chaos?.bandwidth;
  if (delay <= 0 && signature === undefined && bandwidth === undefined) return undefined;
  const pass: GrpcReply = { by: 'chaos', messages: [], schema: true, delay };
  if (signature !== undefined) pass.signature = signature;
  if (bandwidth !== undefined) pass.bandwidth = bandwidth;
  return pass;
}
