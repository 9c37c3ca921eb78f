// `--serve name=port`: an endpoint at the root of a port of its own, against the
// built daemon with curl: every path is its subpath (a POST with a body too),
// nothing else answers there, the flag repeats, the setting works, and a port in
// use stops start-up with one line naming --serve.
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { curl } from './helpers/curl.js';
import { requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

it('serves each endpoint at the root of its own port, every path its subpath', async () => {
  const daemon = await startDaemon({ args: ['--memory', '--serve', 'github=0', '--serve', 'stripe=0'] });
  const at = (name: string) => {
    const note = daemon.notes.find((line) => line.startsWith(`${name} served at `));
    expect(note, daemon.startLine).toBeDefined();
    return (note as string).slice(`${name} served at `.length);
  };
  const github = at('github');
  expect(github).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(at('stripe')).not.toBe(github);
  await requestJson(`${daemon.url}/api/endpoints/github/routes`, {
    method: 'PUT',
    body: {
      routes: [
        { match: { method: 'POST', path: '/repos/:o/:r/issues' }, answer: { statusCode: 201, data: { number: 1 } } },
      ],
    },
  });
  await requestJson(`${daemon.url}/api/endpoints/stripe`, { method: 'PUT', body: { data: { object: 'balance' } } });
  expect(await curl(['-X', 'POST', '-d', '{"title":"t"}', `${github}/repos/a/b/issues`])).toEqual({
    status: 201,
    body: '{"number":1}',
  });
  expect(await curl([`${at('stripe')}/`])).toEqual({ status: 200, body: '{"object":"balance"}' });
  // Nothing but the endpoint answers there: /api is one of its subpaths.
  const api = await curl([`${github}/api/health`]);
  expect([api.status, JSON.parse(api.body).error.code]).toEqual([404, 'NO_ROUTE_MATCHED']);
  const journal = await requestJson(`${daemon.url}/api/endpoints/github/requests`);
  const entries = (journal.body as { requests: { subpath: string; body: string }[] }).requests;
  expect(entries.map((entry) => [entry.subpath, entry.body])).toEqual([
    ['/repos/a/b/issues', '{"title":"t"}'],
    ['/api/health', ''],
  ]);
});

it('takes MOCKPOINT_SERVE, and a taken port or a bad entry stops start-up with one line', async () => {
  const daemon = await startDaemon({ args: ['--memory'], env: { MOCKPOINT_SERVE: 'a=0' } });
  expect(daemon.notes.some((line) => line.startsWith('a served at http://127.0.0.1:'))).toBe(true);
  await daemon.stop();

  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const busy = await runCli({
      args: ['--memory', '--port', '0', '--host', '127.0.0.1', '--serve', `github=${port}`],
    });
    expect(busy.code).not.toBe(0);
    expect(busy.stderr.trim().split('\n')).toHaveLength(1);
    expect(busy.stderr).toContain(`port ${port} is already in use`);
    expect(busy.stderr).toContain('choose another for github in --serve or MOCKPOINT_SERVE');
  } finally {
    taken.close();
  }
  const bad = await runCli({ args: ['--memory', '--serve', 'github'] });
  expect(bad.stderr.trim()).toMatch(/^mockpoint: .*--serve: "github" is not name=port/);
});
