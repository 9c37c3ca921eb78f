// Hosts that pick an endpoint, against the built daemon with unmodified clients:
// curl with --resolve (the name resolves to the daemon), with a Host header, and
// with --proxy (curl sends the absolute-form target and resolves nothing); the
// setting, the flag, a mock file's hosts: and the admin API; HOST_NOT_MOCKED for
// a proxied request to an unmapped host; the Host check of /api unchanged.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { curl } from './helpers/curl.js';
import { type Daemon, makeTempDir, ON_BUN, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const REPO_ROUTE = {
  routes: [
    {
      match: { path: '/repos/:owner/:repo' },
      answer: { data: { full_name: '{{params.owner}}/{{params.repo}}' }, template: true },
    },
  ],
};

async function githubDaemon(): Promise<Daemon> {
  const daemon = await startDaemon({
    args: ['--memory', '--hosts', 'api.github.com=github,*.stripe.com=stripe'],
  });
  expect(daemon.notes).toContain('hosts mapped: api.github.com, *.stripe.com');
  const saved = await requestJson(`${daemon.url}/api/endpoints/github/routes`, { method: 'PUT', body: REPO_ROUTE });
  expect(saved.status).toBe(200);
  return daemon;
}

describe('a mapped host', () => {
  it('reaches its endpoint with its whole path, by name (--resolve), by Host header and through --proxy', async () => {
    const daemon = await githubDaemon();
    const byName = await curl([
      '--resolve',
      `api.github.com:${daemon.port}:127.0.0.1`,
      `http://api.github.com:${daemon.port}/repos/a/b`,
    ]);
    expect(byName).toEqual({ status: 200, body: '{"full_name":"a/b"}' });
    const byHeader = await curl(['-H', 'Host: API.GitHub.com', `http://127.0.0.1:${daemon.port}/repos/c/d?x=1`]);
    expect(byHeader).toEqual({ status: 200, body: '{"full_name":"c/d"}' });
    const proxied = await curl(['--proxy', daemon.url, 'http://api.github.com/repos/e/f']);
    expect(proxied).toEqual({ status: 200, body: '{"full_name":"e/f"}' });
    // The journal keeps each request with its subpath and the original host, as a field of its own
    // (the proxied one from its absolute-form target: curl sent http://api.github.com/repos/e/f).
    const journal = await requestJson(`${daemon.url}/api/endpoints/github/requests`);
    const entries = (
      journal.body as { requests: { subpath: string; host?: string; headers: Record<string, string> }[] }
    ).requests;
    expect(entries.map((entry) => [entry.subpath, entry.headers.host, entry.host])).toEqual([
      ['/repos/a/b', `api.github.com:${daemon.port}`, `api.github.com:${daemon.port}`],
      ['/repos/c/d', 'API.GitHub.com', 'API.GitHub.com'],
      ['/repos/e/f', 'api.github.com', 'api.github.com'],
    ]);
    // A request to /endpoint/ itself came by way of no host: no field.
    await fetch(`${daemon.url}/endpoint/github/repos/g/h`);
    const all = (await requestJson(`${daemon.url}/api/endpoints/github/requests`)).body as {
      requests: Record<string, unknown>[];
    };
    expect(all.requests.find((entry) => entry.subpath === '/repos/g/h')).not.toHaveProperty('host');
  });

  it('never reaches /api or the page; the daemon’s own host works as before', async () => {
    const daemon = await githubDaemon();
    for (const path of ['/api/health', '/', '/api/endpoints']) {
      const answer = await curl(['-H', 'Host: api.github.com', `${daemon.url}${path}`]);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body).error.code).toBe('NO_ROUTE_MATCHED');
    }
    const wiped = await curl(['-X', 'DELETE', '--proxy', daemon.url, 'http://files.stripe.com/api/endpoints']);
    expect(JSON.parse(wiped.body).error.code).toBe('NO_ROUTE_MATCHED');
    expect((await requestJson(`${daemon.url}/api/endpoints/github/routes`)).body).toMatchObject({ routes: [{}] });
    expect(await curl([`${daemon.url}/endpoint/github/repos/g/h`])).toEqual({
      status: 200,
      body: '{"full_name":"g/h"}',
    });
    // The daemon's own address in absolute form (a client whose proxy is the daemon) reaches /api as before.
    expect((await curl(['--proxy', daemon.url, `${daemon.url}/api/health`])).status).toBe(200);
    // A foreign Host on /api is still refused (DNS-rebinding defence).
    const foreign = await curl(['-H', 'Host: evil.test', `${daemon.url}/api/health`]);
    expect([foreign.status, JSON.parse(foreign.body).error.code]).toEqual([403, 'HOST_NOT_ALLOWED']);
  });

  // Not on Bun (docs/runtimes.md#tests-not-run-on-bun): Bun.serve drops an absolute-form target's authority (it reads the Host header).
  it.skipIf(ON_BUN)(
    'refuses a proxied request to an unmapped host with HOST_NOT_MOCKED, listing the mapped hosts',
    async () => {
      const daemon = await githubDaemon();
      const refused = await curl(['--proxy', daemon.url, 'http://example.com/a']);
      expect(refused.status).toBe(403);
      const { error } = JSON.parse(refused.body);
      expect(error.code).toBe('HOST_NOT_MOCKED');
      expect(error.message).toContain('"example.com" is not mapped');
      expect(error.details).toEqual({ host: 'example.com', mapped: ['*.stripe.com', 'api.github.com'] });
      // stripe.com itself is not below *.stripe.com.
      expect((await curl(['--proxy', daemon.url, 'http://stripe.com/'])).status).toBe(403);
    },
  );

  it('is set by the admin API and by a mock file, and a bad setting stops start-up with one line', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'mockpoint.yaml');
    await writeFile(
      file,
      'version: 1\nendpoints:\n  - name: slack\n    hosts: [hooks.slack.com]\n    data: { ok: true }\n',
    );
    const daemon = await startDaemon({ args: ['--memory', '--config', file] });
    expect(await curl(['--proxy', daemon.url, 'http://hooks.slack.com/'])).toEqual({
      status: 200,
      body: '{"ok":true}',
    });
    const set = await requestJson(`${daemon.url}/api/endpoints/slack/hosts`, {
      method: 'PUT',
      body: { hosts: ['*.slack.com'] },
    });
    expect(set.body).toEqual({ hosts: [{ host: '*.slack.com', name: 'slack', source: 'api' }] });
    expect((await curl(['--proxy', daemon.url, 'http://a.b.slack.com/'])).status).toBe(200);
    expect((await curl(['--proxy', daemon.url, 'http://slack.com/'])).status).toBe(403);
    const exported = await runCli({ args: ['export', '--url', daemon.url] });
    expect(JSON.parse(exported.stdout).endpoints[0].hosts).toEqual(['*.slack.com']);

    const bad = await runCli({ args: ['--memory'], env: { MOCKPOINT_HOSTS: 'api.github.com=github,127.0.0.1=x' } });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('MOCKPOINT_HOSTS: "127.0.0.1=x" is not host=name');
  });
});

