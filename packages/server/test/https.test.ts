// `--https` against the built daemon with unmodified clients: curl --http2 and
// --http1.1 with --cacert, Node's fetch and https.get in a child process that
// trusts the CA only through NODE_EXTRA_CA_CERTS, an SSE stream and a reset fault
// over HTTP/2, curl --proxy for an https:// URL (CONNECT, a certificate for the
// mapped host), a CONNECT to an unmapped host refused with HOST_NOT_MOCKED; the
// CA made once and kept (key 0600), never served.
import { execFile } from 'node:child_process';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls, type PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { CA_CERT_FILE, CA_KEY_FILE, createCa, loadOrCreateCa } from '@mockpoint/core/tls';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/start-server.js';
import { curlVersioned as curl } from './helpers/curl.js';
import { type Daemon, makeTempDir, ON_BUN, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

const run = promisify(execFile);

useDaemons();

interface HttpsDaemon extends Daemon {
  https: string;
  ca: string;
}

async function httpsDaemon(extra: string[] = [], cwd?: string): Promise<HttpsDaemon> {
  // LevelDB in the temp folder's data directory, where the CA is kept (with --memory it is not).
  const daemon = await startDaemon({
    args: ['--https', '--https-port', '0', '--hosts', 'api.github.com=github', ...extra],
    cwd,
  });
  const https = daemon.notes.find((note) => note.startsWith('https on '))?.match(/https:\/\/\S+/)?.[0];
  const ca = daemon.notes.find((note) => note.startsWith('local CA '))?.match(/NODE_EXTRA_CA_CERTS=(\S+)/)?.[1];
  expect(https, daemon.startLine).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(ca).toBe(join(daemon.cwd, 'data', 'mockpoint-ca.pem'));
  await requestJson(`${daemon.url}/api/endpoints/a`, { method: 'PUT', body: { data: { x: 1 } } });
  return Object.assign(daemon, { https: https as string, ca: ca as string });
}

describe('--https', () => {
  it('answers curl over HTTP/2 and HTTP/1.1 (ALPN), the admin API and the page keeping their Host check', async () => {
    const daemon = await httpsDaemon();
    expect(await curl(['--http2', '--cacert', daemon.ca, `${daemon.https}/endpoint/a`])).toEqual({
      status: 200,
      version: '2',
      body: '{"x":1}',
    });
    expect(await curl(['--http1.1', '--cacert', daemon.ca, `${daemon.https}/endpoint/a`])).toMatchObject({
      version: '1.1',
      body: '{"x":1}',
    });
    expect((await curl(['--http2', '--cacert', daemon.ca, `${daemon.https}/api/health`])).status).toBe(200);
    // HTTP/2 has no Host header: :authority is the Host the check reads.
    const port = new URL(daemon.https).port;
    const rebinding = await curl([
      '--http2',
      '--cacert',
      daemon.ca,
      '-k',
      '--resolve',
      `evil.test:${port}:127.0.0.1`,
      `https://evil.test:${port}/api/health`,
    ]);
    expect([rebinding.status, JSON.parse(rebinding.body).error.code]).toEqual([403, 'HOST_NOT_ALLOWED']);
    const journal = await requestJson(`${daemon.url}/api/endpoints/a/requests`);
    const headers = (journal.body as { requests: { headers: Record<string, string> }[] }).requests[0]?.headers;
    expect(headers).toMatchObject({ host: `127.0.0.1:${port}` });
    expect(Object.keys(headers ?? {}).filter((name) => name.startsWith(':'))).toEqual([]);
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): --https is Bun's node:http2 emulation, whose reset closes the whole connection.
  it.skipIf(ON_BUN)('streams SSE over HTTP/2, and a reset or close fault breaks that stream only', async () => {
    const daemon = await httpsDaemon();
    await requestJson(`${daemon.url}/api/endpoints/s/routes`, {
      method: 'PUT',
      body: {
        routes: [
          {
            match: { path: '/events' },
            answer: { stream: { format: 'sse', events: [{ data: 'one' }, { data: 'two', delay: 50 }] } },
          },
          { match: { path: '/reset' }, answer: { fault: 'reset' } },
          { match: { path: '/close' }, answer: { data: { long: 'x'.repeat(1000) }, fault: 'close' } },
        ],
      },
    });
    const events = await curl(['--http2', '-N', '--cacert', daemon.ca, `${daemon.https}/endpoint/s/events`]);
    expect(events.version).toBe('2');
    expect(events.body).toContain('data: one\n\n');
    expect(events.body).toContain('data: two\n\n');
    await expect(curl(['--http2', '--cacert', daemon.ca, `${daemon.https}/endpoint/s/reset`])).rejects.toThrow(
      /RST_STREAM|HTTP\/2 stream/,
    );
    // The status, the headers and half the body, then the stream breaks off.
    await expect(curl(['--http2', '--cacert', daemon.ca, `${daemon.https}/endpoint/s/close`])).rejects.toThrow(
      /transfer closed with \d+ bytes remaining/,
    );
    expect((await curl(['--http2', '--cacert', daemon.ca, `${daemon.https}/endpoint/a`])).body).toBe('{"x":1}');
  });

  it('is trusted by Node’s fetch and https.get through NODE_EXTRA_CA_CERTS alone (a child process)', async () => {
    const daemon = await httpsDaemon();
    const script = `
      const https = require('node:https');
      const viaGet = new Promise((resolve, reject) => https.get(process.argv[1] + '/endpoint/a', (res) => {
        let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve(body));
      }).on('error', reject));
      Promise.all([fetch(process.argv[1] + '/endpoint/a').then((r) => r.text()), viaGet])
        .then((bodies) => console.log(JSON.stringify(bodies)), (e) => { console.error(e.cause ?? e); process.exit(1); });`;
    const env = { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: daemon.ca };
    const { stdout } = await run(process.execPath, ['-e', script, daemon.https], { env, timeout: 15_000 });
    expect(JSON.parse(stdout)).toEqual(['{"x":1}', '{"x":1}']);
    // Without the CA the same client refuses the certificate.
    await expect(
      run(process.execPath, ['-e', script, daemon.https], { env: { PATH: env.PATH }, timeout: 15_000 }),
    ).rejects.toThrow(/self[- ]signed|unable to verify|UNABLE_TO_GET_ISSUER/i);
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Bun's node:tls ignores SNICallback: a mapped host gets the default certificate.
  it.skipIf(ON_BUN)(
    'serves a mapped https:// host through curl --proxy (CONNECT), and refuses an unmapped one',
    async () => {
      const daemon = await httpsDaemon();
      await requestJson(`${daemon.url}/api/endpoints/github/routes`, {
        method: 'PUT',
        body: {
          routes: [
            {
              match: { path: '/repos/:o/:r' },
              answer: { data: { full_name: '{{params.o}}/{{params.r}}' }, template: true },
            },
          ],
        },
      });
      for (const version of ['--http2', '--http1.1']) {
        const proxied = await curl([
          version,
          '--proxy',
          daemon.url,
          '--cacert',
          daemon.ca,
          'https://api.github.com/repos/a/b',
        ]);
        expect(proxied.body).toBe('{"full_name":"a/b"}');
      }
      const journal = await requestJson(`${daemon.url}/api/endpoints/github/requests`);
      const entries = (
        journal.body as { requests: { subpath: string; host?: string; headers: Record<string, string> }[] }
      ).requests;
      // HTTP/2 has no Host header (its :authority is the host); the entry's host field has it either way.
      expect(entries.map((entry) => [entry.subpath, entry.host])).toEqual([
        ['/repos/a/b', 'api.github.com'],
        ['/repos/a/b', 'api.github.com'],
      ]);
      // curl reports only the failed tunnel; the answer itself carries the code.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(daemon.port, '127.0.0.1', () =>
          socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
        );
        let text = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text)).on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
        code: 'HOST_NOT_MOCKED',
        details: { host: 'example.com:443', mapped: ['api.github.com'] },
      });
    },
  );

  it('makes the CA once, keeps it (key 0600), and never serves it', async () => {
    const first = await httpsDaemon();
    const keyPath = join(first.cwd, 'data', 'mockpoint-ca-key.pem');
    expect((await stat(keyPath)).mode & 0o777).toBe(0o600);
    const pem = await readFile(first.ca, 'utf8');
    const key = await readFile(keyPath, 'utf8');
    for (const path of [
      '/mockpoint-ca-key.pem',
      '/static/mockpoint-ca-key.pem',
      '/data/mockpoint-ca-key.pem',
      '/static/../data/mockpoint-ca-key.pem',
      '/api/health',
      '/api/openapi.json',
    ]) {
      for (const base of [first.url, first.https]) {
        const answer = await curl(['--path-as-is', '--cacert', first.ca, `${base}${path}`]);
        expect(answer.body).not.toContain('PRIVATE KEY');
        expect(answer.body).not.toContain(key.split('\n')[1]);
      }
    }
    await first.stop();
    const second = await httpsDaemon([], first.cwd);
    expect(await readFile(second.ca, 'utf8')).toBe(pem);
  });
});

