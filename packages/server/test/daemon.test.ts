// The built `mockpoint` daemon as a real process: start-up, settings, errors,
// restarts, SIGKILL durability, the data-directory lock, concurrency and graceful
// shutdown. Every daemon listens on 127.0.0.1 port 0 in its own temp directory.
import { readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addEndpoint,
  longPollsHeld,
  makeTempDir,
  requestJson,
  runCli,
  sharedDaemon,
  startDaemon,
  useDaemons,
} from './helpers/daemon.js';

const STACK_FRAME = /^\s+at /m;

useDaemons();

/** Asserts a failed start: non-zero exit, nothing on stdout, exactly one stderr line matching `pattern`. */
function expectOneLineFailure(run: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(run.code, run.stderr).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mockpoint: error: /);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(STACK_FRAME);
}

describe('command line', () => {
  it('--help prints the usage and exits 0', async () => {
    const run = await runCli({ args: ['--help'] });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: mockpoint \[options\] +run the daemon$/m);
    expect(run.stdout).toContain('--port');
    expect(run.stderr).toBe('');
  });

  it('--version prints the package version and exits 0', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = await runCli({ args: ['--version'] });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${pkg.version}\n`);
  });

  it('a bad MOCKPOINT_PORT stops start-up with one line naming it', async () => {
    const run = await runCli({ env: { MOCKPOINT_PORT: 'abc' } });
    expectOneLineFailure(run, /MOCKPOINT_PORT: "abc" is not a port number/);
  });

  it('a data directory that cannot be created stops start-up with one line (also under /proc)', async () => {
    expectOneLineFailure(
      await runCli({ args: ['--data-dir', '/proc/mockpoint-nope'] }),
      /cannot create data directory/,
    );
    expectOneLineFailure(await runCli({ args: ['--data-dir', '/etc/hostname/x'] }), /cannot create data directory/);
  });

  it('a negative --max-delay-ms stops start-up with one line naming it', async () => {
    const run = await runCli({ args: ['--max-delay-ms', '-5'] });
    expectOneLineFailure(run, /--max-delay-ms: "-5"/);
  });

  it('a busy port stops start-up with one line naming the port', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const run = await runCli({ args: ['--port', String(port), '--host', '127.0.0.1'] });
      expectOneLineFailure(run, new RegExp(`port ${port} is already in use`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('start-up line and stores', () => {
  it('names the URL, the absolute data directory and the store', async () => {
    const cwd = await realpath(await makeTempDir());
    const daemon = await startDaemon({ cwd });
    expect(daemon.url).toBe(`http://127.0.0.1:${daemon.port}`);
    expect(daemon.store).toBe(`level at ${join(cwd, 'data')}`);
    const health = await requestJson(`${daemon.url}/api/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', store: 'level', version: daemon.version } });
    expect(await readdir(join(cwd, 'data'))).toContain('CURRENT');
  });

  it('--memory serves without writing anything to the working directory', async () => {
    const cwd = await makeTempDir();
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    expect(daemon.store).toMatch(/^memory/);
    expect((await addEndpoint(daemon.url, { name: 'm', data: 1 })).status).toBe(201);
    expect(await requestJson(`${daemon.url}/endpoint/m`)).toEqual({ status: 200, body: 1 });
    expect((await daemon.stop()).code).toBe(0);
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe('.env in the working directory', () => {
  it('is read: a bad MOCKPOINT_PORT there stops start-up', async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_PORT=abc\n');
    expectOneLineFailure(await runCli({ cwd }), /MOCKPOINT_PORT: "abc"/);
  });

  it('loses to the environment and to flags', async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_PORT=abc\n');
    const fromEnv = await startDaemon({ cwd, env: { MOCKPOINT_PORT: '0' }, args: ['--memory'] });
    expect(fromEnv.port).toBeGreaterThan(0);
    expect(fromEnv.notes).toContain(`env file: ${join(cwd, '.env')}`);
    const fromFlag = await startDaemon({ cwd, args: ['--port', '0', '--memory'] });
    expect(fromFlag.port).toBeGreaterThan(0);
  });

  it('sets limits: MOCKPOINT_MAX_DELAY_MS there is enforced', async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, '.env'), 'MOCKPOINT_MAX_DELAY_MS=100\n');
    const daemon = await startDaemon({ cwd, args: ['--memory'] });
    expect(await addEndpoint(daemon.url, { name: 'ok', data: 1, delay: 100 })).toMatchObject({ status: 201 });
    expect(await addEndpoint(daemon.url, { name: 'slow', data: 1, delay: 101 })).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'INVALID_DELAY' } },
    });
  });
});

describe('durability and the data directory', () => {
  it('SIGTERM exits 0 and a restart on the same directory reads the endpoint back', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    expect(await addEndpoint(first.url, { name: 'kept', data: { a: [1, 2] }, statusCode: 202 })).toMatchObject({
      status: 201,
    });
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(first.stdout).toContain('SIGTERM received, shutting down');
    expect(first.stderr).toBe('');

    const second = await startDaemon({ cwd });
    expect(await requestJson(`${second.url}/endpoint/kept`)).toEqual({ status: 202, body: { a: [1, 2] } });
  });

  // A process kill leaves the OS page cache intact, so this proves the write was
  // handed to LevelDB before the 201; that it is fsync'd (survives power loss) is
  // checked in core's level-store.test.ts (every write passes sync: true).
  it('an acknowledged add survives SIGKILL right after its 201', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const names = Array.from({ length: 20 }, (_, i) => `crash-${i}`);
    const answers = await Promise.all(names.map((name) => addEndpoint(first.url, { name, data: { name } })));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startDaemon({ cwd });
    const reads = await Promise.all(names.map((name) => requestJson(`${second.url}/endpoint/${name}`)));
    expect(reads).toEqual(names.map((name) => ({ status: 200, body: { name } })));
  });

  it('a second daemon on the same data directory fails with one line; the first keeps serving', async () => {
    const cwd = await makeTempDir();
    const first = await startDaemon({ cwd });
    const second = await runCli({ cwd, args: ['--port', '0', '--host', '127.0.0.1'] });
    expectOneLineFailure(second, /data directory .*data is in use by another mockpoint process/);
    // Before: only that; now where the running one listens and the ways out.
    expect(second.stderr).toContain(`(pid ${first.child.pid}, listening on ${first.url})`);
    expect(second.stderr).toContain('stop it, or start this one with --memory (nothing on disk) or --data-dir');
    expect(second.stdout).toBe('');
    expect(await addEndpoint(first.url, { name: 'still', data: true })).toMatchObject({ status: 201 });
    expect(await requestJson(`${first.url}/endpoint/still`)).toEqual({ status: 200, body: true });
  });

  it('after a daemon killed outright, the refusal names the daemon that runs now', async () => {
    const cwd = await makeTempDir();
    const killed = await startDaemon({ cwd });
    await killed.stop('SIGKILL');
    const next = await startDaemon({ cwd });
    const refused = await runCli({ cwd, args: ['--port', '0', '--host', '127.0.0.1'] });
    expect(refused.stderr).toContain(`(pid ${next.child.pid}, listening on ${next.url})`);
    expect(refused.stderr).not.toContain(killed.url);
  });
});

describe('under concurrent load', () => {
  // One daemon (LevelDB) for the three: each works on names of its own.
  const loaded = sharedDaemon();

  it('200 concurrent adds of distinct names all succeed and are all readable', async () => {
    const daemon = await loaded();
    const names = Array.from({ length: 200 }, (_, i) => `n${i}`);
    const adds = await Promise.all(names.map((name, i) => addEndpoint(daemon.url, { name, data: i })));
    expect(adds.map((a) => a.status)).toEqual(names.map(() => 201));
    const reads = await Promise.all(names.map((name) => requestJson(`${daemon.url}/endpoint/${name}`)));
    expect(reads).toEqual(names.map((_, i) => ({ status: 200, body: i })));
  });

  it('50 concurrent adds of one name: exactly one 201, 49 x 409, and the winner is stored', async () => {
    const daemon = await loaded();
    const adds = await Promise.all(
      Array.from({ length: 50 }, (_, i) => addEndpoint(daemon.url, { name: 'contested', data: i })),
    );
    const winners = adds.filter((a) => a.status === 201);
    const losers = adds.filter((a) => a.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    for (const loser of losers) expect(loser.body).toMatchObject({ success: false, error: { code: 'NAME_TAKEN' } });
    const winner = winners[0]?.body as { data: number };
    expect(await requestJson(`${daemon.url}/endpoint/contested`)).toEqual({ status: 200, body: winner.data });
  });

  it('100 concurrent reads of a 300 ms endpoint wait concurrently, not in turn', async () => {
    const daemon = await loaded();
    expect(await addEndpoint(daemon.url, { name: 'slow', data: 'late', delay: 300 })).toMatchObject({ status: 201 });
    const started = performance.now();
    const reads = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const t0 = performance.now();
        const answer = await requestJson(`${daemon.url}/endpoint/slow`);
        return { ...answer, ms: performance.now() - t0 };
      }),
    );
    const total = performance.now() - started;
    for (const read of reads) {
      expect(read).toMatchObject({ status: 200, body: 'late' });
      expect(read.ms).toBeGreaterThanOrEqual(290);
    }
    expect(total).toBeLessThan(5000); // in turn it would be 30 s
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight delayed request finish before exiting 0', async () => {
    const daemon = await startDaemon();
    expect(await addEndpoint(daemon.url, { name: 'inflight', data: { done: true }, delay: 500 })).toMatchObject({
      status: 201,
    });
    const started = performance.now();
    const inFlight = requestJson(`${daemon.url}/endpoint/inflight`);
    // The journal records the request before its delay starts: wait for it, then stop.
    const seen = await requestJson(`${daemon.url}/api/endpoints/inflight/requests?wait=5000&count=1`);
    expect(seen).toMatchObject({ status: 200, body: { complete: true } });
    const exit = daemon.stop('SIGTERM');
    expect(await inFlight).toEqual({ status: 200, body: { done: true } });
    const answered = performance.now();
    expect(answered - started).toBeGreaterThanOrEqual(490);
    expect(await exit).toEqual({ code: 0, signal: null });
    // Not held open by the client's idle keep-alive connections (fetch keeps them ~4 s): 3 s, not 2 s, leaves a
    // busy machine room for the shutdown itself while still telling the two apart.
    expect(performance.now() - answered).toBeLessThan(3000);
  });

  it('answers a pending long-poll at once with what there is, instead of holding the shutdown', async () => {
    const daemon = await startDaemon();
    const poll = requestJson(`${daemon.url}/api/endpoints/quiet/requests?wait=30000&count=1`);
    await longPollsHeld([daemon.url], 1); // the poll is held before the server is stopped
    const stopped = performance.now();
    const exit = daemon.stop('SIGTERM');
    expect(await poll).toEqual({
      status: 200,
      body: { requests: [], complete: false, journalId: expect.any(String) },
    });
    expect(await exit).toEqual({ code: 0, signal: null });
    // Not the 5 s grace (a timer: never less), let alone 30 s; 4 s leaves a busy machine room for the shutdown.
    expect(performance.now() - stopped).toBeLessThan(4000);
  });
});
