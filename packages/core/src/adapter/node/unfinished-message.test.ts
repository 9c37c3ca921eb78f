// The unfinished-message tally over seeded random frame sequences, cut into random chunks: after
// each chunk it says exactly how many bytes of data frames of the message in progress have come.
import { prng } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { UnfinishedMessage } from './unfinished-message.js';

/** A masked client frame with `length` payload bytes (content is irrelevant to the tally). */
function frame(opcode: number, fin: boolean, length: number): Uint8Array {
  const size = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const out = new Uint8Array(size + 4 + length);
  out[0] = (fin ? 0x80 : 0) | opcode;
  const view = new DataView(out.buffer);
  if (length < 126) out[1] = 0x80 | length;
  else if (length < 65536) {
    out[1] = 0x80 | 126;
    view.setUint16(2, length);
  } else {
    out[1] = 0x80 | 127;
    view.setUint32(6, length);
  }
  return out;
}

describe('UnfinishedMessage', () => {
  it('seeded: random messages, fragments and interleaved pings in random chunks give the exact bytes held', () => {
    const random = prng(0x5eed49);
    for (let run = 0; run < 20; run++) {
      // The stream, and after each of its bytes the bytes held once that byte is taken.
      const bytes: number[] = [];
      const expected: number[] = [];
      let held = 0;
      const push = (one: Uint8Array, isData: boolean, endsMessage: boolean, headerSize: number) => {
        one.forEach((byte, i) => {
          bytes.push(byte);
          const intoPayload = i - headerSize + 1;
          const now = isData && intoPayload > 0 ? held + intoPayload : held;
          expected.push(isData && endsMessage && i === one.length - 1 ? 0 : now);
        });
        if (isData) held = endsMessage ? 0 : held + one.length - headerSize;
      };
      for (let m = 0; m < 8; m++) {
        const fragments = 1 + Math.floor(random() * 3);
        for (let f = 0; f < fragments; f++) {
          const length = [0, 5, 125, 126, 300, 70_000][Math.floor(random() * 6)] as number;
          const last = f === fragments - 1;
          const one = frame(f === 0 ? 0x1 : 0x0, last, length);
          push(one, true, last, one.length - length);
          if (random() < 0.5) {
            const ping = frame(0x9, true, Math.floor(random() * 126));
            push(ping, false, false, 6);
          }
        }
      }
      const tally = new UnfinishedMessage();
      const stream = Uint8Array.from(bytes);
      let at = 0;
      while (at < stream.length) {
        const size = 1 + Math.floor(random() * 4000);
        const end = Math.min(stream.length, at + size);
        expect(tally.take(stream.subarray(at, end))).toBe(expected[end - 1]);
        at = end;
      }
      expect(tally.take(new Uint8Array(0))).toBe(0);
    }
  });
});
