// A twin's changes take the backend's shared turns (Redis replicas) behind the process's own: the
// process's changes of one name queue in the process and take the shared turn one at a time, each
// under `twin:<name>`; reads take none.
import { describe, expect, it } from 'vitest';
import { createApp, MockpointError, memoryBackend } from '../index.js';
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
      providers: async () => ['acme'],
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

// The providers are their package's list (@mockpoint/twins), read from the catalog when a twin of
// one is asked for: never at start, never for a document's twin, which needs no package.
describe("the catalog's providers", () => {
  /** A catalog of `acme` whose reads are counted; `missing` rejects both as a catalog without its package does. */
  function countingCatalog(missing = false) {
    const calls = { providers: 0, load: 0 };
    const absent = () => new MockpointError('INVALID_TWIN', 'provider: install @example/twins');
    const catalog = {
      calls,
      async providers() {
        calls.providers++;
        if (missing) throw absent();
        return ['acme'];
      },
      async load() {
        calls.load++;
        if (missing) throw absent();
        return { document: DOCUMENT, profile: { name: 'acme' } };
      },
    };
    return catalog;
  }

  it('are read on first use: GET /api/twins and a twin naming a provider, not a start nor a document', async () => {
    const catalog = countingCatalog();
    const app = createApp({ backend: memoryBackend(), twins: catalog });
    const put = (body: unknown) => app.request('/api/endpoints/n/twin', { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ document: DOCUMENT })).status).toBe(200);
    expect(catalog.calls).toEqual({ providers: 0, load: 0 });
    expect(await (await app.request('/api/twins')).json()).toEqual({ providers: ['acme'] });
    expect(catalog.calls.providers).toBe(1);
    const wrong = await put({ provider: 'other' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_TWIN', message: 'provider: one of acme' } });
    expect((await put({ provider: 'acme' })).status).toBe(200);
    expect(catalog.calls).toEqual({ providers: 3, load: 1 });
  });

  it("without the providers' package a document's twin is made, and a provider's names the package", async () => {
    const catalog = countingCatalog(true);
    const app = createApp({ backend: memoryBackend(), twins: catalog });
    const put = (body: unknown) => app.request('/api/endpoints/n/twin', { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ document: DOCUMENT })).status).toBe(200);
    const refused = await put({ provider: 'acme' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: 'INVALID_TWIN', message: 'provider: install @example/twins' },
    });
  });
});
