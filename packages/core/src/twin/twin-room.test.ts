// A twin's collection holds at most MAX_OBJECTS objects, and a deleted one stays (its tombstone, or
// its key) until the collection is full: then the oldest deleted object gives its place to the new
// one, so that a long run which makes and deletes never fills a twin. Before, the 10,001st customer
// made (its 10,000 predecessors all deleted) was refused with "holds at most 10000 objects". The
// twin's objects are the name's collections (docs/twins.md): a full one is put in one request, as
// the objects a run made and deleted leave it.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { MAX_OBJECTS } from './twin-stored.js';

const NOTE = { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': { post: { requestBody: json(NOTE), responses: { '201': { description: 'a note', ...json(NOTE) } } } },
    '/notes/{id}': {
      get: { parameters: [ID], responses: { '200': { description: 'a note', ...json(NOTE) } } },
      delete: { parameters: [ID], responses: { '200': { description: 'deleted', ...json(NOTE) } } },
    },
  },
};

/** Note `n`'s id. */
const idOf = (n: number) => `note${String(n).padStart(5, '0')}`;

/** `make(title)`: a note made through `app`'s twin at `n`, its status and body. */
function maker(app: ReturnType<typeof createApp>) {
  return async (title: string) => {
    const made = await app.request('/endpoint/n/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    return { status: made.status, body: (await made.json()) as Record<string, unknown> };
  };
}

/** The notes twin at `n` on `app` (deleted ones kept as tombstones). */
async function notesTwin(app: ReturnType<typeof createApp>): Promise<void> {
  const put = await app.request('/api/endpoints/n/twin', {
    method: 'PUT',
    body: JSON.stringify({ document: DOCUMENT, profile: { name: 'notes', deleted: 'tombstone' } }),
  });
  expect(put.status).toBe(200);
}

/** A twin of the notes document whose collection holds MAX_OBJECTS notes, each deleted where `deleted(n)`. */
async function fullNotes(deleted: (n: number) => boolean) {
  const app = createApp();
  await notesTwin(app);
  // Stored as the twin keeps each object: its id, its scope, whether deleted, the object.
  const items = Array.from({ length: MAX_OBJECTS }, (_, n) => ({
    id: idOf(n),
    scope: '',
    deleted: deleted(n),
    object: { id: idOf(n), title: `note ${n}` },
  }));
  const seeded = await app.request('/api/endpoints/n/collections/notes', {
    method: 'PUT',
    body: JSON.stringify(items),
  });
  expect(seeded.status).toBe(200);
  const make = maker(app);
  const read = async (id: string) => {
    const answer = await app.request(`/endpoint/n/notes/${id}`);
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const held = async () => (await (await app.request('/api/endpoints/n/collections/notes')).json()) as { id: string }[];
  return { make, read, held };
}

describe(`a twin's collection of ${MAX_OBJECTS} objects`, () => {
  it('makes room by dropping the oldest deleted object: every create past the cap is taken', async () => {
    const { make, read, held } = await fullNotes((n) => n % 2 === 0);
    const made: string[] = [];
    for (let n = 0; n < 5; n++) {
      const answer = await make(`new ${n}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      made.push(String(answer.body.id));
    }
    // The 5 creates took the places of the 5 oldest deleted notes: read now as never made.
    for (const n of [0, 2, 4, 6, 8]) expect((await read(idOf(n))).status).toBe(404);
    // The next deleted note still answers its tombstone; the live notes and the new ones are all there.
    expect((await read(idOf(10))).body).toMatchObject({ id: idOf(10), deleted: true });
    expect((await read(idOf(1))).body).toMatchObject({ id: idOf(1), title: 'note 1' });
    expect((await read(made[4] as string)).body).toMatchObject({ title: 'new 4' });
    const after = await held();
    expect(after).toHaveLength(MAX_OBJECTS);
    expect(after.slice(-5).map((item) => item.id)).toEqual(made);
  });

  it('refuses one more when every object it holds is live, and keeps nothing of it', async () => {
    const { make, held } = await fullNotes(() => false);
    const refused = await make('one too many');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(`at most ${MAX_OBJECTS} objects of one kind`);
    const after = await held();
    expect(after).toHaveLength(MAX_OBJECTS);
    expect(after.at(-1)?.id).toBe(idOf(MAX_OBJECTS - 1));
  });

  it('never drops the newest item, deleted or not: with only it deleted, a create is refused', async () => {
    const { make, read } = await fullNotes((n) => n === MAX_OBJECTS - 1);
    expect((await make('one too many')).status).toBe(400);
    expect((await read(idOf(MAX_OBJECTS - 1))).body).toMatchObject({ deleted: true });
  });
});

const BOARD_NOTE = {
  type: 'object',
  properties: { id: { type: 'integer' }, number: { type: 'integer' }, title: { type: 'string' } },
};
const param = (name: string, type: string) => ({ name, in: 'path', required: true, schema: { type } });
const IN_BOARD = [param('board', 'string')];
const ONE = [param('board', 'string'), param('number', 'integer')];
/** Notes numbered per board (`number`, as GitHub numbers issues per repository), and a global `id`. */
const BOARDS = {
  openapi: '3.0.3',
  info: { title: 'Boards', version: '1' },
  paths: {
    '/boards/{board}/notes': {
      post: {
        parameters: IN_BOARD,
        requestBody: json(BOARD_NOTE),
        responses: { '201': { description: 'a note', ...json(BOARD_NOTE) } },
      },
    },
    '/boards/{board}/notes/{number}': {
      get: { parameters: ONE, responses: { '200': { description: 'a note', ...json(BOARD_NOTE) } } },
      delete: { parameters: ONE, responses: { '200': { description: 'deleted', ...json(BOARD_NOTE) } } },
    },
  },
};

describe('room in a collection numbered per scope', () => {
  it("keeps the newest note of each board, deleted or not: a board's next number is never given twice", async () => {
    const app = createApp();
    const profile = { name: 'boards', deleted: 'tombstone', ids: { keys: { notes: 'number' } } };
    const put = await app.request('/api/endpoints/n/twin', {
      method: 'PUT',
      body: JSON.stringify({ document: BOARDS, profile }),
    });
    expect(put.status).toBe(200);
    // Board a: its one note, #1, deleted (the oldest item). Board b: #1 to #9999, its #1 deleted.
    const stored = (board: string, number: number, id: number, deleted: boolean) => ({
      id: String(number),
      scope: board,
      deleted,
      object: { id, number, title: `${board} ${number}` },
    });
    const items = [
      stored('a', 1, 1, true),
      ...Array.from({ length: MAX_OBJECTS - 1 }, (_, i) => stored('b', i + 1, i + 2, i === 0)),
    ];
    const seeded = await app.request('/api/endpoints/n/collections/boards-_-notes', {
      method: 'PUT',
      body: JSON.stringify(items),
    });
    expect(seeded.status).toBe(200);

    const made = await app.request('/endpoint/n/boards/a/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"again"}',
    });
    expect(made.status).toBe(201);
    // Board a's #1 was kept (the newest of its board): the new note is #2, its id past every other.
    expect(await made.json()).toEqual({ id: MAX_OBJECTS + 1, number: 2, title: 'again' });
    expect(await (await app.request('/endpoint/n/boards/a/notes/1')).json()).toMatchObject({ deleted: true });
    // Board b's deleted #1 gave its place.
    expect((await app.request('/endpoint/n/boards/b/notes/1')).status).toBe(404);
  });
});

describe("room below the daemon's --max-collection-items", () => {
  it('makes room from deleted notes at the lower limit, and refuses past it as collection_too_large', async () => {
    const app = createApp({ maxCollectionItems: 5 });
    await notesTwin(app);
    const make = maker(app);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(String((await make(`note ${n}`)).body.id));
    for (const id of ids.slice(0, 2))
      expect((await app.request(`/endpoint/n/notes/${id}`, { method: 'DELETE' })).status).toBe(200);
    // Two deleted notes give their places.
    expect((await make('six')).status).toBe(201);
    expect((await make('seven')).status).toBe(201);
    expect((await app.request(`/endpoint/n/notes/${ids[0]}`)).status).toBe(404);
    // Five live notes: the daemon's limit refuses the next, as it refuses any write past it.
    const refused = await make('eight');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'collection_too_large' });
    expect((await (await app.request('/api/endpoints/n/collections/notes')).json()) as unknown[]).toHaveLength(5);
  });
});
