/**
 * AWS's binary event stream, for Bedrock's ConverseStream: each event one
 * frame (prelude, CRCs, the headers `:event-type`, `:content-type` and
 * `:message-type`, the JSON payload), encoded by the AWS SDK's own codec
 * (`@smithy/core/event-streams`, the code `@smithy/eventstream-codec` now
 * re-exports). The codec is loaded only when a ConverseStream answer is first
 * sent (`import()`, about 50 ms once on Node; none of it for a server that
 * never answers one), from where {@link useEventStreamCodec} says.
 *
 * @module
 */
import { MockpointError } from '../../wire/errors.js';
import { isExceptionEvent } from './bedrock.js';
import type { LlmEvent } from './llm-wire.js';

const EVENT = { type: 'string', value: 'event' } as const;
const EXCEPTION = { type: 'string', value: 'exception' } as const;

/** Encodes one event as its frame. */
export type EventFrameEncoder = (event: LlmEvent) => Uint8Array;

let encoder: EventFrameEncoder | undefined;
let loading: Promise<EventFrameEncoder> | undefined;

/** What is used of the codec's module. */
export type EventStreamCodecModule = Pick<typeof import('@smithy/core/event-streams'), 'EventStreamCodec'>;

/** Where the codec comes from: none until an adapter or the daemon says (a Workers bundle never does). */
let loadCodec: (() => Promise<EventStreamCodecModule>) | undefined;

/**
 * Where the codec comes from: `() => import('@smithy/core/event-streams')`.
 * The `serve()` of the Node, Bun and Deno adapters pass it
 * (adapter/event-stream-codec.ts) and so does the daemon (whose single
 * executable then embeds it); the core itself never names the module, so a
 * Workers bundle does not, and there a ConverseStream answers
 * `EVENT_STREAM_UNSUPPORTED`.
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
  const load =
    loadCodec ??
    (() =>
      Promise.reject(
        new Error("none was given: the daemon and the Node, Bun and Deno adapters' serve() give it, Workers cannot"),
      ));
  loading ??= load().then(
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
        `Bedrock's converse-stream needs the AWS event stream codec (@smithy/core/event-streams), which could not be loaded (${error instanceof Error ? error.message : String(error)}); converse (JSON) answers here`,
      );
    },
  );
  return loading;
}
