// Pact both ways against real processes: the code under test talks to a daemon's mocks; the
// journal, exported as a Pact V4 contract (`mockpoint export --pact`), is accepted by Pact's own
// verifier (@pact-foundation/pact's Verifier, the Rust core) against a real provider on
// 127.0.0.1 that answers as the mocks did, and rejected once the provider answers one field
// otherwise. The contract imported (`mockpoint import --from pact`) into a fresh daemon answers
// the same requests with the same statuses, types and bytes. A namespace (a test session) exports
// its own journal only.

// Pact's core would otherwise report usage over the network: this machine reaches none.
process.env.PACT_DO_NOT_TRACK = 'true';

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const USER = '{"id":1,"name":"Ada","tags":["admin"],"big":12345678901234567890}';
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01]);

/** The mocks of the provider "users-api", as a test suite owns them. */
const ROUTES = [
  {
    id: 'user',
    match: { method: 'GET', path: '/users/:id' },
    answer: { headers: { 'x-api-version': '2' }, data: 'USER' },
  },
  {
    id: 'create',
    match: { method: 'POST', path: '/users' },
    answer: { statusCode: 201, headers: { location: '/users/2' }, data: { id: 2 } },
  },
  {
    id: 'logo',
    match: { method: 'GET', path: '/logo.png' },
    answer: { headers: { 'content-type': 'image/png' }, bodyBase64: LOGO.toString('base64') },
  },
  { id: 'gone', match: { method: 'DELETE', path: '/users/:id' }, answer: { statusCode: 204 } },
];

/** What the code under test does against a base URL: every answer as status, type and bytes. */
async function consumer(base: string): Promise<string[]> {
  const calls: [string, RequestInit?][] = [
    ['/users/1?fields=name&fields=tags', { headers: { authorization: 'Bearer s3cret', accept: 'application/json' } }],
    ['/users/1?fields=name&fields=tags', { headers: { authorization: 'Bearer s3cret', accept: 'application/json' } }],
    ['/users', { method: 'POST', body: '{"name":"Grace"}', headers: { 'content-type': 'application/json' } }],
    ['/logo.png'],
    ['/users/9', { method: 'DELETE' }],
  ];
  const seen: string[] = [];
  for (const [path, init] of calls) {
    const response = await fetch(`${base}${path}`, init);
    const bytes = Buffer.from(await response.arrayBuffer()).toString('base64');
    seen.push(`${response.status} ${response.headers.get('content-type')} ${bytes}`);
  }
  return seen;
}

/**
 * The real provider: answers as the mocks do (`same`, with one more field), or with other values
 * of the same types (`values`), or with `GET /users/1`'s `id` a string (`drifted`).
 */
