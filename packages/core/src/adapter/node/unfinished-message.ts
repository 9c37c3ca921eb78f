/**
 * How many bytes of an unfinished message a WebSocket client has sent: read
 * off the frames' headers as the bytes pass (RFC 6455 §5.2), beside `ws`,
 * which keeps a message's fragments until the last one comes and says nothing
 * until then. Data frames count from their first byte until a frame with FIN
 * ends the message; control frames (ping, pong, close), which may come between
 * fragments, count for nothing and end nothing.
 *
 * @module
 */

/** The longest frame header: 2 bytes, an 8-byte length, a 4-byte mask. */
const MAX_HEADER = 14;

/** The size of a frame header whose first `have` bytes are in `header`, or undefined before its second byte. */
function headerSize(header: Uint8Array, have: number): number | undefined {
  if (have < 2) return undefined;
  const second = header[1] as number;
  const length = second & 0x7f;
  return 2 + (length === 126 ? 2 : length === 127 ? 8 : 0) + (second & 0x80 ? 4 : 0);
}

/** The payload length a complete header declares. */
function payloadLength(header: Uint8Array): number {
  const length = (header[1] as number) & 0x7f;
  if (length < 126) return length;
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (length === 126) return view.getUint16(2);
  return view.getUint32(2) * 2 ** 32 + view.getUint32(6);
}

/** Follows one connection's incoming frames; {@link take} each chunk as it arrives. */
export class UnfinishedMessage {
  readonly #header = new Uint8Array(MAX_HEADER);
  #have = 0;
  /** Payload bytes of the current frame still to come. */
  #left = 0;
  #control = false;
  #fin = false;
  /** Bytes of the message in progress so far (0 between messages). */
  #held = 0;

  /** Takes the next chunk the client sent; returns the bytes of an unfinished message held after it. */
  take(chunk: Uint8Array): number {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.#left > 0) {
        const n = Math.min(this.#left, chunk.byteLength - at);
        this.#left -= n;
        at += n;
        if (!this.#control) this.#held += n;
        if (this.#left === 0) this.#frameDone();
        continue;
      }
      this.#header[this.#have++] = chunk[at++] as number;
      const size = headerSize(this.#header, this.#have);
      if (size === undefined || this.#have < size) continue;
      const first = this.#header[0] as number;
      this.#fin = (first & 0x80) !== 0;
      this.#control = (first & 0x08) !== 0;
      this.#left = payloadLength(this.#header);
      this.#have = 0;
      if (this.#left === 0) this.#frameDone();
    }
    return this.#held;
  }

  #frameDone(): void {
    if (!this.#control && this.#fin) this.#held = 0;
  }
}
