/**
 * One message of AWS's binary event stream (`application/vnd.amazon.eventstream`,
 * the framing of Bedrock's ConverseStream): a prelude (total length, headers
 * length, the prelude's CRC-32), the headers, the payload and the message's
 * CRC-32, every number big-endian. Only string headers (type 7) are written:
 * Bedrock's events carry no other. Plain JavaScript, so it runs wherever the
 * core does, Workers included.
 *
 * @module
 */
import { crc32 } from '../../codec/crc32.js';

/** The prelude: total length, headers length, prelude CRC (4 bytes each). */
const PRELUDE_BYTES = 12;
/** The message CRC at the end. */
const CRC_BYTES = 4;
/** Header value type 7: a string, its length in 2 bytes. */
const STRING_TYPE = 7;
/** A header name's length is one byte, a string value's two. */
const MAX_NAME_BYTES = 0xff;
const MAX_VALUE_BYTES = 0xffff;

const utf8 = new TextEncoder();

/**
 * The frame of `payload` with string `headers`, in their order.
 * @throws RangeError when a header name is over 255 bytes or a value over 65,535 (UTF-8).
 * @example eventStreamFrame({ ':message-type': 'event' }, new Uint8Array())
 */
export function eventStreamFrame(headers: Readonly<Record<string, string>>, payload: Uint8Array): Uint8Array {
  const encoded = Object.entries(headers).map(([name, value]) => {
    const nameBytes = utf8.encode(name);
    const valueBytes = utf8.encode(value);
    if (nameBytes.length > MAX_NAME_BYTES || valueBytes.length > MAX_VALUE_BYTES) {
      throw new RangeError(`event stream header ${JSON.stringify(name.slice(0, 40))} is too long`);
    }
    return { nameBytes, valueBytes };
  });
  const headersLength = encoded.reduce((sum, h) => sum + 1 + h.nameBytes.length + 1 + 2 + h.valueBytes.length, 0);
  const total = PRELUDE_BYTES + headersLength + payload.length + CRC_BYTES;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(bytes, 0, 8));
  let at = PRELUDE_BYTES;
  for (const { nameBytes, valueBytes } of encoded) {
    bytes[at++] = nameBytes.length;
    bytes.set(nameBytes, at);
    at += nameBytes.length;
    bytes[at++] = STRING_TYPE;
    view.setUint16(at, valueBytes.length);
    at += 2;
    bytes.set(valueBytes, at);
    at += valueBytes.length;
  }
  bytes.set(payload, at);
  at += payload.length;
  view.setUint32(at, crc32(bytes, 0, at));
  return bytes;
}
