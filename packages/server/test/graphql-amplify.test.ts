// GraphQL schema mode under requests that amplify, against the built daemon (127.0.0.1,
// bounded): a 2.8 MB schema of 900 interfaces each implementing the earlier ones (a PUT
// stalled 15-22 s and the first query 30-48 s before, again after every restart), and 2,000
// aliases of a depth-2 introspection in one 157 KB document, 12 times (16 s,
// 54 MB and +1 GB before). Then a restart on the same data folder and its first query.
// /api/health is asked every 200 ms throughout and must answer within 1 s; the RSS is
// watched. MOCKPOINT_PROBE_BIN=<another build's cli.js> runs the same probe against that
// build (how the figures before the fix were measured).
import { join } from 'node:path';
import { LevelStore } from '@mockpoint/core/level';
import { githubSchema, interfaceChain } from '@mockpoint/testkit/graphql-schemas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, startDaemon } from './helpers/daemon.js';
import { type HealthReport, watchHealth } from './helpers/watch-health.js';

beforeAll(() => {
  if (process.env.MOCKPOINT_PROBE_BIN === undefined) assertBuilt();
});
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const MiB = 1024 * 1024;

const SDL = `type User { id: ID! name: String! friends: [User!]! role: Role! }
enum Role { ADMIN MEMBER }
type Query { user(id: ID!): User users(first: Int): [User!]! }
type Mutation { rename(id: ID!, name: String!): User! }`;

/** A request that may time out (after 2 minutes: a build before the bounds took up to 48 s): its status and text, or what went wrong. */
async function send(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 0, text: String(error) };
  }
}

