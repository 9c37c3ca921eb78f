// `mockpoint import <document> --stateful` with no profile on a whole real third-party document:
// revert.oas.json of the npm package @opensdks/sdk-revert 0.0.1 (Revert's unified CRM API, 49
// paths), driven by that package's own generated client (initRevertSDK, openapi-fetch on
// @opensdks/runtime). Its shapes differ from Brex's and Coda's (twin-document-shapes.test.ts):
// every item answered inside `{ status, result }` (a create's and update's `result` left open,
// `{}`), lists as `{ status, next, previous, results }` paged by `cursor` and a string `pageSize`,
// requests whose required fields sit in `allOf` parts, errors as `{ error }`, updates by PATCH
// (docs/twins.md, "Any OpenAPI document"). On memory and on LevelDB; every process on 127.0.0.1.
import { createRequire } from 'node:module';
import { initRevertSDK } from '@opensdks/sdk-revert';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  removeTempDirs,
  runCli,
  startDaemon,
} from './helpers/daemon.js';

const REVERT = createRequire(import.meta.url).resolve('@opensdks/sdk-revert/revert.oas.json');

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

/** Revert's client (its own generated one) at the twin `revert` of `daemon`. */
function revertAt(daemon: Daemon) {
  return initRevertSDK({
    baseUrl: `${daemon.url}/endpoint/revert`,
    headers: { 'x-revert-api-token': 'token', 'x-revert-t-id': 'tenant' },
  });
}

/** What the client threw: the status and the error body it read (its HTTPError). */
async function refusal(call: Promise<unknown>): Promise<{ status: unknown; body: unknown }> {
  const error = (await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code?: unknown; error?: unknown } | undefined;
  return { status: error?.code, body: error?.error };
}

/** A whole event as commonEventWrite requires it (every field of commonEventRead, and `additional`). */
function event(subject: string) {
  return {
    type: 'meeting',
    subject,
    startDateTime: '2026-11-28T10:00:00Z',
    endDateTime: '2026-11-28T11:00:00Z',
    isAllDayEvent: false,
    description: `About ${subject}`,
    location: 'Room 1',
    additional: {},
  };
}

const STORES: ['memory' | 'level'][] = [['memory'], ['level']];

describe.each(STORES)('a twin of Revert on %s ({ status, result }, { next, results }, { error }, PATCH)', (store) => {
  it('creates, reads, pages by next and cursor, updates by PATCH, deletes, refuses what the document requires', async () => {
    const args = store === 'memory' ? ['--memory'] : ['--data-dir', await makeTempDir()];
    const daemon = await startDaemon({ args });
    const run = await runCli({
      args: ['import', REVERT, '--stateful', '--name', 'revert', '--apply', '--url', daemon.url],
    });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('/crm/events');
    const revert = revertAt(daemon);

    const made: string[] = [];
    for (const subject of ['Kickoff', 'Review', 'Retro']) {
      const { data, response } = await revert.POST('/crm/events', { body: event(subject) });
      expect(response.status).toBe(200);
      // crmCreateOrUpdateEventResponse: the event in `result` (which the document leaves open).
      expect(data).toMatchObject({ status: 'ok', result: { ...event(subject), id: expect.any(String) } });
      made.push((data.result as { id: string }).id);
    }
    const id = made[0] as string;
    const read = await revert.GET('/crm/events/{id}', { params: { path: { id } } });
    expect(Object.keys(read.data).sort()).toEqual(['result', 'status']);
    expect(read.data).toMatchObject({ status: 'ok', result: { id, subject: 'Kickoff', location: 'Room 1' } });

    // crmGetEventsResponse: { status, next, previous, results }, `next` the `cursor` of the page after.
    const ids: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const query = { pageSize: '2', ...(cursor === undefined ? {} : { cursor: cursor as string }) };
      const page = await revert.GET('/crm/events', { params: { query } });
      expect(page.data).toMatchObject({ status: 'ok', previous: null });
      expect(page.data.results.length).toBeLessThanOrEqual(2);
      ids.push(...page.data.results.map((one) => (one as { id: string }).id));
      cursor = page.data.next;
      pages++;
    } while (cursor !== null && pages < 5);
    expect([pages, ids]).toEqual([2, made]);

    // The document updates by PATCH with the whole of crmCreateOrUpdateEventRequest: kept.
    const changed = await revert.PATCH('/crm/events/{id}', {
      params: { path: { id } },
      body: { ...event('Kickoff'), subject: 'Kickoff, moved', location: 'Room 2' },
    });
    expect(changed.data).toMatchObject({ status: 'ok', result: { id, subject: 'Kickoff, moved', location: 'Room 2' } });
    const again = await revert.GET('/crm/events/{id}', { params: { path: { id } } });
    expect(again.data.result).toMatchObject({ subject: 'Kickoff, moved', location: 'Room 2' });

    // Required: `additional` at the request's top, the event's fields in its allOf parts; errors as commonBaseError.
    const { subject: _left, ...noSubject } = event('x');
    expect(await refusal(revert.POST('/crm/events', { body: noSubject as ReturnType<typeof event> }))).toEqual({
      status: 400,
      body: { error: 'Missing required param: subject.' },
    });
    const { additional: _none, ...noAdditional } = event('x');
    expect(await refusal(revert.POST('/crm/events', { body: noAdditional as ReturnType<typeof event> }))).toEqual({
      status: 400,
      body: { error: 'Missing required param: additional.' },
    });

    expect((await revert.DELETE('/crm/events/{id}', { params: { path: { id } } })).response.status).toBeLessThan(300);
    for (const gone of [id, 'event_never_made']) {
      expect(await refusal(revert.GET('/crm/events/{id}', { params: { path: { id: gone } } }))).toEqual({
        status: 404,
        body: { error: `Not found: /crm/events holds no item '${gone}'.` },
      });
    }
    expect(
      await refusal(revert.PATCH('/crm/events/{id}', { params: { path: { id: 'nope' } }, body: event('x') })),
    ).toMatchObject({ status: 404 });
    const rest = await revert.GET('/crm/events', { params: { query: { pageSize: '10' } } });
    expect(rest.data.results.map((one) => (one as { id: string }).id)).toEqual(made.slice(1));
    expect(await refusal(revert.GET('/crm/events', { params: { query: { cursor: id } } }))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('no cursor this list answered') },
    });
  });
});
