// graphqlWorker(): schema mode in a real worker thread (the built dist/graphql-worker.js, as
// the daemon runs it). Its answers are byte for byte those of the event loop's runner; a schema
// stored by an older version over today's bounds is refused at query time, said once; a thread
// that stops (out of its heap) or hangs fails its jobs with a code and is replaced; the queue is
// bounded.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { githubSchema, interfaceChain } from '@mockpoint/testkit/graphql-schemas';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { graphqlRequestOf } from '../../graphql/graphql-request.js';
import { type GraphqlRunner, inlineGraphqlRunner, storedGraphqlSchema } from '../../graphql/graphql-runner.js';
import { createApp, type MockpointApp } from '../../index.js';
import { isMockpointError } from '../../registry/errors.js';
import { graphqlWorker } from './index.js';

const BUILT = fileURLToPath(new URL('../../../dist/graphql-worker.js', import.meta.url));

const SDL = `"""A person"""
type User { id: ID! name: String! age: Int score: Float active: Boolean! role: Role! friends: [User!]! }
enum Role { ADMIN MEMBER }
type Query { user(id: ID!): User users(first: Int): [User!]! }
type Mutation { rename(id: ID!, name: String!): User! }
type Subscription { renamed: User! }`;

/** Requests of every kind schema mode answers: data, variables, validation and syntax errors, a batch, introspection, too large. */
const REQUESTS: unknown[] = [
  { query: '{ users { id name age score active role friends { name } } }' },
  { query: 'query One($id: ID!) { user(id: $id) { name } }', variables: { id: '7' }, operationName: 'One' },
  { query: '{ user { nope } }' },
  { query: '{ users { ' },
  { query: 'query A { users { id } } query B { user(id: 1) { name } }' },
  { query: 'query A { users { id } }', variables: 'not an object' },
  [
    { query: '{ users { id } }' },
    { query: 'mutation { rename(id: 1, name: "x") { name } }' },
    { query: 'subscription { renamed { name } }' },
  ],
  { query: '{ __schema { types { name kind fields { name } } } __typename }' },
  {
    query:
      '{ users { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { friends { id } } } } } } } } } } } } } } } } } } }',
  },
];

const runners: GraphqlRunner[] = [];
function worker(options: Parameters<typeof graphqlWorker>[0] = {}): GraphqlRunner {
  const runner = graphqlWorker(options);
  runners.push(runner);
  return runner;
}

beforeAll(() => {
  if (!existsSync(BUILT))
    throw new Error(`${BUILT} is missing: run \`pnpm build\` (a worker thread runs the built module)`);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
});

