// A reset before the first message of a streaming Connect or gRPC-Web call (a chaos `reset`, a route's or
// a queued `reset` with no message before it) is the connection reset with nothing sent, on the real
// daemon over a raw socket, as for a unary call: not a 200 head then a cut, nor Node's Fetch layer's 500
// text. A reset after messages still sends them first; with the chaos cleared the stream answers.
import { CHAT_PROTO } from '@mockpoint/testkit/grpc-protos';
import { closeExchanges, dechunk, exchange } from '@mockpoint/testkit/raw-http';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
const daemon = sharedDaemon();
afterEach(() => closeExchanges());

/** One message frame: flag 0, the big-endian length, the bytes. */
function framed(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + bytes.length);
  out.writeUInt32BE(bytes.length, 1);
  out.set(bytes, 5);
  return out;
}

/** `Ask { text: "a" }`: as Connect's JSON stream sends it, and in protobuf's binary form for gRPC-Web. */
const PROTOCOLS = [
  {
    id: 'Connect (JSON stream)',
    headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1' },
    body: framed(new TextEncoder().encode('{"text":"a"}')),
  },
  {
    id: 'gRPC-Web',
    headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
    body: framed(Uint8Array.of(0x0a, 0x01, 0x61)),
  },
] as const;

async function save(path: string, body: unknown, method = 'PUT'): Promise<void> {
  const { url } = await daemon();
  const answer = await fetch(`${url}/api/endpoints/${path}`, { method, body: JSON.stringify(body) });
  expect(answer.status, await answer.text()).toBeLessThan(300);
}

/** Chat's protos in a package of the name's own (a service belongs to one name). */
async function define(name: string): Promise<void> {
  await save(`${name}/grpc`, { protos: { 'chat.proto': CHAT_PROTO.replace('chat.v1', name.replaceAll('-', '')) } });
}

/** A server-streaming `Listen` call to `name`'s Chat over a raw HTTP/1.1 socket: what arrived, and how the connection ended. */
async function listen(name: string, protocol: (typeof PROTOCOLS)[number]) {
  const { url } = await daemon();
  const port = Number(new URL(url).port);
  const headers = { ...protocol.headers, 'content-length': String(protocol.body.length), connection: 'close' };
  const call = exchange(port, `/${name.replaceAll('-', '')}.Chat/Listen`, headers, 'POST');
  call.socket.write(protocol.body);
  const ended = await call.ended;
  return { ended, text: call.text() };
}

const MESSAGES = { grpc: { messages: [{ message: { text: 'one' } }, { message: { text: 'two' } }] } };

describe.each(PROTOCOLS.map((protocol, i) => [protocol.id, protocol, i] as const))('%s', (_id, protocol, i) => {
  it('a chaos reset before the first message sends nothing; cleared, the stream answers', async () => {
    const name = `sr-chaos-${i}`;
    await define(name);
    await save(`${name}/routes`, { routes: [{ id: 'r', match: { grpc: { method: 'Listen' } }, answer: MESSAGES }] });
    await save(`${name}/chaos`, { rate: 1, faults: ['reset'] });
    for (let n = 0; n < 3; n++) expect(await listen(name, protocol)).toEqual({ ended: expect.any(String), text: '' });
    await save(`${name}/chaos`, {}, 'DELETE');
    const answered = await listen(name, protocol);
    expect(answered.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(dechunk(answered.text).body).toContain('two');
  });

  it('a route’s reset with no message, and a queued reset, send nothing; after messages they go first', async () => {
    const name = `sr-route-${i}`;
    await define(name);
    const route = (answer: Record<string, unknown>) => ({
      routes: [{ id: 'r', match: { grpc: { method: 'Listen' } }, answer }],
    });
    await save(`${name}/routes`, route({ fault: 'reset', grpc: { messages: [] } }));
    expect((await listen(name, protocol)).text).toBe('');
    await save(`${name}/routes`, route(MESSAGES));
    await save(`${name}/queue`, { answers: [{ fault: 'reset', grpc: { messages: [] } }] }, 'POST');
    expect((await listen(name, protocol)).text).toBe('');
    await save(`${name}/routes`, route({ fault: 'reset', ...MESSAGES }));
    const cut = await listen(name, protocol);
    expect(cut.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(dechunk(cut.text)).toMatchObject({ body: expect.stringContaining('two'), complete: false });
  });
});
