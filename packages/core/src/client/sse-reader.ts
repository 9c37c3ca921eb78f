/**
 * Reads server-sent events from a Fetch-API body, as the HTML standard's
 * `text/event-stream` parser does (any of CRLF, LF and CR ends a line; comment
 * lines are skipped; `data` lines are joined with LF), on every runtime.
 *
 * @module
 */

/** One dispatched event. */
export interface SseMessage {
  /** The event type. @default 'message' */
  event: string;
  data: string;
  /** The `id` field of this event, when it had one. */
  id?: string;
  /** The `retry` field, in milliseconds, when it had one. */
  retry?: number;
}

/** The events of `body`, in order, until it ends. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let event: Partial<SseMessage> & { dataLines: string[] } = { dataLines: [] };
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      finished = done;
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const lf = buffer.indexOf('\n', start);
        const cr = buffer.indexOf('\r', start);
        let end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        if (end === -1) break;
        // A CR at the very end may be the first half of a CRLF still on its way.
        if (end === cr && cr === buffer.length - 1 && !done) break;
        const line = buffer.slice(start, end);
        if (buffer[end] === '\r' && buffer[end + 1] === '\n') end++;
        start = end + 1;
        if (line === '') {
          if (event.dataLines.length > 0) {
            const message: SseMessage = { event: event.event || 'message', data: event.dataLines.join('\n') };
            if (event.id !== undefined) message.id = event.id;
            if (event.retry !== undefined) message.retry = event.retry;
            yield message;
          }
          event = { dataLines: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') event.dataLines.push(value);
        else if (field === 'event') event.event = value;
        else if (field === 'id' && !value.includes('\0')) event.id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
      }
      buffer = buffer.slice(start);
      if (done) return;
    }
  } finally {
    // Left early (the caller stopped reading): the connection is not needed any more.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
