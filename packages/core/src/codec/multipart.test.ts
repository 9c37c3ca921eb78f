import { describe, expect, it } from 'vitest';
import { boundaryOf, MAX_PARTS, MultipartProblem, readMultipart } from './multipart.js';

const encoder = new TextEncoder();
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const listed = (bytes: Uint8Array | undefined) => [...(bytes ?? [])];

/** A body as FormData makes it: undici's encoder, not ours. */
async function encoded(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const boundary = boundaryOf(request.headers.get('content-type') ?? '');
  if (boundary === undefined) throw new Error('no boundary');
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary };
}

describe('boundaryOf', () => {
  it('reads a plain or quoted boundary of multipart/form-data only', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(boundaryOf('application/json')).toBeUndefined();
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
    expect(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeUndefined();
  });
});

describe('readMultipart', () => {
  it('reads the fields and files FormData sends, bytes exact', async () => {
    const binary = new Uint8Array(256).map((_, index) => index);
    const form = new FormData();
    form.append('purpose', 'fine-tune');
    form.append('file', new Blob([binary], { type: 'application/octet-stream' }), 'data "1".bin');
    form.append('metadata[key]', 'värde ✓');
    const { bytes, boundary } = await encoded(form);
    const parts = readMultipart(bytes, boundary);
    expect(parts.map((part) => part.name)).toEqual(['purpose', 'file', 'metadata[key]']);
    expect(text(parts[0]?.body)).toBe('fine-tune');
    expect(parts[1]?.filename).toBe('data "1".bin');
    expect(parts[1]?.contentType).toBe('application/octet-stream');
    expect(listed(parts[1]?.body)).toEqual([...binary]);
    expect(text(parts[2]?.body)).toBe('värde ✓');
  });

  it('keeps a value that holds CRLF and dashes, and a part with no headers is refused', () => {
    const body = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nline\r\n--x\r\n\r\n--b--\r\n';
    expect(text(readMultipart(encoder.encode(body), 'b')[0]?.body)).toBe('line\r\n--x\r\n');
    expect(() => readMultipart(encoder.encode('--b\r\n\r\nvalue\r\n--b--'), 'b')).toThrow(/Content-Disposition/);
  });

  it('refuses what is not a form, naming why', () => {
    const refused = (body: string) => () => readMultipart(encoder.encode(body), 'b');
    expect(refused('{"a":1}')).toThrow(/holds no boundary/);
    expect(refused('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue')).toThrow(/does not close/);
    expect(refused('--b\r\nContent-Disposition: form-data; name="a"')).toThrow(MultipartProblem);
    expect(refused('--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--')).toThrow(/names no field/);
  });

  it(`refuses more than ${MAX_PARTS} parts`, () => {
    const part = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n';
    expect(readMultipart(encoder.encode(`${part.repeat(MAX_PARTS)}--b--`), 'b')).toHaveLength(MAX_PARTS);
    expect(() => readMultipart(encoder.encode(`${part.repeat(MAX_PARTS + 1)}--b--`), 'b')).toThrow(/more than/);
  });

  it('reads random bytes in a file whole, whatever they hold', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    };
    for (let round = 0; round < 20; round++) {
      const binary = new Uint8Array(1 + (random() << 4)).map(() => random());
      const form = new FormData();
      form.append('file', new Blob([binary]), 'f.bin');
      const { bytes, boundary } = await encoded(form);
      expect(listed(readMultipart(bytes, boundary)[0]?.body)).toEqual([...binary]);
    }
  });
});
