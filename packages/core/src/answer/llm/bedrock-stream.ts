/**
 * Bedrock's ConverseStream events as AWS event stream frames
 * (event-stream-frame.ts): each event one frame with the headers
 * `:event-type`, `:content-type` and `:message-type` and its JSON payload; an
 * exception event carries `:exception-type` and `:message-type: exception`
 * instead. Written in the tree: the AWS SDK's decoder is the tests' oracle.
 *
 * @module
 */
import { isExceptionEvent } from './bedrock.js';
import { eventStreamFrame } from './event-stream-frame.js';
import type { LlmEvent } from './llm-wire.js';

const utf8 = new TextEncoder();

/** One event as its frame. */
export function bedrockEventFrame(event: LlmEvent): Uint8Array {
  const name = event.event ?? 'chunk';
  const headers: Record<string, string> = isExceptionEvent(event.event)
    ? { ':exception-type': name, ':content-type': 'application/json', ':message-type': 'exception' }
    : { ':event-type': name, ':content-type': 'application/json', ':message-type': 'event' };
  return eventStreamFrame(headers, utf8.encode(event.data));
}
