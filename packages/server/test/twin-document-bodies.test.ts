// A twin made from a document (`mockpoint import --stateful`) reads each request body the way the
// document says it comes: here a multipart/form-data upload, as an SDK's FormData sends it, on the
// built daemon; and `--unseen` chosen at import. Every process listens on 127.0.0.1.
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, makeTempDir, removeTempDirs, runCli, startDaemon } from './helpers/daemon.js';

const UPLOADS = fileURLToPath(new URL('./fixtures/twins/uploads.yaml', import.meta.url));

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

function upload(purpose: string, bytes: Uint8Array<ArrayBuffer>, filename: string): FormData {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', new Blob([bytes]), filename);
  form.append('expires_after', '3600');
  return form;
}

describe('a twin of a document with a multipart/form-data body', () => {
  for (const store of ['memory', 'leveldb'] as const) {
    it(`keeps the fields of an upload, typed by the document's schema (${store})`, async () => {
      const daemon = await startDaemon({ args: store === 'memory' ? ['--memory'] : [] });
      const put = await runCli({
        args: ['import', UPLOADS, '--stateful', '--name', 'up', '--apply', '--url', daemon.url],
      });
      expect(put.code, put.stderr).toBe(0);
      const bytes = new Uint8Array([0, 13, 10, 45, 45, 255]);
      const made = await fetch(`${daemon.url}/endpoint/up/files`, {
        method: 'POST',
        body: upload('batch', bytes, 'a.jsonl'),
      });
      const object = (await made.json()) as Record<string, unknown>;
      expect(made.status).toBe(200);
      // `object` is the schema's const; `created_at` a unix integer, as the schema types it.
      expect(object).toMatchObject({ object: 'file', purpose: 'batch', expires_after: 3600 });
      expect(Math.abs((object.created_at as number) - Date.now() / 1000)).toBeLessThan(600);
      const read = await fetch(`${daemon.url}/endpoint/up/files/${object.id}`);
      expect([read.status, await read.json()]).toEqual([200, object]);
      // Deleted as the document answers a delete: its status and object, then gone.
      const deleted = await fetch(`${daemon.url}/endpoint/up/files/${object.id}`, { method: 'DELETE' });
      expect([deleted.status, await deleted.json()]).toEqual([200, { id: object.id, object: 'file', deleted: true }]);
      expect((await fetch(`${daemon.url}/endpoint/up/files/${object.id}`)).status).toBe(404);
      expect((await fetch(`${daemon.url}/endpoint/up/files/${object.id}`, { method: 'DELETE' })).status).toBe(404);
    });
  }

  it('refuses a body that is not the multipart it says it is, keeping nothing', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const put = await runCli({
      args: ['import', UPLOADS, '--stateful', '--name', 'up', '--apply', '--url', daemon.url],
    });
    expect(put.code, put.stderr).toBe(0);
    const refused = await fetch(`${daemon.url}/endpoint/up/files`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      body: '--zz\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/not valid multipart\/form-data: the body does not close/);
    const listed = (await (await fetch(`${daemon.url}/endpoint/up/files`)).json()) as { data: unknown[] };
    expect(listed.data).toEqual([]);
  });
});

describe('import --stateful --unseen', () => {
  it('writes the choice into the twin setting, and refuses another word', async () => {
    const cwd = await makeTempDir();
    const written = await runCli({
      cwd,
      args: ['import', UPLOADS, '--stateful', '--name', 'up', '--unseen', 'examples', '--out', 'up.json'],
    });
    expect([written.code, written.stderr]).toEqual([0, '']);
    const daemon = await startDaemon({ cwd, args: ['--memory', '--config', 'up.json'] });
    const unseen = await fetch(`${daemon.url}/endpoint/up/files/file-never-made`);
    // The document's example, the path's id reflected.
    expect([unseen.status, await unseen.json()]).toEqual([
      200,
      expect.objectContaining({ id: 'file-never-made', purpose: 'assistants' }),
    ]);
    // Deleted as a read of it answers it: the document's deletion, its id the path's.
    const deleted = await fetch(`${daemon.url}/endpoint/up/files/file-never-made`, { method: 'DELETE' });
    expect([deleted.status, await deleted.json()]).toEqual([
      200,
      { id: 'file-never-made', object: 'file', deleted: true },
    ]);
    const wrong = await runCli({ args: ['import', UPLOADS, '--stateful', '--name', 'up', '--unseen', 'some'] });
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      expect.stringContaining('--unseen is missing or examples, not "some"'),
    ]);
    const plain = await runCli({ args: ['import', UPLOADS, '--name', 'up', '--unseen', 'examples'] });
    expect([plain.code, plain.stderr]).toEqual([2, expect.stringContaining('--unseen is for --stateful')]);
  });
});
