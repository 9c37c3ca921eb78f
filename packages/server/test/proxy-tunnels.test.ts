// CONNECT tunnels through the built daemon's forward proxy with real clients (curl, undici's
// EnvHttpProxyAgent and ProxyAgent): without --https a tunnel for TLS is refused with a status
// naming --https (it used to be closed unanswered), a tunnel to a mapped host carrying plain HTTP
// (what EnvHttpProxyAgent sends for every http:// URL) is answered inside (it used to be closed,
// and the agent reconnected thousands of times a second), and a passed-through CONNECT to an
// allowed TLS upstream is tunnelled (it used to be closed: "Proxy CONNECT aborted").
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCa } from '@mockpoint/core/tls';
import { EnvHttpProxyAgent, ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, ON_BUN, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';

const run = promisify(execFile);

useDaemons();

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())),
  );
});

/** The raw answer to `text` written on a plain connection to the daemon (until it closes, at most 5 s). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy());
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}

/** A daemon mapping api.github.com to endpoint github, which answers `{"zen":"ok"}` on /zen. */
async function githubDaemon(extra: string[] = [], env: Record<string, string> = {}): Promise<Daemon> {
  const daemon = await startDaemon({ args: ['--memory', '--hosts', 'api.github.com=github', ...extra], env });
  const put = await requestJson(`${daemon.url}/api/endpoints/github/routes`, {
    method: 'PUT',
    body: { routes: [{ match: { path: '/zen' }, answer: { data: { zen: 'ok' } } }] },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return daemon;
}

// Bun.serve shows no CONNECT (docs/runtimes.md): the forward proxy is Node's.
describe.skipIf(ON_BUN)('CONNECT tunnels', () => {
  it('without --https refuses a tunnel for TLS with 501 HTTPS_NOT_ENABLED naming --https (curl), an unmapped host with 403', async () => {
    const daemon = await githubDaemon();
    const answer = await raw(daemon.port, 'CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    const error = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error;
    expect(error.code).toBe('HTTPS_NOT_ENABLED');
    expect(error.message).toContain('--https');
    // curl says the status it was refused with instead of a closed connection.
    const refused = await run('curl', ['-sS', '--max-time', '10', '--proxy', daemon.url, 'https://api.github.com/zen'])
      .then(() => '')
      .catch((failure: { stderr: string }) => failure.stderr);
    expect(refused).toMatch(/CONNECT tunnel failed, response 501/);
    const unmapped = await raw(
      daemon.port,
      'CONNECT unmapped.example:443 HTTP/1.1\r\nHost: unmapped.example:443\r\n\r\n',
    );
    expect(unmapped).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(unmapped).toContain('HOST_NOT_MOCKED');
    // A TLS handshake in a tunnel to another port cannot be answered without --https: cut, the daemon fine.
    const cut = await run('curl', ['-sS', '--max-time', '10', '--proxy', daemon.url, 'https://api.github.com:8443/zen'])
      .then(() => 'answered')
      .catch((failure: { code: number }) => failure.code);
    expect(cut).not.toBe('answered');
    expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
  });

  it("answers plain HTTP inside a mapped host's tunnel without --https: undici's EnvHttpProxyAgent and curl -p", async () => {
    const daemon = await githubDaemon();
    const agent = new EnvHttpProxyAgent({ httpProxy: daemon.url, httpsProxy: daemon.url, noProxy: '' });
    try {
      // EnvHttpProxyAgent tunnels http:// with CONNECT api.github.com:80; before, it reconnected forever.
      const response = await undiciFetch('http://api.github.com/zen', {
        dispatcher: agent,
        signal: AbortSignal.timeout(5000),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ zen: 'ok' });
    } finally {
      await agent.close();
    }
    const { stdout } = await run('curl', [
      '-sS',
      '--max-time',
      '10',
      '-p',
      '--proxy',
      daemon.url,
      'http://api.github.com/zen',
    ]);
    expect(JSON.parse(stdout)).toEqual({ zen: 'ok' });
    const journal = (await requestJson(`${daemon.url}/api/endpoints/github/requests`)).body as {
      requests: { path?: string; url?: string }[];
    };
    expect(JSON.stringify(journal)).toContain('/zen');
  });

  it('with --https serves both inside a tunnel: TLS (https://) and plain HTTP (http://) through one EnvHttpProxyAgent', async () => {
    const daemon = await githubDaemon(['--https', '--https-port', '0'], {});
    const caPath = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
    expect(caPath).toBeDefined();
    const ca = await readFile(caPath as string, 'utf8');
    const agent = new EnvHttpProxyAgent({
      httpProxy: daemon.url,
      httpsProxy: daemon.url,
      noProxy: '',
      requestTls: { ca },
    });
    try {
      for (const url of ['https://api.github.com/zen', 'http://api.github.com/zen']) {
        const response = await undiciFetch(url, { dispatcher: agent, signal: AbortSignal.timeout(5000) });
        expect(response.status, url).toBe(200);
        expect(await response.json()).toEqual({ zen: 'ok' });
      }
    } finally {
      await agent.close();
    }
  });

  it('passes a CONNECT through to an allowed TLS upstream without --https (undici ProxyAgent)', async () => {
    const upstreamCa = createCa();
    const { cert, key } = upstreamCa.issue(['127.0.0.1']);
    const upstream = createHttpsServer({ cert, key }, (req, res) => res.end(`upstream saw ${req.url}`));
    servers.push(upstream);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as { port: number }).port;
    const daemon = await startDaemon({
      args: ['--memory'],
      env: { MOCKPOINT_PROXY_PASS_THROUGH: '1', MOCKPOINT_PROXY_ALLOW_HOSTS: `127.0.0.1:${port}` },
    });
    const agent = new ProxyAgent({ uri: daemon.url, requestTls: { ca: upstreamCa.certPem } });
    try {
      const response = await undiciFetch(`https://127.0.0.1:${port}/real?x=1`, {
        dispatcher: agent,
        signal: AbortSignal.timeout(5000),
      });
      expect(await response.text()).toBe('upstream saw /real?x=1');
    } finally {
      await agent.close();
    }
    const dir = await makeTempDir('mockpoint-pass-');
    await writeFile(join(dir, 'ca.pem'), upstreamCa.certPem);
    const { stdout } = await run('curl', [
      '-sS',
      '--max-time',
      '10',
      '--proxy',
      daemon.url,
      '--cacert',
      join(dir, 'ca.pem'),
      `https://127.0.0.1:${port}/curl`,
    ]);
    expect(stdout).toBe('upstream saw /curl');
  });
});
