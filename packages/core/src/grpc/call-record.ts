/**
 * A call's messages both ways, kept for its journal entry in proto3 JSON and
 * bounded: at most {@link MAX_KEPT} messages each way and
 * {@link JOURNAL_BODY_LIMIT} characters of JSON in all; past that the rest are
 * counted, not kept (`messagesDropped`). The call's `message` is the first
 * request only when it was kept: one larger than the bound is counted too.
 *
 * @module
 */
import type { GrpcMark } from '../api/grpc-json.js';
import type { StateMark } from '../api/state-json.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import type { SignatureMark } from '../signing/signature-settings.js';
import type { GrpcJournalMark } from './grpc-reply.js';

/** Messages kept each way. */
export const MAX_KEPT = 100;

/** What one call did, filled in as it is answered (the journal's `grpc` mark). */
export type GrpcCall = Omit<GrpcMark, 'service' | 'method'> & {
  /** Characters of JSON kept so far (not journaled). */
  kept?: number;
  /** Set when a route answered with a reset: the stream is cut, not ended with a status (not journaled). */
  reset?: boolean;
  /** The id of the route that answered (journaled as `answeredBy: { route }`); absent: schema mode. */
  route?: string;
  /** Set when a queued answer answered (journaled as `answeredBy: { queue: true }`). */
  queued?: true;
  /** The request body as sent, for the signature check (not journaled). */
  body?: Uint8Array;
  /** How the call was answered when a step of the pipeline answered it (not journaled in `grpc`). */
  mark?: GrpcJournalMark;
  /** The signature check's outcome (journaled as the entry's `signature`, not in `grpc`). */
  signature?: SignatureMark;
  /** The scenarios read or moved (journaled as the entry's `state`, not in `grpc`). */
  state?: StateMark;
};

/** Whether `json` was kept in `list` (else it is counted in `messagesDropped`); `known`: its JSON length. */
function keep(call: GrpcCall, list: unknown[], json: unknown, known?: number): boolean {
  if (list.length >= MAX_KEPT) {
    call.messagesDropped = (call.messagesDropped ?? 0) + 1;
    return false;
  }
  const size = known ?? (JSON.stringify(json) ?? '').length;
  const kept = call.kept ?? 0;
  if (kept + size > JOURNAL_BODY_LIMIT) {
    call.messagesDropped = (call.messagesDropped ?? 0) + 1;
    return false;
  }
  call.kept = kept + size;
  list.push(json);
  return true;
}

/** Notes a request message received. The first, when kept, is also the call's `message`. */
export function noteRequest(call: GrpcCall | undefined, json: unknown): void {
  if (call === undefined) return;
  const first = call.messages === undefined;
  call.messages ??= [];
  if (keep(call, call.messages, json) && first) call.message = json;
}

/** Notes a response message sent (`size`: the length of its JSON text, when known). */
export function noteResponse(call: GrpcCall | undefined, json: unknown, size?: number): void {
  if (call === undefined) return;
  call.responses ??= [];
  keep(call, call.responses, json, size);
}

/** The call's mark as journaled: without the working fields. */
export function markOf(call: GrpcCall): Omit<GrpcMark, 'service' | 'method'> {
  const {
    kept: _kept,
    reset: _reset,
    route: _route,
    queued: _queued,
    body: _body,
    mark: _mark,
    signature: _signature,
    state: _state,
    ...mark
  } = call;
  return mark;
}
