// Unmapped hosts through the forward proxy, passed through to "the network" with
// MOCKPOINT_PROXY_PASS_THROUGH, against the built daemon with curl: the network is a
// local upstream (HTTP, and HTTPS with a CA of its own) on 127.0.0.1, allowed explicitly
// in MOCKPOINT_PROXY_ALLOW_HOSTS (a loopback address is reached only when listed itself).
// An absolute-form request is sent on and its answer streamed back; a CONNECT is a byte
// tunnel (curl's TLS goes to the upstream, trusting the upstream's CA, not the daemon's);
// an address or name the allow list does not name is refused with PROXY_HOST_NOT_ALLOWED;
// without the setting an unmapped host is refused with HOST_NOT_MOCKED, as before.

import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { createCa } from '@mockpoint/core/tls';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterEach, describe, expect, it } from 'vitest';
import { curl } from './helpers/curl.js';
import { makeTempDir, ON_BUN, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const servers: Server[] = [];
const netServers: NetServer[] = [];
afterEach(async () => {
  for (const server of netServers.splice(0)) server.close();
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())),
  );
});

/** Answers every request with what it saw: method, target, Host and body. */
function upstreamHandler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
    res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, body }));
  });
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** The raw answer to one request written on a plain connection to the daemon. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}

function urlHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function errorOf(answer: string): { code: string; message: string } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error;
}

