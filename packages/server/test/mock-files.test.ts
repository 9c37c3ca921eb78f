// Mocks as files against the real daemon: `--config` loads a YAML file at start
// (data served byte for byte), a bad file stops start-up with one line naming
// file:line:column and path, `--watch` reapplies an edit and keeps the last good
// version when an edit is bad, and `validate`, `apply` (diff, dry run, prune) and
// `export` → reset → `apply` (the same bytes) as real processes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await removeTempDirs();
});

const FILE = `# yaml-language-server: $schema=./node_modules/@mockpoint/core/schema/mockpoint.schema.json
version: 1
endpoints:
  - name: big
    statusCode: 201
    data:
      id: 123456789012345678901234567890
      "2": -0
      price: 1.50
      tags: [a, "caf\\u00e9"]
  - name: github
    data: { fallback: true }
    routes:
      - match: { method: GET, path: /repos/:owner/:repo }
        answer:
          headers: { x-from: file }
          data: {"full_name": "{{params.owner}}/{{params.repo}}", "stars": 98765432109876543210}
          template: true
    queue:
      - statusCode: 503
        data: { retry: 1 }
`;

async function body(url: string): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Writes a file the way editors save: a new file renamed over the old one. */
function save(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

describe('mockpoint --config', () => {
  it('loads the file at start: records, routes and queued answers, data byte for byte', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml'] });
    expect(daemon.notes).toContain(`mock file ${join(cwd, 'mockpoint.yaml')}`);
    const big = await body(`${daemon.url}/endpoint/big`);
    expect(big.status).toBe(201);
    expect(big.text).toBe('{"id":123456789012345678901234567890,"2":-0,"price":1.50,"tags":["a","caf\\u00e9"]}');
    // The queued answer first, once; then the route; the record at the bare URL.
    expect(await body(`${daemon.url}/endpoint/github/repos/a/b`)).toMatchObject({ status: 503, text: '{"retry":1}' });
    const route = await body(`${daemon.url}/endpoint/github/repos/octo/cat`);
    expect(route.text).toBe('{"full_name":"octo/cat","stars":98765432109876543210}');
    expect(route.headers.get('x-from')).toBe('file');
    expect((await body(`${daemon.url}/endpoint/github`)).text).toBe('{"fallback":true}');
  });

  it('the file wins for its names; other stored names are kept', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd, args: ['--data-dir', 'data'] });
    for (const [name, data] of [
      ['big', '"old"'],
      ['mine', '"kept"'],
    ]) {
      const response = await fetch(`${first.url}/api/endpoints/${name}`, { method: 'PUT', body: `{"data":${data}}` });
      expect(response.status).toBe(201);
    }
    await first.stop();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const daemon = await startDaemon({ cwd, args: ['--data-dir', 'data', '--config', 'mockpoint.yaml'] });
    expect((await body(`${daemon.url}/endpoint/big`)).text).toMatch(/^\{"id":123456789012345678901234567890/);
    expect((await body(`${daemon.url}/endpoint/mine`)).text).toBe('"kept"');
  });

  it('a bad file stops start-up with one line: file, line, column, path', async () => {
    const cwd = await makeTempDir();
    writeFileSync(
      join(cwd, 'm.yaml'),
      'version: 1\nendpoints:\n  - name: a\n    routes:\n      - answer: { statusCode: 99 }\n',
    );
    const run = await runCli({ cwd, args: ['--memory', '--port', '0', '--config', 'm.yaml'] });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mockpoint: error: ${join(cwd, 'm.yaml')}:5:31: endpoints[0].routes[0].answer.statusCode: statusCode must be an integer from 200 to 599\n`,
    );
  });

  it('--watch reapplies a changed file; a bad edit is one line and the last good version stays', async () => {
    const cwd = await makeTempDir();
    const path = join(cwd, 'mockpoint.yaml');
    writeFileSync(path, 'version: 1\nendpoints:\n  - name: a\n    data: 1\n  - name: b\n    data: 2\n');
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml', '--watch'] });
    expect(daemon.notes).toContain(`mock file ${path} (watched)`);

    save(path, 'version: 1\nendpoints:\n  - name: a\n    data: 12345678901234567890\n  - name: c\n    data: 3\n');
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: created c; changed a; removed b');
    expect((await body(`${daemon.url}/endpoint/a`)).text).toBe('12345678901234567890');
    expect((await body(`${daemon.url}/endpoint/b`)).status).toBe(404);

    save(path, 'version: 1\nendpoints:\n  - name: a\n    data: [1, 2\n');
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('not applied, the last good version stays');
    const refusal = daemon.stderr.split('\n').filter((line) => line.includes('not applied'));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toContain(`${path}:`);
    expect((await body(`${daemon.url}/endpoint/a`)).text).toBe('12345678901234567890');
    expect((await body(`${daemon.url}/endpoint/c`)).text).toBe('3');
  });

  it('--watch reapplies when a $file fixture changes, not only the mock file', async () => {
    const cwd = await makeTempDir();
    mkdirSync(join(cwd, 'fixtures'));
    const fixture = join(cwd, 'fixtures', 'user.json');
    writeFileSync(fixture, '{"id":1}');
    writeFileSync(
      join(cwd, 'mockpoint.yaml'),
      'version: 1\nendpoints:\n  - name: user\n    data: { $file: ./fixtures/user.json }\n  - name: plain\n    data: 0\n',
    );
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml', '--watch'] });
    expect((await body(`${daemon.url}/endpoint/user`)).text).toBe('{"id":1}');

    save(fixture, '{"id":12345678901234567890}');
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('reloaded: changed user');
    expect((await body(`${daemon.url}/endpoint/user`)).text).toBe('{"id":12345678901234567890}');

    // A bad fixture is refused like a bad mock file; fixing it applies it.
    save(fixture, '{"id":');
    await expect.poll(() => daemon.stderr, { timeout: 10_000 }).toContain('not applied, the last good version stays');
    expect((await body(`${daemon.url}/endpoint/user`)).text).toBe('{"id":12345678901234567890}');
    save(fixture, '{"id":3}');
    await expect
      .poll(() => body(`${daemon.url}/endpoint/user`).then((r) => r.text), { timeout: 10_000 })
      .toBe('{"id":3}');
  });
});

describe('mockpoint validate | apply | export', () => {
  it('validate: exit 0 and a summary for a good file, exit 1 and the located error for a bad one', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'good.yaml'), FILE);
    writeFileSync(
      join(cwd, 'bad.json'),
      '{\n  "version": 1,\n  "endpoints": [\n    { "name": "a", "statuscode": 200 }\n  ]\n}\n',
    );
    const good = await runCli({ cwd, args: ['validate', 'good.yaml'] });
    expect(good).toMatchObject({ code: 0, stdout: 'good.yaml: ok (2 endpoint(s), 1 route(s))\n' });
    const bad = await runCli({ cwd, args: ['validate', 'bad.json'] });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('bad.json:4:5: endpoints[0]: unknown field(s): statuscode [MOCK_FILE_INVALID]\n');
  });

  it('apply prints the diff (dry run changes nothing), is idempotent, and prunes on request', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    await fetch(`${daemon.url}/api/endpoints/github`, { method: 'PUT', body: '{"data":0}' });
    await fetch(`${daemon.url}/api/endpoints/stray`, { method: 'PUT', body: '{"data":0}' });
    const apply = (...extra: string[]) =>
      runCli({ cwd, args: ['apply', 'mockpoint.yaml', '--url', daemon.url, ...extra] });

    const dry = await apply('--dry-run');
    expect(dry.stdout).toBe(
      '+ big\n~ github\n1 would be created, 1 would be changed, 0 would be removed, 0 unchanged\n',
    );
    expect((await body(`${daemon.url}/endpoint/big`)).status).toBe(404);

    expect((await apply()).stdout).toBe('+ big\n~ github\n1 created, 1 changed, 0 removed, 0 unchanged\n');
    expect((await apply()).stdout).toBe('0 created, 0 changed, 0 removed, 2 unchanged\n');
    expect((await apply('--prune')).stdout).toBe('- stray\n0 created, 0 changed, 1 removed, 2 unchanged\n');
    expect((await body(`${daemon.url}/endpoint/stray`)).status).toBe(404);
  });

  it('export → reset → apply gives the same answers byte for byte', async () => {
    const cwd = await makeTempDir();
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    const exact = '{"n":123456789012345678901234567890,"z":-0,"e":"\\u00e9\\/","k":{"b":1,"a":2}}';
    await fetch(`${daemon.url}/api/endpoints/one`, { method: 'PUT', body: `{"data":${exact},"statusCode":202}` });
    const routes = `{"routes":[{"id":"r1","match":{"path":"/x/:id"},"answer":{"statusCode":201,"data":${exact}}},{"answer":{"body":"plain","headers":{"content-type":"text/plain"}}}]}`;
    expect((await fetch(`${daemon.url}/api/endpoints/two/routes`, { method: 'PUT', body: routes })).status).toBe(200);
    await fetch(`${daemon.url}/api/endpoints/two`, { method: 'PUT', body: '{"data":[1.0]}' });
    const answers = async () =>
      [
        await body(`${daemon.url}/endpoint/one`),
        await body(`${daemon.url}/endpoint/two/x/5`),
        await body(`${daemon.url}/endpoint/two/else`),
      ].map(({ status, text, headers }) => ({ status, text, type: headers.get('content-type') }));
    const before = await answers();
    expect(before[0]?.text).toBe(exact);

    const exported = await runCli({ cwd, args: ['export', '--url', daemon.url, '--out', 'mockpoint.json'] });
    expect(exported.code).toBe(0);
    expect(readFileSync(join(cwd, 'mockpoint.json'), 'utf8')).toContain(exact);
    expect((await fetch(`${daemon.url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
    expect((await body(`${daemon.url}/endpoint/one`)).status).toBe(404);

    const applied = await runCli({ cwd, args: ['apply', 'mockpoint.json', '--url', daemon.url] });
    expect(applied.stdout).toBe('+ one\n+ two\n2 created, 0 changed, 0 removed, 0 unchanged\n');
    expect(await answers()).toEqual(before);
  });

  it('export as YAML (--out x.yaml or --format yaml) → reset → apply → export gives the same bytes', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'mockpoint.yaml'] });
    const cli = (...args: string[]) => runCli({ cwd, args: [...args, '--url', daemon.url] });

    expect((await cli('export', '--out', 'export.yaml')).code).toBe(0);
    const yaml = readFileSync(join(cwd, 'export.yaml'), 'utf8');
    expect(yaml).toContain('data: {"id":123456789012345678901234567890,"2":-0,"price":1.50,"tags":["a","caf\\u00e9"]}');
    expect((await cli('export', '--format', 'yaml')).stdout).toBe(yaml);
    expect((await runCli({ cwd, args: ['validate', 'export.yaml'] })).code).toBe(0);

    expect((await fetch(`${daemon.url}/api/endpoints`, { method: 'DELETE' })).status).toBe(204);
    await fetch(`${daemon.url}/api/endpoints/github/queue`, { method: 'DELETE' });
    expect((await body(`${daemon.url}/endpoint/big`)).status).toBe(404);
    const applied = await cli('apply', 'export.yaml');
    expect(applied.stdout).toBe('+ big\n+ github\n2 created, 0 changed, 0 removed, 0 unchanged\n');
    expect((await cli('export', '--format', 'yaml')).stdout).toBe(yaml);
    // The answers of the original file, byte for byte.
    expect(await body(`${daemon.url}/endpoint/big`)).toMatchObject({
      status: 201,
      text: '{"id":123456789012345678901234567890,"2":-0,"price":1.50,"tags":["a","caf\\u00e9"]}',
    });
    expect(await body(`${daemon.url}/endpoint/github/repos/a/b`)).toMatchObject({ status: 503, text: '{"retry":1}' });
    const route = await body(`${daemon.url}/endpoint/github/repos/octo/cat`);
    expect(route.text).toBe('{"full_name":"octo/cat","stars":98765432109876543210}');
    expect((await cli('export', '--format', 'toml')).code).toBe(2);
  });

  it('each subcommand has a --help; an unknown option is a one-line usage error (exit 2)', async () => {
    for (const sub of ['validate', 'apply', 'export']) {
      const help = await runCli({ args: [sub, '--help'] });
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: mockpoint ${sub}`));
    }
    const wrong = await runCli({ args: ['apply', 'x.yaml', '--force'] });
    expect(wrong).toMatchObject({
      code: 2,
      stderr: 'mockpoint apply: error: --force: unknown option; see mockpoint apply --help\n',
    });
  });
});