/** The certificate the daemon at `port` presents for `servername` (SNI). */
function peerCertificate(port: number, servername: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port, servername, rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      resolve(socket.getPeerCertificate());
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('--https certificates by SNI', () => {
  it('200 new names under *.stripe.com share one certificate covering them; deeper ones are bounded', async () => {
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--hosts', 'api.github.com=github,*.stripe.com=stripe'],
    });
    const port = Number(/https:\/\/127\.0\.0\.1:(\d+)/.exec(daemon.startLine)?.[1]);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const cert = await peerCertificate(port, `x${i}.stripe.com`);
      expect(cert.subjectaltname).toBe('DNS:*.stripe.com');
      seen.add(cert.fingerprint256);
    }
    // One signature, not one per name (each would cost the event loop a pure-JS RSA signing).
    expect(seen.size).toBe(1);
    // An exact mapping, asked before the deeper names spend the per-second signing budget.
    expect((await peerCertificate(port, 'api.github.com')).subjectaltname).toBe('DNS:api.github.com');
    const deeper = new Set<string>();
    for (let i = 0; i < 100; i++) deeper.add((await peerCertificate(port, `a.y${i}.stripe.com`)).fingerprint256);
    // At most 32 per pattern for names two labels down (the rest get the daemon's own), and a 20/s cap.
    expect(deeper.size).toBeLessThanOrEqual(33);
    // Signed once: the exact name keeps its certificate after the budget is spent.
    expect((await peerCertificate(port, 'api.github.com')).subjectaltname).toBe('DNS:api.github.com');
    expect((await requestJson(`${daemon.url}/api/health`)).status).toBe(200);
  });
});