describe('pass-through of unmapped hosts', () => {
  // On Bun.serve an absolute-form target's authority is dropped (docs/runtimes.md): no HOST_NOT_MOCKED there.
  it.skipIf(ON_BUN)(
    'refuses an unmapped host with HOST_NOT_MOCKED unless MOCKPOINT_PROXY_PASS_THROUGH is on',
    async () => {
      const up = await listen(createHttpServer(upstreamHandler));
      const daemon = await startDaemon({
        args: ['--memory', '--proxy-allow-hosts', `127.0.0.1:${up}`, '--hosts', 'api.github.com=github'],
      });
      const refused = await curl(['--proxy', daemon.url, 'http://unmapped.example/x']);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe('HOST_NOT_MOCKED');
      // The daemon's own address (an IP) at another port is still the daemon's, as before.
      const own = await curl(['--proxy', daemon.url, `http://127.0.0.1:${up}/api/health`]);
      expect(JSON.parse(own.body)).toMatchObject({ status: 'ok' });
    },
  );

  it('sends an absolute-form request on to an allowed host and streams its answer back; others are refused', async () => {
    const up = await listen(createHttpServer(upstreamHandler));
    const other = await listen(createHttpServer(upstreamHandler));
    const daemon = await startDaemon({
      args: ['--memory', '--hosts', 'api.github.com=github'],
      env: { MOCKPOINT_PROXY_PASS_THROUGH: '1', MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${up},unmapped.example` },
    });
    await requestJson(`${daemon.url}/api/endpoints/github`, { method: 'PUT', body: { data: { mocked: true } } });

    const passed = await curl(['--proxy', daemon.url, '-i', '-d', 'a=1', `http://127.0.0.1:${up}/hello?q=1`]);
    expect(passed.status).toBe(201);
    expect(passed.body).toMatch(/\r\nx-upstream: yes\r\n/i);
    expect(JSON.parse(passed.body.slice(passed.body.indexOf('\r\n\r\n') + 4))).toEqual({
      method: 'POST',
      url: '/hello?q=1',
      host: `127.0.0.1:${up}`,
      body: 'a=1',
    });

    // A loopback address not listed itself (another port): the SSRF rule refuses it.
    const notListed = await curl(['--proxy', daemon.url, `http://127.0.0.1:${other}/`]);
    expect(notListed.status).toBe(403);
    expect(JSON.parse(notListed.body).error).toMatchObject({
      code: 'PROXY_HOST_NOT_ALLOWED',
      message: expect.stringContaining(`127.0.0.1:${other}`),
    });
    const unlisted = await curl(['--proxy', daemon.url, 'http://elsewhere.example/']);
    expect(unlisted.status).toBe(403);
    expect(JSON.parse(unlisted.body).error.code).toBe('PROXY_HOST_NOT_ALLOWED');

    // Mapped hosts are still mocked, and the daemon's own address and port are still the daemon.
    expect((await curl(['--proxy', daemon.url, 'http://api.github.com/'])).body).toBe('{"mocked":true}');
    const health = await curl(['--proxy', daemon.url, `${daemon.url}/api/health`]);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' });
    // Nothing passed through is journaled: no endpoint answered it.
    const journal = await requestJson(`${daemon.url}/api/endpoints/github/requests`);
    expect((journal.body as { requests: unknown[] }).requests).toHaveLength(1);
  });

  it('answers 502 UPSTREAM_FAILED when an upstream answers 101 to a request that asked for no upgrade', async () => {
    // A raw upstream that switches protocols whatever it is asked: Node emits neither a response
    // nor an error for it, and the client used to wait for ever.
    const rawUpstream = createNetServer((socket) => {
      socket.once('data', () =>
        socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\nconnection: upgrade\r\n\r\n'),
      );
      socket.on('error', () => {});
    });
    netServers.push(rawUpstream);
    await new Promise<void>((resolve) => rawUpstream.listen(0, '127.0.0.1', resolve));
    const up = (rawUpstream.address() as { port: number }).port;
    const daemon = await startDaemon({
      args: ['--memory'],
      env: { MOCKPOINT_PROXY_PASS_THROUGH: '1', MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${up}` },
    });
    const answer = await curl(['--proxy', daemon.url, '--max-time', '20', `http://127.0.0.1:${up}/`]);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'UPSTREAM_FAILED',
      message: expect.stringContaining('101'),
    });
  });

  it('tunnels a CONNECT to an allowed unmapped host as bytes: TLS ends at the upstream, not the daemon', async () => {
    const ca = createCa();
    const { cert, key } = ca.issue(['127.0.0.1']);
    const tlsUp = await listen(createHttpsServer({ cert, key }, upstreamHandler));
    const other = await listen(createHttpsServer({ cert, key }, upstreamHandler));
    const dir = await makeTempDir('mockpoint-pass-');
    const upstreamCa = join(dir, 'upstream-ca.pem');
    await writeFile(upstreamCa, ca.certPem);
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.github.com=github'],
      env: { MOCKPOINT_PROXY_PASS_THROUGH: 'true', MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${tlsUp}` },
    });
    const passed = await curl([
      '--proxy',
      daemon.url,
      '--cacert',
      upstreamCa,
      '--http1.1',
      `https://127.0.0.1:${tlsUp}/secure?x=1`,
    ]);
    expect(passed.status).toBe(201);
    expect(JSON.parse(passed.body)).toMatchObject({ method: 'GET', url: '/secure?x=1', host: `127.0.0.1:${tlsUp}` });

    const refused = await raw(daemon.port, `CONNECT 127.0.0.1:${other} HTTP/1.1\r\nHost: 127.0.0.1:${other}\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(errorOf(refused).code).toBe('PROXY_HOST_NOT_ALLOWED');
    const unlisted = await raw(
      daemon.port,
      'CONNECT elsewhere.example:443 HTTP/1.1\r\nHost: elsewhere.example:443\r\n\r\n',
    );
    expect(errorOf(unlisted).code).toBe('PROXY_HOST_NOT_ALLOWED');
  });

  it('answers 150 random CONNECT and 150 random absolute-form targets (seed 3536) and reaches only the listed one', async () => {
    let hits = 0;
    const up = await listen(
      createHttpServer((req, res) => {
        hits++;
        upstreamHandler(req, res);
      }),
    );
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.github.com=github'],
      env: { MOCKPOINT_PROXY_PASS_THROUGH: '1', MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${up}` },
    });
    const random = prng(3536);
    const firstLine = (text: string) => (text === '' ? 'closed' : (text.split('\r\n')[0] as string));
    let listed = 0;
    let sameHost = 0;
    for (let i = 0; i < 150; i++) {
      const pick = random();
      // Mostly random text; some near misses of the listed target; a few of the listed target itself.
      const target =
        pick < 0.7
          ? randomText(random, Math.floor(random() * 80))
          : pick < 0.9
            ? `127.0.0.1:${up}${randomText(random, 3)}`
            : `127.0.0.1:${up}`;
      if (target === `127.0.0.1:${up}`) listed++;
      // A near miss that is still a URL of the listed host (`127.0.0.1:PORT#x`: Bun's parser takes the
      // fragment off the absolute-form target) may reach it once too.
      else if (urlHost(`http://${target}/p`) === `127.0.0.1:${up}`) sameHost++;
      const connectAnswer = firstLine(
        await raw(
          daemon.port,
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(connectAnswer, JSON.stringify(target)).toMatch(/^(HTTP\/1\.1 (200|4\d\d|502|504) |closed)/);
      const absolute = firstLine(
        await raw(daemon.port, `GET http://${target}/p HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`),
      );
      expect(absolute, JSON.stringify(target)).toMatch(/^(HTTP\/1\.1 \d{3} |closed)/);
    }
    // Each listed CONNECT carried one request through the tunnel; each listed absolute-form request one more.
    expect(listed).toBeGreaterThan(0);
    expect(hits).toBeGreaterThan(0);
    expect(hits).toBeLessThanOrEqual(2 * listed + sameHost);
    const health = await curl([`${daemon.url}/api/health`]);
    expect(health.status).toBe(200);
  }, 60_000);
});
