// `mockpoint import`, one entry point for every format (the real CLI and a real daemon): the format
// told from the file, the left-out listing in one form on standard error and in --json, --strict,
// --out and --apply alike for each importer.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    entries: [
      {
        request: { method: 'GET', url: 'https://api.example.com/users/1', headers: [] },
        response: {
          status: 200,
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          content: { mimeType: 'application/json', text: '{"id":12345678901234567890}' },
        },
      },
      { request: { method: 'GET', url: 'data:text/plain,hi' }, response: { status: 200, content: {} } },
    ],
  },
});

describe('mockpoint import: one entry point', () => {
  it('tells each format from the file, and lists what it left out the same way', async () => {
    const dir = await makeTempDir('mockpoint-import-');
    writeFileSync(join(dir, 'rec.har'), HAR);
    writeFileSync(join(dir, 'db.json'), '{"posts":[{"id":1}],"n":1}');
    writeFileSync(join(dir, 'schema.graphql'), 'type Query { hello: String }\n');
    const har = await runCli({ cwd: dir, args: ['import', 'rec.har', '--name', 'api'] });
    expect(har.code, har.stderr).toBe(0);
    expect(har.stderr.split('\n')).toEqual([
      'mockpoint import: left out GET data:text/plain,hi: not an http(s) request with a method',
      'mockpoint import: 1 of 2 entries as 1 route(s) of endpoint api (from api.example.com)',
      '',
    ]);
    expect(JSON.parse(har.stdout).endpoints[0].name).toBe('api');
    // Told from the file when every member is an array or an object; here one is not, so named.
    const db = await runCli({ cwd: dir, args: ['import', 'db.json', '--name', 'db', '--from', 'json-server'] });
    expect(db.code, db.stderr).toBe(0);
    expect(db.stderr).toContain(
      'mockpoint import: left out "n": neither an array nor an object (json-server serves no route for it)\n',
    );
    const gql = await runCli({ cwd: dir, args: ['import', 'schema.graphql', '--name', 'g', '--json'] });
    expect(gql.code, gql.stderr).toBe(0);
    expect(JSON.parse(gql.stdout)).toEqual({
      kind: 'graphql',
      name: 'g',
      leftOut: [],
      mockFile: { version: 1, endpoints: [{ name: 'g', graphql: 'type Query { hello: String }\n' }] },
    });
  });

  it('--json carries leftOut and the exact mock file; --strict exits 1 and still writes --out', async () => {
    const dir = await makeTempDir('mockpoint-import-');
    writeFileSync(join(dir, 'rec.har'), HAR);
    const json = await runCli({ cwd: dir, args: ['import', 'rec.har', '--name', 'api', '--json'] });
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.kind).toBe('har');
    expect(parsed.leftOut).toEqual([{ what: 'GET data:text/plain,hi', why: 'not an http(s) request with a method' }]);
    // The answer's data is the recorded text, big integer and all.
    expect(json.stdout).toContain('12345678901234567890');
    const strict = await runCli({
      cwd: dir,
      args: ['import', 'rec.har', '--name', 'api', '--strict', '--out', 'out.json'],
    });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('mockpoint import: left out GET data:text/plain,hi');
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).endpoints[0].routes).toHaveLength(1);
  });

  it('--apply makes a running daemon answer the import', async () => {
    const daemon = await startDaemon();
    const dir = await makeTempDir('mockpoint-import-');
    writeFileSync(join(dir, 'rec.har'), HAR);
    const applied = await runCli({
      cwd: dir,
      args: ['import', 'rec.har', '--name', 'api', '--apply', '--url', daemon.url, '--json'],
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).applied).toMatchObject({ created: ['api'] });
    const answer = await fetch(`${daemon.url}/endpoint/api/users/1`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"id":12345678901234567890}');
  });

  it('refuses a flag of another format, an unknown --from, and --url without --apply', async () => {
    const dir = await makeTempDir('mockpoint-import-');
    writeFileSync(join(dir, 'rec.har'), HAR);
    const cases: [string[], RegExp][] = [
      [['--id', 'key'], /--id is for --from json-server, not har/],
      [['--from', 'nope'], /--from is graphql, har, .*json-server, openapi, not "nope"/],
      [['--url', 'http://127.0.0.1:1'], /--url and --token are for --apply/],
    ];
    for (const [extra, message] of cases) {
      const run = await runCli({ cwd: dir, args: ['import', 'rec.har', '--name', 'api', ...extra] });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
