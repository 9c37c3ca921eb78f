// Seeded fuzz of the two places TLS brings bytes in (random code points, against
// the built daemon with --https and hosts mapped, on 127.0.0.1): a CONNECT target
// (read by acceptConnect and the host table) and a TLS ClientHello's SNI name
// (read by the SNI callback, which may sign a certificate). Every CONNECT is
// answered (200 for a mapped or own host, 4xx otherwise) or closed, every
// handshake completes or fails cleanly, and /api/health answers after.
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 3535;
const CASES = 150;

/** The first line the daemon answers a raw request with, or 'closed'. */
function firstLine(port: number, head: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n')) socket.destroy();
    });
    socket.on('error', () => resolve(text === '' ? 'closed' : (text.split('\r\n')[0] as string)));
    socket.on('close', () => resolve(text === '' ? 'closed' : (text.split('\r\n')[0] as string)));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.on('timeout', () => reject(new Error(`no answer to ${JSON.stringify(head.toString('latin1'))}`)));
    socket.write(head);
  });
}

/** Whether a handshake naming `servername` completes ('ok'), fails ('failed'), or the client would not send it ('unsent'). */
function handshake(port: number, servername: string): Promise<'ok' | 'failed' | 'unsent'> {
  return new Promise((resolve) => {
    let socket: ReturnType<typeof connectTls>;
    try {
      socket = connectTls({
        host: '127.0.0.1',
        port,
        servername,
        rejectUnauthorized: false,
        ALPNProtocols: ['h2', 'http/1.1'],
      });
    } catch {
      resolve('unsent');
      return;
    }
    socket.setTimeout(5000, () => socket.destroy());
    socket.once('secureConnect', () => {
      socket.destroy();
      resolve('ok');
    });
    socket.once('error', () => resolve('failed'));
    socket.once('close', () => resolve('failed'));
  });
}

it(`answers ${CASES} random CONNECT targets and ${CASES} random SNI names (seed ${SEED}), and stays healthy`, async () => {
  const daemon = await startDaemon({
    args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.github.com=github,*.stripe.com=stripe'],
  });
  const httpsPort = Number(/https:\/\/127\.0\.0\.1:(\d+)/.exec(daemon.startLine)?.[1]);
  const random = prng(SEED);
  const near = (noise: string) =>
    random() < 0.5 ? noise : random() < 0.5 ? `${noise}.stripe.com` : `api.github.com${noise}`;
  const lines = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const target = near(randomText(random, 1 + Math.floor(random() * 40)));
    const port = random() < 0.7 ? ':443' : '';
    const line = await firstLine(
      daemon.port,
      Buffer.from(`CONNECT ${target}${port} HTTP/1.1\r\nHost: x\r\n\r\n`, 'utf8'),
    );
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(line)?.[1] ?? line;
    lines.set(status, (lines.get(status) ?? 0) + 1);
    expect(['200', '400', '403', 'closed'], `CONNECT ${JSON.stringify(target)} → ${line}`).toContain(status);
  }
  expect(lines.get('403')).toBeGreaterThan(0);
  expect(lines.get('200')).toBeGreaterThan(0);
  const outcomes = new Map<string, number>();
  for (let i = 0; i < CASES; i++) {
    const name = near(randomText(random, 1 + Math.floor(random() * 40)));
    const outcome = await handshake(httpsPort, name);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  // A mapped name gets a certificate of its own; any other the daemon's.
  expect(outcomes.get('ok')).toBeGreaterThan(0);
  expect(await handshake(httpsPort, 'a.b.stripe.com')).toBe('ok');
  expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
});
