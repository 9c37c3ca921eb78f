/**
 * AWS's binary event stream, for Bedrock's ConverseStream: each event one
 * frame (prelude, CRCs, the headers `:event-type`, `:content-type` and
 * `:message-type`, the JSON payload), encoded by the AWS SDK's own codec
 * (`@smithy/core/event-streams`, the code `@smithy/eventstream-codec` now
 * re-exports). The codec is loaded only when a ConverseStream answer is first
 * sent (`import()` at run time, about 50 ms once on Node; none of it for a server
 * that never answers one), so the core's entries and bundles stay as they were.
 *
 * @module
 */
import { MockpointError } from '../../wire/errors.js';
import { isExceptionEvent } from './bedrock.js';
import type { LlmEvent } from './llm-wire.js';

const EVENT = { type: 'string', value: 'event' } as const;
const EXCEPTION = { type: 'string', value: 'exception' } as const;

/**
 * The codec's module, named through a constant so that bundlers leave it to
 * the runtime: a Workers bundle (whose bundler cannot take `@smithy/core`'s
 * Node imports) builds as before, and there the load fails with
 * `EVENT_STREAM_UNSUPPORTED`.
 */
const CODEC_MODULE = '@smithy/core/event-streams';

/** Encodes one event as its frame. */
export type EventFrameEncoder = (event: LlmEvent) => Uint8Array;

let encoder: EventFrameEncoder | undefined;
let loading: Promise<EventFrameEncoder> | undefined;

/** What is used of the codec's module. */
export type EventStreamCodecModule = Pick<typeof import('@smithy/core/event-streams'), 'EventStreamCodec'>;

let loadCodec = (): Promise<EventStreamCodecModule> => import(/* @vite-ignore */ CODEC_MODULE);

/**
 * Where the codec comes from, for a bundle that embeds it: the daemon passes
 * `() => import('@smithy/core/event-streams')`, which its single executable
 * bundles (the default import, left to the runtime, finds no `node_modules` there).
 */
export function useEventStreamCodec(load: () => Promise<EventStreamCodecModule>): void {
  loadCodec = load;
  if (encoder === undefined) loading = undefined;
}

/** The encoder once loaded (see {@link loadEventFrameEncoder}), else `undefined`. */
export function eventFrameEncoder(): EventFrameEncoder | undefined {
  return encoder;
}

/** Loads the codec (once; a failed load is tried again next time). */
export function loadEventFrameEncoder(): Promise<EventFrameEncoder> {
  loading ??= loadCodec().then(
    ({ EventStreamCodec }) => {
      const utf8 = new TextEncoder();
      const text = new TextDecoder();
      const codec = new EventStreamCodec(
        (bytes) => text.decode(bytes),
        (value) => utf8.encode(value),
      );
      encoder = (event) => {
        const name = { type: 'string', value: event.event ?? 'chunk' } as const;
        const json = { type: 'string', value: 'application/json' } as const;
        const headers: Record<string, { type: 'string'; value: string }> = isExceptionEvent(event.event)
          ? { ':exception-type': name, ':content-type': json, ':message-type': EXCEPTION }
          : { ':event-type': name, ':content-type': json, ':message-type': EVENT };
        return codec.encode({ headers, body: utf8.encode(event.data) });
      };
      return encoder;
    },
    (error: unknown) => {
      loading = undefined;
      throw new MockpointError(
        'EVENT_STREAM_UNSUPPORTED',
        `Bedrock's converse-stream needs the AWS event stream codec, which this runtime cannot load (${error instanceof Error ? error.message : String(error)}); converse (JSON) answers here`,
      );
    },
  );
  return loading;
}