describe('the hosts one endpoint may have', () => {
  const hostsOf = (count: number) => Array.from({ length: count }, (_, k) => `h${k}.example.test`);
  /** A mock file with a plain endpoint first, then one with `count` hosts. */
  async function fileWith(count: number): Promise<string> {
    const file = join(await makeTempDir(), 'mockpoint.json');
    const endpoints = [
      { name: 'plain', data: { ok: true } },
      { name: 'many', hosts: hostsOf(count) },
    ];
    await writeFile(file, JSON.stringify({ version: 1, endpoints }));
    return file;
  }

  it('are at most 100: the admin API, validate, apply and --config refuse more at save, naming the limit', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const url = `${daemon.url}/api/endpoints/many/hosts`;
    const refused = await requestJson(url, { method: 'PUT', body: { hosts: hostsOf(101) } });
    expect(refused.status).toBe(400);
    const error = (refused.body as { error: { code: string; message: string; details?: unknown } }).error;
    expect(error.code).toBe('INVALID_HOSTS');
    expect(error.message).toContain('at most 100 hosts per endpoint; got 101');
    expect(error.details).toEqual({ limit: 100, count: 101 });
    expect((await requestJson(url, { method: 'PUT', body: { hosts: hostsOf(100) } })).status).toBe(200);
    await requestJson(url, { method: 'DELETE' });

    const file = await fileWith(101);
    const validated = await runCli({ args: ['validate', file] });
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain('endpoints[1].hosts: at most 100 hosts per endpoint; got 101');
    // Refused before anything of the file is written: the endpoint before it is not made either.
    const applied = await runCli({ args: ['apply', file, '--url', daemon.url] });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('endpoints[1].hosts: at most 100 hosts per endpoint; got 101');
    expect((await requestJson(`${daemon.url}/api/endpoints`)).body).toMatchObject({ endpoints: [], total: 0 });
    const started = await runCli({ args: ['--memory', '--port', '0', '--config', file] });
    expect(started.code).not.toBe(0);
    expect(started.stderr).toContain('endpoints[1].hosts: at most 100 hosts per endpoint; got 101');

    const fits = await runCli({ args: ['apply', await fileWith(100), '--url', daemon.url] });
    expect(fits.code).toBe(0);
    expect((await requestJson(url)).body).toMatchObject({ hosts: { length: 100 } });
  });
});