async function answers(app: MockpointApp): Promise<string[]> {
  expect((await app.request('/api/endpoints/gh/graphql', { method: 'PUT', body: SDL })).status).toBe(201);
  const texts: string[] = [];
  for (const body of REQUESTS) {
    const response = await app.request('/endpoint/gh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    texts.push(`${response.status} ${await response.text()}`);
  }
  return texts;
}

/** The operation a GraphQL request body holds (read as the read path reads it). */
function operationOf(query: string) {
  const request = graphqlRequestOf({
    method: 'POST',
    query: {},
    headers: {},
    body: '',
    bodyTruncated: false,
    json: { query },
  });
  return request?.operations[0] as NonNullable<typeof request>['operations'][number];
}

describe('graphqlWorker()', () => {
  it('answers every kind of request byte for byte as the event loop does', { timeout: 60_000 }, async () => {
    const inline = await answers(createApp());
    const threaded = await answers(createApp({ graphqlRunner: worker() }));
    expect(threaded).toEqual(inline);
    // The kinds are there: data, a request error, a batch, the bound.
    expect(inline[0]).toMatch(/^200 \{"data":\{"users":\[/);
    expect(inline[2]).toMatch(/^200 \{"errors":\[\{"message":"Cannot query field/);
    expect(inline[6]).toMatch(/^200 \[\{"data"/);
    expect(inline[8]).toMatch(/Operation too large for a mock answer/);
  });

  for (const kind of ['worker', 'event loop'] as const) {
    it(`refuses, at query time, a stored schema over today's bounds (${kind}); said once; never hangs`, {
      timeout: 60_000,
    }, async () => {
      const lines: string[] = [];
      const log = (line: string) => lines.push(line);
      const app = createApp({ graphqlRunner: kind === 'worker' ? worker({ log }) : inlineGraphqlRunner({ log }) });
      // As an older version stored it: past the store's front door, which checks today's bounds.
      await app.mockpoint.endpoints.store.setSetting('graphql', 'old', interfaceChain(900));
      const started = performance.now();
      for (let i = 0; i < 2; i++) {
        const response = await app.request('/endpoint/old', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ root { f } }' }),
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({
          error: {
            code: 'GRAPHQL_SCHEMA_TOO_COMPLEX',
            message: expect.stringContaining('it was stored by an older version, so it is not served'),
          },
        });
      }
      // Refused after parsing, not after the 30-48 s build it would take.
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^mockpoint: warning: the GraphQL schema of "old" is not served \(GRAPHQL_SCHEMA_TOO_COMPLEX\)/,
      );
    });
  }

  it('a thread out of its heap fails its job with GRAPHQL_WORKER_FAILED; the next job gets a new thread', {
    timeout: 120_000,
  }, async () => {
    const lines: string[] = [];
    const runner = worker({ maxHeapMb: 16, log: (line) => lines.push(line) });
    const github = storedGraphqlSchema('github', await githubSchema());
    const viewer = { operation: operationOf('{ viewer { login } }'), maxValues: 100_000 };
    const failed = await runner.answer(github, [viewer]).catch((error: unknown) => error);
    expect(isMockpointError(failed) && failed.code).toBe('GRAPHQL_WORKER_FAILED');
    expect(lines.join('\n')).toMatch(/the GraphQL worker stopped/);
    const small = storedGraphqlSchema('small', SDL);
    const [answer] = await runner.answer(small, [{ operation: operationOf('{ users { id } }'), maxValues: 100_000 }]);
    expect(JSON.parse(answer?.json ?? '')).toMatchObject({
      data: { users: [{ id: expect.any(String) }, expect.anything()] },
    });
  });

  it('a thread that answers nothing within timeoutMs is replaced; its jobs fail with GRAPHQL_WORKER_FAILED', {
    timeout: 60_000,
  }, async () => {
    const runner = worker({ timeoutMs: 50, log: () => undefined });
    const github = storedGraphqlSchema('github', await githubSchema());
    // Building GitHub's schema takes far longer than 50 ms.
    const failed = await runner
      .answer(github, [{ operation: operationOf('{ viewer { login } }'), maxValues: 100_000 }])
      .catch((error: unknown) => error);
    expect(isMockpointError(failed) && failed.code).toBe('GRAPHQL_WORKER_FAILED');
    expect(isMockpointError(failed) && failed.message).toMatch(/no answer within 50 ms/);
  });

  it('a hung thread is replaced timeoutMs after it stopped answering, however often new jobs arrive', {
    timeout: 60_000,
  }, async () => {
    // A thread's module that takes every message and answers none.
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-hung-worker-'));
    const hung = join(dir, 'hung.mjs');
    await writeFile(hung, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n");
    try {
      // The watchdog's clock is faked: 100 ms of it between jobs, with no real time waited.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const runner = worker({ url: pathToFileURL(hung), timeoutMs: 300, log: () => undefined });
      const small = storedGraphqlSchema('small', SDL);
      const call = [{ operation: operationOf('{ users { id } }'), maxValues: 100_000 }];
      let sent = 0;
      let failedAfter = -1;
      const first = runner.answer(small, call).then(
        () => 'answered',
        (error: unknown) => {
          failedAfter = sent;
          return isMockpointError(error) ? error.code : String(error);
        },
      );
      // A new job every 100 ms for 1.5 s: each used to start the 300 ms watchdog again.
      const trickle: Promise<unknown>[] = [];
      for (let i = 0; i < 15; i++) {
        await vi.advanceTimersByTimeAsync(100);
        trickle.push(runner.answer(small, call).catch(() => undefined));
        sent++;
      }
      // It failed 300 ms after the first job, two jobs into the trickle (before: 300 ms after the last job).
      expect(failedAfter).toBe(2);
      expect(await first).toBe('GRAPHQL_WORKER_FAILED');
      // The trickle's last jobs wait on a thread that hangs too: its watchdog ends them.
      await vi.advanceTimersByTimeAsync(300);
      await Promise.all(trickle);
    } finally {
      vi.useRealTimers();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("without the thread's module beside it (a single executable), answers on the event loop, byte for byte", {
    timeout: 60_000,
  }, async () => {
    const missing = pathToFileURL(join(tmpdir(), 'mockpoint-no-such-dir', 'graphql-worker.js'));
    const inline = await answers(createApp());
    const fallback = await answers(createApp({ graphqlRunner: worker({ url: missing }) }));
    expect(fallback).toEqual(inline);
  });

  it('takes at most maxQueued waiting jobs: more get TOO_MANY_GRAPHQL_REQUESTS', { timeout: 60_000 }, async () => {
    const runner = worker({ maxQueued: 2 });
    const small = storedGraphqlSchema('small', SDL);
    const call = [{ operation: operationOf('{ users { id } }'), maxValues: 100_000 }];
    const results = await Promise.allSettled([
      runner.answer(small, call),
      runner.answer(small, call),
      runner.answer(small, call),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const refused = (results[2] as PromiseRejectedResult).reason;
    expect(isMockpointError(refused) && refused.status).toBe(503);
    expect(isMockpointError(refused) && refused.code).toBe('TOO_MANY_GRAPHQL_REQUESTS');
  });
});
