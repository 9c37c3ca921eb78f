/**
 * AWS's binary event stream, for Bedrock's ConverseStream: each event one
 * frame (prelude, CRCs, the headers `:event-type`, `:content-type` and
 * `:message-type`, the JSON payload), encoded by the AWS SDK's own codec
 * (`@smithy/core/event-streams`, the code `@smithy/eventstream-codec` now
 * re-exports). The codec is loaded only when a ConverseStream answer is first
 * compiled or sent (`import()`: about 100 ms and 20 kB on Node, none of it for
 * a server that never answers one), so the core's entries stay as they were.
 *
 * @module
 */
import type { LlmEvent } from './llm-wire.js';

/** Encodes one event as its frame. */
export type EventFrameEncoder = (event: LlmEvent) => Uint8Array;

let encoder: EventFrameEncoder | undefined;
let loading: Promise<EventFrameEncoder> | undefined;

/** The encoder once loaded (see {@link loadEventFrameEncoder}), else `undefined`. */
export function eventFrameEncoder(): EventFrameEncoder | undefined {
  return encoder;
}

/** Loads the codec (once; a failed load is tried again next time). */
export function loadEventFrameEncoder(): Promise<EventFrameEncoder> {
  loading ??= import('@smithy/core/event-streams').then(
    ({ EventStreamCodec }) => {
      const utf8 = new TextEncoder();
      const text = new TextDecoder();
      const codec = new EventStreamCodec(
        (bytes) => text.decode(bytes),
        (value) => utf8.encode(value),
      );
      encoder = (event) =>
        codec.encode({
          headers: {
            ':event-type': { type: 'string', value: event.event ?? 'chunk' },
            ':content-type': { type: 'string', value: 'application/json' },
            ':message-type': { type: 'string', value: 'event' },
          },
          body: utf8.encode(event.data),
        });
      return encoder;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