async function startProvider(mode: 'same' | 'values' | 'drifted'): Promise<{ url: string; server: Server }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/users/1') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-api-version': '2' });
      const bodies = {
        same: USER.replace('{', '{"extra":true,'),
        values: '{"id":2,"name":"Grace","tags":["ops","dev","qa"],"big":1}',
        drifted: USER.replace('"id":1', '"id":"1"'),
      };
      response.end(bodies[mode]);
    } else if (request.method === 'POST' && path === '/users') {
      response.writeHead(201, { 'content-type': 'application/json; charset=utf-8', location: '/users/2' });
      response.end('{"id":2}');
    } else if (request.method === 'GET' && path === '/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(LOGO);
    } else if (request.method === 'DELETE' && path === '/users/9') {
      response.writeHead(204).end();
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Pact's verifier on `file` against `provider`: resolves when the provider keeps the contract. */
async function verify(file: string, provider: string): Promise<void> {
  await new Verifier({
    providerBaseUrl: provider,
    pactUrls: [file],
    provider: 'users-api',
    logLevel: 'error',
  }).verifyProvider();
}

describe('mockpoint export --pact', () => {
  it("writes a V4 contract of the journal that Pact's verifier accepts against the provider, and rejects after a drift", async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    // As text: the big integer stays exact.
    const routes = JSON.stringify({ routes: ROUTES }).replace('"USER"', USER);
    expect((await fetch(`${daemon.url}/api/endpoints/users/routes`, { method: 'PUT', body: routes })).status).toBe(200);
    const mocked = await consumer(`${daemon.url}/endpoint/users`);
    // A request no mock answers: left out, named, not a contract the provider must keep.
    expect((await fetch(`${daemon.url}/endpoint/users/nothing`)).status).toBe(404);

    const dir = await makeTempDir('mockpoint-pact-');
    const file = join(dir, 'web-users-api.json');
    const exported = await runCli({
      args: [
        'export',
        '--pact',
        '--consumer',
        'web',
        '--provider',
        'users-api',
        '--names',
        'users',
        '--out',
        file,
        '--url',
        daemon.url,
      ],
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('left out users: GET /nothing (#6): no mock answered it (404)');
    expect(exported.stderr).toContain('4 Pact interaction(s) between web and users-api');
    const text = readFileSync(file, 'utf8');
    // The big integer is exact in the file: the contract holds the very JSON that was answered.
    expect(text).toContain('"big":12345678901234567890');
    const pact = JSON.parse(text);
    expect(pact.metadata.pactSpecification).toEqual({ version: '4.0' });
    expect(pact.consumer).toEqual({ name: 'web' });
    const [get, post, logo, gone] = pact.interactions;
    expect(pact.interactions.map((interaction: { type: string }) => interaction.type)).toEqual(
      Array(4).fill('Synchronous/HTTP'),
    );
    // The path the provider sees; the secret left out; the repeated request once.
    expect(get.request).toEqual({
      method: 'GET',
      path: '/users/1',
      query: { fields: ['name', 'tags'] },
      headers: expect.objectContaining({ accept: ['application/json'] }),
    });
    expect(get.request.headers.authorization).toBeUndefined();
    expect(get.response.status).toBe(200);
    expect(get.response.headers).toEqual({
      'x-api-version': ['2'],
      'content-type': ['application/json; charset=utf-8'],
    });
    expect(post.request.body).toEqual({ content: { name: 'Grace' }, contentType: 'application/json', encoded: false });
    expect(post.response).toMatchObject({
      status: 201,
      headers: { location: ['/users/2'] },
      body: { content: { id: 2 } },
    });
    expect(logo.response.body).toEqual({
      content: LOGO.toString('base64'),
      contentType: 'image/png',
      encoded: 'base64',
    });
    expect(gone.response).toEqual({ status: 204 });

    // With --types, JSON answers are checked by type: other values pass, another type does not.
    const typed = join(dir, 'typed.json');
    const withTypes = await runCli({
      args: [
        'export',
        '--pact',
        '--consumer',
        'web',
        '--provider',
        'users-api',
        '--types',
        '--out',
        typed,
        '--url',
        daemon.url,
      ],
    });
    expect(withTypes.code, withTypes.stderr).toBe(0);
    expect(JSON.parse(readFileSync(typed, 'utf8')).interactions[0].response.matchingRules).toEqual({
      body: { $: { combine: 'AND', matchers: [{ match: 'type' }] } },
    });

    const good = await startProvider('same');
    const other = await startProvider('values');
    const drifted = await startProvider('drifted');
    const refusal = (contract: string, provider: string) =>
      verify(contract, provider).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    try {
      await verify(file, good.url);
      const refused = await refusal(file, drifted.url);
      expect(refused).toContain('BodyMismatch');
      expect(refused).toContain('$.id');
      expect(await refusal(file, other.url)).toContain("Expected 'Grace' (String) to be equal to 'Ada' (String)");
      await verify(typed, other.url);
      expect(await refusal(typed, drifted.url)).toContain("Expected '1' (String) to be the same type as 1 (Integer)");
    } finally {
      for (const provider of [good, other, drifted]) provider.server.close();
    }

    // Imported into a fresh daemon, the contract answers the code under test as the mocks did.
    const fresh = await startDaemon({ args: ['--memory'] });
    const imported = await runCli({ args: ['import', file, '--apply', '--url', fresh.url] });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(
      '4 of 4 interaction(s) of web → users-api (Pact 4.0) as routes of endpoint users-api',
    );
    expect(await consumer(`${fresh.url}/endpoint/users-api`)).toEqual(mocked);

    // --secrets keeps the Authorization header.
    const secrets = await runCli({
      args: ['export', '--pact', '--consumer', 'web', '--provider', 'users-api', '--secrets', '--url', daemon.url],
    });
    expect(JSON.parse(secrets.stdout).interactions[0].request.headers.authorization).toEqual(['Bearer s3cret']);
  }, 60_000);

  it("exports a namespace's (a test session's) journal only, through the API and the CLI", async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    expect(
      (await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: 'run-1' } })).status,
    ).toBe(201);
    await requestJson(`${daemon.url}/ns/run-1/api/endpoint/add`, {
      method: 'PUT',
      body: { name: 'users', data: { in: 'session' } },
    });
    await requestJson(`${daemon.url}/api/endpoint/add`, {
      method: 'PUT',
      body: { name: 'users', data: { in: 'default' } },
    });
    await fetch(`${daemon.url}/ns/run-1/endpoint/users`);
    await fetch(`${daemon.url}/endpoint/users?in=default`);

    const cli = await runCli({
      args: ['export', '--pact', '--consumer', 'web', '--provider', 'api', '--session', 'run-1', '--url', daemon.url],
    });
    expect(cli.code, cli.stderr).toBe(0);
    const pact = JSON.parse(cli.stdout);
    expect(pact.interactions).toHaveLength(1);
    expect(pact.interactions[0].request.path).toBe('/');
    expect(pact.interactions[0].response.body.content).toEqual({ in: 'session' });

    const api = await fetch(`${daemon.url}/api/requests.pact?consumer=web&provider=api`);
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const all = (await api.json()) as { interactions: { request: { path: string } }[] };
    expect(all.interactions.map((interaction) => interaction.request.path)).toEqual(['/']);

    const bad = await fetch(`${daemon.url}/api/requests.pact?consumer=web`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_QUERY');
    const usage = await runCli({ args: ['export', '--pact', '--consumer', 'web', '--url', daemon.url] });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--pact needs --consumer <name> and --provider <name>');
  }, 30_000);
});