/** The daemon with `args` stops at start-up with one line (no stack) matching each of `patterns`. */
async function expectRefusedStart(args: string[], cwd: string, patterns: RegExp[]): Promise<string> {
  const run = await runCli({ args: ['--port', '0', '--https', '--https-port', '0', ...args], cwd });
  expect(run.code, run.stdout).toBe(1);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mockpoint: error: /);
  for (const pattern of patterns) expect(lines[0]).toMatch(pattern);
  return lines[0] as string;
}

describe('--https with unusable files stops start-up with one line naming them', () => {
  it('a local CA key that does not match its certificate (two CAs mixed)', async () => {
    const [cwd, other] = [await makeTempDir(), await makeTempDir()];
    const data = join(cwd, 'data');
    await loadOrCreateCa(data);
    await loadOrCreateCa(other);
    await copyFile(join(other, CA_KEY_FILE), join(data, CA_KEY_FILE));
    await expectRefusedStart([], cwd, [
      new RegExp(`key ${join(data, CA_KEY_FILE)} does not match its certificate ${join(data, CA_CERT_FILE)}`),
      /; delete \S+ and \S+ to make a new CA/,
    ]);
  });

  it('a local CA file that is not PEM names that file (not an OpenSSL message alone)', async () => {
    for (const [file, damaged] of [
      [CA_CERT_FILE, /certificate \S+mockpoint-ca\.pem is not a PEM certificate/],
      [CA_KEY_FILE, /key \S+mockpoint-ca-key\.pem is not a PEM private key/],
    ] as const) {
      const cwd = await makeTempDir();
      await loadOrCreateCa(join(cwd, 'data'));
      await writeFile(join(cwd, 'data', file), '-----BEGIN nonsense\n');
      await expectRefusedStart([], cwd, [damaged, /; delete \S+ and \S+ to make a new CA/]);
    }
  });

  it('--cert/--key: a file that cannot be read, is not PEM, or a key of another certificate names the flag and file', async () => {
    const cwd = await makeTempDir();
    const [one, two] = [createCa().issue(['localhost']), createCa().issue(['localhost'])];
    await writeFile(join(cwd, 'cert.pem'), one.cert);
    await writeFile(join(cwd, 'key.pem'), one.key);
    await writeFile(join(cwd, 'other-key.pem'), two.key);
    await writeFile(join(cwd, 'junk.pem'), 'not pem');
    const cases: [string[], RegExp][] = [
      [
        ['--cert', 'missing.pem', '--key', 'key.pem'],
        /--cert \(MOCKPOINT_TLS_CERT\) \S+missing\.pem: cannot read it \(ENOENT/,
      ],
      [
        ['--cert', 'junk.pem', '--key', 'key.pem'],
        /--cert \(MOCKPOINT_TLS_CERT\) \S+junk\.pem is not a PEM certificate/,
      ],
      [
        ['--cert', 'cert.pem', '--key', 'junk.pem'],
        /--key \(MOCKPOINT_TLS_KEY\) \S+junk\.pem is not an unencrypted PEM/,
      ],
      [
        ['--cert', 'cert.pem', '--key', 'other-key.pem'],
        /--key \(MOCKPOINT_TLS_KEY\) \S+other-key\.pem is not the key of --cert \(MOCKPOINT_TLS_CERT\) \S+cert\.pem/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const line = await expectRefusedStart(args, cwd, [pattern]);
      expect(line).not.toMatch(/LISTEN_FAILED|key values mismatch/);
    }
    // The matching pair still serves.
    const daemon = await startDaemon({
      args: ['--memory', '--https', '--https-port', '0', '--cert', 'cert.pem', '--key', 'key.pem'],
      cwd,
    });
    expect(daemon.startLine).toMatch(/https on https:\/\/127\.0\.0\.1:\d+/);
  });

  it('each with its stable code (startServer)', async () => {
    const cwd = await makeTempDir();
    const base = { memory: true, port: 0, https: true, httpsPort: 0, host: '127.0.0.1' };
    await expect(
      startServer({ ...base, tlsCert: join(cwd, 'missing.pem'), tlsKey: join(cwd, 'missing-key.pem') }),
    ).rejects.toMatchObject({ name: 'StartError', code: 'TLS_CERT_UNUSABLE' });
    await loadOrCreateCa(join(cwd, 'data'));
    await writeFile(join(cwd, 'data', CA_CERT_FILE), 'not pem');
    await expect(startServer({ ...base, memory: false, dataDir: join(cwd, 'data') })).rejects.toMatchObject({
      name: 'StartError',
      code: 'LOCAL_CA_UNUSABLE',
    });
  });
});
