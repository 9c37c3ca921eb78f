/**
 * Server-sent events as bytes (the `text/event-stream` format of the HTML
 * standard): the frames the journal stream writes.
 *
 * @module
 */

const encoder = new TextEncoder();

/** One event. */
export interface SseEvent {
  /** The event type; a client's `EventSource` dispatches it under this name. @default 'message' */
  event?: string;
  /** Sets the client's last event id (sent back as `Last-Event-ID` when it reconnects). */
  id?: string | number;
  /** How long a client waits before reconnecting, in milliseconds. */
  retry?: number;
  /** The data; each line becomes its own `data:` field (the client joins them with `\n`). */
  data: string;
}

/** The text of one event, blank line included. */
export function sseEventText(event: SseEvent): string {
  let text = '';
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  // CR, LF and CRLF all end a line in the format: each part is a data line of its own.
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** One event as UTF-8 bytes. */
export function sseEvent(event: SseEvent): Uint8Array {
  return encoder.encode(sseEventText(event));
}

/** A comment line: ignored by clients, it keeps proxies from closing an idle connection. */
export const SSE_HEARTBEAT: Uint8Array = encoder.encode(': keep-alive\n\n');