/** A GraphQL POST of `body` (JSON text) to `url`: its status and text. */
function postGraphql(url: string, body: string): Promise<{ status: number; text: string }> {
  return send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

function line(what: string, report: HealthReport): string {
  return `${what}: health worst ${Math.round(report.worstMs)} ms over ${report.asked} asks, daemon CPU ${report.cpuMs} ms, RSS ${Math.round(report.rssStart / MiB)} -> peak ${Math.round(report.rssPeak / MiB)} MiB`;
}

describe('GraphQL schema mode under amplifying requests (daemon)', () => {
  it('refuses the costly schema and the aliased introspection; health answers within 1 s, across a restart', {
    timeout: 300_000,
  }, async () => {
    const cwd = await makeTempDir();
    const bin = process.env.MOCKPOINT_PROBE_BIN;
    const first = await startDaemon({ cwd, bin });
    const schemaUrl = `${first.url}/api/endpoints/gh/graphql`;
    const reports: HealthReport[] = [];

    // 1. The schema that took 15-22 s to check.
    const chain = interfaceChain(900);
    let watch = await watchHealth(first.url, first.child.pid as number);
    const complex = await send(schemaUrl, { method: 'PUT', body: chain });
    reports.push(await watch.stop());
    console.log(
      `${line('900 interfaces PUT', reports[0] as HealthReport)}; ${chain.length} bytes -> ${complex.status}`,
    );

    // 2. A schema that builds, then introspection in 2,000 aliases.
    // 201 made; 200 replaced (when the refused schema above was taken after all, as before the bound).
    expect([200, 201]).toContain((await send(schemaUrl, { method: 'PUT', body: SDL })).status);
    const one = '__schema { types { name fields { name type { name ofType { name } } } } }';
    const query = `{ ${Array.from({ length: 2_000 }, (_, i) => `a${i}: ${one}`).join(' ')} }`;
    const body = JSON.stringify({ query });
    watch = await watchHealth(first.url, first.child.pid as number);
    const answers: { status: number; text: string }[] = [];
    // One after another: each is the attack; a flood of any 157 KB document costs its parsing, bounded apart.
    for (let round = 0; round < 12; round++) {
      answers.push(await postGraphql(`${first.url}/endpoint/gh`, body));
    }
    reports.push(await watch.stop());
    const largest = Math.max(...answers.map((answer) => Buffer.byteLength(answer.text)));
    console.log(
      `${line('2,000 aliased introspections x 12', reports[1] as HealthReport)}; ${body.length} bytes each -> largest answer ${largest} bytes`,
    );

    // 3. A restart on the same data folder: the first query.
    await first.stop();
    const second = await startDaemon({ cwd, bin });
    watch = await watchHealth(second.url, second.child.pid as number);
    const firstQuery = await postGraphql(
      `${second.url}/endpoint/gh`,
      JSON.stringify({ query: '{ users { name friends { role } } }' }),
    );
    reports.push(await watch.stop());
    console.log(`${line('first query after restart', reports[2] as HealthReport)}; -> ${firstQuery.status}`);

    expect(complex.status).toBe(400);
    expect(JSON.parse(complex.text)).toMatchObject({ error: { code: 'GRAPHQL_SCHEMA_TOO_COMPLEX' } });
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({
        errors: [{ message: expect.stringMatching(/^Operation too large for a mock answer: its introspection/) }],
      });
    }
    expect(firstQuery.status).toBe(200);
    expect(JSON.parse(firstQuery.text)).toMatchObject({ data: { users: expect.any(Array) } });
    for (const report of reports) {
      expect(report.failed).toBe(0);
      expect(report.worstMs).toBeLessThan(1_000);
      expect(report.rssPeak - report.rssStart).toBeLessThan(300 * MiB);
    }
  });

  // 4. GitHub's schema, within the bounds: its build (about a second of CPU, more under load) and its
  // first answers run off the event loop, after a save and after a restart.
  it("builds GitHub's schema off the event loop: health answers within 1 s after a save and a restart", {
    timeout: 300_000,
  }, async () => {
    const sdl = await githubSchema();
    const cwd = await makeTempDir();
    const bin = process.env.MOCKPOINT_PROBE_BIN;
    const query = JSON.stringify({
      query: '{ viewer { login repositories(first: 5) { nodes { name stargazerCount owner { login } } } } }',
    });
    const ask = (url: string) => postGraphql(`${url}/endpoint/github/graphql`, query);
    const reports: HealthReport[] = [];

    const first = await startDaemon({ cwd, bin });
    let watch = await watchHealth(first.url, first.child.pid as number);
    const saved = await send(`${first.url}/api/endpoints/github/graphql`, { method: 'PUT', body: sdl });
    const afterSave = await ask(first.url);
    reports.push(await watch.stop());
    console.log(
      `${line("GitHub's schema: PUT and first query", reports[0] as HealthReport)}; -> ${saved.status}, ${afterSave.status}`,
    );
    await first.stop();

    const second = await startDaemon({ cwd, bin });
    watch = await watchHealth(second.url, second.child.pid as number);
    const afterRestart = await ask(second.url);
    reports.push(await watch.stop());
    console.log(
      `${line("GitHub's schema: first query after restart", reports[1] as HealthReport)}; -> ${afterRestart.status}`,
    );

    expect(saved.status).toBe(201);
    for (const answer of [afterSave, afterRestart]) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ data: { viewer: { login: expect.any(String) } } });
    }
    // The same answer from the worker of each run.
    expect(afterRestart.text).toBe(afterSave.text);
    for (const report of reports) {
      expect(report.failed).toBe(0);
      expect(report.worstMs).toBeLessThan(1_000);
      expect(report.rssPeak - report.rssStart).toBeLessThan(400 * MiB);
    }
  });

  // 5. A schema an older version stored before the bounds (planted in the LevelDB data folder, past the
  // API's check): read within today's bounds when first loaded, refused, said once; it would take
  // 30-48 s to build, on the event loop before.
  it('refuses a stored schema over the bounds at query time, logged once; health answers within 1 s', {
    timeout: 300_000,
  }, async () => {
    const cwd = await makeTempDir();
    const store = await LevelStore.open({ dir: join(cwd, 'data') });
    await store.setSetting('graphql', 'old', interfaceChain(900));
    await store.close();
    const bin = process.env.MOCKPOINT_PROBE_BIN;
    const daemon = await startDaemon({ cwd, bin });
    const watch = await watchHealth(daemon.url, daemon.child.pid as number);
    const answers: { status: number; text: string }[] = [];
    for (let i = 0; i < 2; i++) {
      answers.push(await postGraphql(`${daemon.url}/endpoint/old`, JSON.stringify({ query: '{ root { f } }' })));
    }
    const report = await watch.stop();
    console.log(
      `${line('900 interfaces stored before the bounds, 2 queries', report)}; -> ${answers.map((a) => a.status).join(', ')}`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { code: 'GRAPHQL_SCHEMA_TOO_COMPLEX', message: expect.stringContaining('stored by an older version') },
      });
    }
    const said = daemon.stderr.split('\n').filter((l) => l.includes('the GraphQL schema of "old" is not served'));
    expect(said).toHaveLength(1);
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1_000);
  });
});
