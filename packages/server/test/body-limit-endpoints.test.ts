// A body over the limit (MOCKPOINT_MAX_BODY_BYTES, 5 MiB by default) sent to an endpoint is
// refused with 413 whatever answers the name — a twin (in the provider's own error JSON), a
// resource route on a collection, a route, the record, a fake MCP server (a JSON-RPC error) —
// and nothing of it is kept (issue #86, H1): before, the adapter cut it to the journal's 64 KiB
// and the steps answered that (a GitHub asset of 20 MB kept as its first 64 KiB, `201`). Against
// the built daemon in memory and on LevelDB; every process on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { type Daemon, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

/** The default body limit (5 MiB). */
const LIMIT = 5 * 1024 * 1024;

/** What a request was answered, or how it failed (a connection reset before the answer was read). */
interface Sent {
  status: number | string;
  body: string;
  headers: Headers | undefined;
}

async function send(url: string, init: RequestInit): Promise<Sent> {
  try {
    const answer = await fetch(url, init);
    return { status: answer.status, body: await answer.text(), headers: answer.headers };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: `failed: ${cause?.code ?? (error as Error).message}`, body: '', headers: undefined };
  }
}

/** A JSON body of about `bytes` bytes: one string member `key`. */
function bigJson(key: string, bytes: number, more: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...more, [key]: 'x'.repeat(bytes) });
}

const STORES = [
  ['memory', ['--memory']],
  ['LevelDB', []],
] as const;

describe.each(STORES)('a body over the limit at /endpoint/{name} (%s)', (store, args) => {
  // No store argument: LevelDB in the daemon's own (temp) working directory.
  const daemonOf = (): Promise<Daemon> => startDaemon({ args: [...args] });

  it('the GitHub twin: an asset of the limit is kept whole; one byte more, or 20 MB, is 413 in GitHub’s JSON and not kept', async () => {
    const twin = await twinDaemon('github', store === 'memory' ? 'memory' : 'level');
    const auth = { authorization: 'token ghp_test123' };
    const json = { ...auth, 'content-type': 'application/json' };
    const repo = `${twin.root}/repos/octocat/big`;
    expect(
      (await send(`${twin.root}/user/repos`, { method: 'POST', headers: json, body: '{"name":"big"}' })).status,
    ).toBe(201);
    const release = await send(`${repo}/releases`, { method: 'POST', headers: json, body: '{"tag_name":"v1"}' });
    expect(release.status).toBe(201);
    const { id } = JSON.parse(release.body) as { id: number };
    const upload = (name: string, bytes: number) =>
      send(`${repo}/releases/${id}/assets?name=${name}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes).fill(7),
      });

    const whole = await upload('whole.bin', LIMIT);
    expect(whole.status).toBe(201);
    expect((JSON.parse(whole.body) as { size: number }).size).toBe(LIMIT);
    for (const [name, bytes] of [
      ['over.bin', LIMIT + 1],
      ['huge.bin', 20_000_000],
    ] as const) {
      const over = await upload(name, bytes);
      expect(over.status, name).toBe(413);
      expect(JSON.parse(over.body)).toEqual({
        message: expect.stringContaining(`larger than the limit of ${LIMIT} bytes`),
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    const listed = await send(`${repo}/releases/${id}/assets`, { headers: auth });
    expect((JSON.parse(listed.body) as Array<{ name: string; size: number }>).map((a) => [a.name, a.size])).toEqual([
      ['whole.bin', LIMIT],
    ]);

    // A JSON body over the limit: 413, not "not valid JSON", and no issue made.
    const issue = await send(`${repo}/issues`, { method: 'POST', headers: json, body: bigJson('title', 6_000_000) });
    expect(issue.status).toBe(413);
    expect((JSON.parse(issue.body) as { message: string }).message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    const issues = await send(`${repo}/issues?state=all`, { headers: auth });
    expect(JSON.parse(issues.body)).toEqual([]);
    // The journal has the refusal, with the body's first bytes only.
    const journal = await requestJson(`${twin.api}/api/endpoints/${twin.name}/requests`);
    const refused = (
      journal.body as { requests: Array<{ statusCode: number; bodyTruncated: boolean }> }
    ).requests.filter((entry) => entry.statusCode === 413);
    expect(refused.map((entry) => entry.bodyTruncated)).toEqual([true, true, true]);
  }, 120_000);

  it('the Stripe twin: a form body over the limit is 413 in Stripe’s error JSON, and no customer is made', async () => {
    const twin = await twinDaemon('stripe', store === 'memory' ? 'memory' : 'level');
    const headers = { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await send(`${twin.root}/v1/customers`, {
      method: 'POST',
      headers,
      body: `description=${'x'.repeat(6_000_000)}`,
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'body_too_large',
        message: expect.stringContaining(`larger than the limit of ${LIMIT} bytes`),
        doc_url: expect.any(String),
        request_log_url: expect.any(String),
      },
    });
    expect(refused.headers?.get('request-id')).toMatch(/^req_/);
    const list = await send(`${twin.root}/v1/customers`, { headers });
    expect((JSON.parse(list.body) as { data: unknown[] }).data).toEqual([]);
  }, 120_000);

  it('a collection’s resource route, a route, the record and a fake MCP server: 413, nothing kept', async () => {
    const daemon = await daemonOf();
    const put = async (path: string, body: unknown) =>
      expect((await requestJson(`${daemon.url}${path}`, { method: 'PUT', body })).status).toBe(200);
    await put('/api/endpoints/api/collections', { users: [] });
    await put('/api/endpoints/api/routes', {
      routes: [
        { match: { path: '/users' }, answer: { resource: 'users' } },
        { match: { path: '/echo' }, answer: { body: '{{body}}' } },
        { match: { path: '/mcp' }, answer: { mcp: { tools: [{ name: 'echo', result: 'ok' }] } } },
      ],
    });
    expect(
      (await requestJson(`${daemon.url}/api/endpoint/add`, { method: 'PUT', body: { name: 'rec', data: 1 } })).status,
    ).toBe(201);
    const base = `${daemon.url}/endpoint`;
    const json = { 'content-type': 'application/json' };
    const big = bigJson('name', 6_000_000);

    const created = await send(`${base}/api/users`, { method: 'POST', headers: json, body: big });
    expect([created.status, (JSON.parse(created.body) as { error: { code: string } }).error.code]).toEqual([
      413,
      'BODY_TOO_LARGE',
    ]);
    expect(JSON.parse((await send(`${base}/api/users`, {})).body)).toEqual([]);
    for (const path of ['/api/echo', '/rec']) {
      const answer = await send(`${base}${path}`, { method: 'POST', headers: json, body: big });
      expect([path, answer.status]).toEqual([path, 413]);
      expect(answer.body).toContain('BODY_TOO_LARGE');
    }

    // The fake MCP server: as the MCP SDK's own transport answers a body over its limit.
    const rpc = bigJson('pad', 6_000_000, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } });
    const mcp = await send(`${base}/api/mcp`, {
      method: 'POST',
      headers: { ...json, accept: 'application/json, text/event-stream' },
      body: rpc,
    });
    expect(mcp.status).toBe(413);
    expect(JSON.parse(mcp.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: expect.stringContaining('MOCKPOINT_MAX_BODY_BYTES'),
        data: { code: 'BODY_TOO_LARGE', status: 413 },
      },
    });
    expect((await send(`${daemon.url}/api/health`, {})).status).toBe(200);
  }, 120_000);
});
