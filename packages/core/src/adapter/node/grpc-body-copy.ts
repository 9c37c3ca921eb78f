/**
 * The journal's copy of a native gRPC call's request body, made as the body
 * streams to the call (grpc-native.ts, grpc-direct.ts): its first
 * `JOURNAL_BODY_LIMIT` + 1 bytes (one more tells the journal it was cut).
 *
 * @module
 */
import { JOURNAL_BODY_LIMIT } from '../../registry/limits.js';

/** The journal's copy of a request body: its first bytes, and how many there were. */
export interface BodyCopy {
  chunks: Uint8Array[];
  kept: number;
  seen: number;
}

/** Copies what `copy` still keeps of `chunk`. */
export function keepCopy(copy: BodyCopy, chunk: Uint8Array): void {
  copy.seen += chunk.byteLength;
  const room = JOURNAL_BODY_LIMIT + 1 - copy.kept;
  if (room <= 0) return;
  const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
  copy.chunks.push(Uint8Array.prototype.slice.call(part));
  copy.kept += part.byteLength;
}
