// A twin's changes take the backend's shared turns (Redis replicas) behind the process's own: the
// process's changes of one name queue in the process and take the shared turn one at a time, each
// under `twin:<name>`; reads take none.
import { describe, expect, it } from 'vitest';
import { createApp, memoryBackend } from '../index.js';
import type { SharedTurns } from '../turns/shared-turns.js';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: { '/notes': { post: { responses: {} }, get: { responses: {} } } },
};

/** Shared turns that run every step at once, noting each key and the most steps under way together. */
function countingTurns(): SharedTurns & { keys: string[]; most: number } {
  let inside = 0;
  const turns = {
    keys: [] as string[],
    most: 0,
    async run<T>(key: string, step: () => Promise<T>): Promise<T> {
      turns.keys.push(key);
      turns.most = Math.max(turns.most, ++inside);
      try {
        return await step();
      } finally {
        inside--;
      }
    },
  };
  return turns;
}

describe('the twin table with shared turns', () => {
  it("runs a name's changes in the shared turn one at a time, and its reads outside it", async () => {
    const turns = countingTurns();
    const app = createApp({ backend: { ...memoryBackend(), turns } });
    const put = await app.request('/api/endpoints/n/twin', {
      method: 'PUT',
      body: JSON.stringify({ document: DOCUMENT, profile: { name: 'notes' } }),
    });
    expect(put.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.request('/endpoint/n/notes', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"title":"a"}',
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect((await app.request('/endpoint/n/notes')).status).toBe(200);
    expect(turns.keys).toEqual(Array(10).fill('twin:n'));
    expect(turns.most).toBe(1);
  });
});

describe("a profile naming a provider's flows", () => {
  // The flows come from the app's catalog, loaded then: an app without one refuses them, whatever
  // another app of the process loaded (a registry of what was loaded would make it depend on that).
  it('is refused by an app that ships no providers, naming the package', async () => {
    const app = createApp({ backend: memoryBackend() });
    for (const flows of ['stripe', 'no-such-provider']) {
      const put = await app.request('/api/endpoints/notes/twin', {
        method: 'PUT',
        body: JSON.stringify({ document: DOCUMENT, profile: { name: 'notes', flows } }),
      });
      expect(put.status).toBe(400);
      const body = (await put.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_TWIN');
      expect(body.error.message).toContain(`"${flows}" is no provider this daemon ships (it ships none)`);
      expect(body.error.message).toContain('@mockpoint/twins');
    }
  });

  it("loads them from the catalog the app is given, once, before the document's model is built", async () => {
    const loaded: string[] = [];
    const catalog = {
      providers: ['acme'],
      async load(provider: string) {
        loaded.push(provider);
        return {
          document: DOCUMENT,
          profile: { name: 'acme' },
          provider: { name: 'acme', title: 'Acme', flows: {}, fixtures: {}, event: 'widget.created' },
        };
      },
    };
    const app = createApp({ backend: memoryBackend(), twins: catalog });
    const put = await app.request('/api/endpoints/notes/twin', {
      method: 'PUT',
      body: JSON.stringify({ document: DOCUMENT, profile: { name: 'notes', flows: 'acme' } }),
    });
    expect(put.status).toBe(200);
    const again = await app.request('/api/endpoints/other/twin', {
      method: 'PUT',
      body: JSON.stringify({ document: DOCUMENT, profile: { name: 'notes', flows: 'acme' } }),
    });
    expect(again.status).toBe(200);
    expect(loaded).toEqual(['acme']);
  });
});
