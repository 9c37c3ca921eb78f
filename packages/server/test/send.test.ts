// `mockpoint send` as a real process against a real receiver on 127.0.0.1 that
// checks Standard Webhooks signatures itself with node:crypto.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

const KEY = Buffer.from('mockpoint send test key');
const SECRET = `whsec_${KEY.toString('base64')}`;

let server: Server | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await killAll();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});
afterAll(removeTempDirs);

function valid(headers: IncomingHttpHeaders, body: Buffer): boolean {
  const content = Buffer.concat([Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`), body]);
  const expected = createHmac('sha256', KEY).update(content).digest();
  const given = Buffer.from(String(headers['webhook-signature'] ?? '').replace(/^v1,/, ''), 'base64');
  const fresh = Math.abs(Date.now() / 1000 - Number(headers['webhook-timestamp'])) <= 300;
  return given.length === expected.length && timingSafeEqual(given, expected) && fresh;
}

/** A verifying receiver: 200 when the signature is valid, else 401; `fail` first answers 503 that many times. */
async function receiver(fail = 0): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString());
      if (bodies.length <= fail) return res.writeHead(503).end();
      res.writeHead(valid(req.headers, body) ? 200 : 401).end();
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '0.0.0.0', resolve));
  return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/hook`, bodies };
}

it('sends the file data signed, prints each attempt (a retry after a 503) and exits 0 once delivered', async () => {
  const target = await receiver(1);
  const cwd = await makeTempDir();
  await writeFile(join(cwd, 'event.json'), '{"type":"order.paid","amount":12345678901234567890}');
  const run = await runCli({
    cwd,
    args: ['send', target.url, '--data', '@event.json', '--sign', 'standard', '--secret', SECRET, '--retry', '10'],
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^#1 503 in \d+ ms\n#2 200 in \d+ ms\n$/);
  expect(target.bodies.at(-1)).toBe('{"type":"order.paid","amount":12345678901234567890}');
  expect(run.stderr).toContain('delivered');
});

it('exits 1 when the delivery failed', async () => {
  const target = await receiver(10);
  const run = await runCli({ args: ['send', target.url, '--body', 'hi', '--retry', '0,0'] });
  expect(run.code).toBe(1);
  expect(run.stdout.trim().split('\n')).toHaveLength(3);
});

it('with --tamper exits 0 only when the receiver rejects the delivery', async () => {
  const target = await receiver();
  const run = await runCli({
    args: ['send', target.url, '--data', '{}', '--sign', 'standard', '--secret', SECRET, '--tamper', 'signature'],
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^#1 401 in \d+ ms \[tamper signature\]\n$/);
  expect(run.stderr).toContain('rejected by the receiver');
});

it('refuses a bad scheme with one line and exit 1, sending nothing', async () => {
  const target = await receiver();
  const run = await runCli({ args: ['send', target.url, '--data', '{}', '--sign', 'rot13', '--secret', 'x'] });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^mockpoint send: error: unknown signature scheme "rot13"[^\n]*\n$/);
  expect(target.bodies).toEqual([]);
});

it('sends through a daemon with --daemon (the alias of --url)', async () => {
  const target = await receiver();
  const daemon = await startDaemon({ args: ['--memory'] });
  const run = await runCli({
    args: ['send', target.url, '--data', '[1]', '--sign', 'standard', '--secret', SECRET, '--daemon', daemon.url],
  });
  expect(run.code, run.stderr).toBe(0);
  const listed = (await (await fetch(`${daemon.url}/api/deliveries`)).json()) as { deliveries: { state: string }[] };
  expect(listed.deliveries.map((d) => d.state)).toEqual(['delivered']);
});

it('without --url obeys MOCKPOINT_DELIVERY_ALLOW_HOSTS: another host is refused unless listed', async () => {
  const target = await receiver();
  // 0.0.0.0 reaches this machine but is not a loopback address: like any other host, it must be listed.
  const url = target.url.replace('127.0.0.1', '0.0.0.0');
  const args = ['send', url, '--data', '{}', '--sign', 'standard', '--secret', SECRET];
  const refused = await runCli({ args });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /^mockpoint send: error: deliveries may only go to loopback addresses .*MOCKPOINT_DELIVERY_ALLOW_HOSTS; "0.0.0.0" is not\n$/,
  );
  expect(target.bodies).toEqual([]);
  const allowed = await runCli({ args, env: { MOCKPOINT_DELIVERY_ALLOW_HOSTS: '0.0.0.0' } });
  expect(allowed.code, allowed.stderr).toBe(0);
  expect(target.bodies).toEqual(['{}']);
});
