// A mock file's `hosts:` (docs/https.md): read as patterns (lower case, sorted,
// once each), written with PUT …/hosts, and refused at its path when a host is
// not a pattern or another endpoint of the file has it. Applied, the file wins
// for its hosts: one another endpoint holds through the API moves (in the plan,
// the diff and the store), one MOCKPOINT_HOSTS maps elsewhere is refused before
// anything is written.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { MockpointError } from '../registry/errors.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { applyChanges, applyMockFile, describePlan } from './apply-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';
import { writeBodies } from './write-bodies.js';

const GITHUB =
  'version: 1\nendpoints:\n  - name: github\n    hosts: [api.github.com, uploads.github.com]\n    data: 1\n';

/** An app on `store` (loaded), and the admin target of it. */
async function appOn(store: MemoryStore, hosts: Record<string, string> = {}) {
  const app = createApp({ store, hosts });
  await app.mockpoint.hostsLoaded;
  return { app, target: { url: 'http://app', fetch: async (request: Request) => app.request(request) } };
}

function failure(text: string): MockpointError {
  try {
    parseMockFile(text, { file: 'mockpoint.yaml' });
  } catch (error) {
    if (error instanceof MockpointError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('hosts in a mock file', () => {
  it('reads them as patterns and writes them in one PUT body', () => {
    const file = parseMockFile(
      'version: 1\nendpoints:\n  - name: github\n    hosts: [API.github.com., "*.githubusercontent.com", api.github.com]\n',
      { file: 'mockpoint.yaml' },
    );
    const [github] = file.endpoints;
    expect(github?.hosts).toEqual(['*.githubusercontent.com', 'api.github.com']);
    expect(writeBodies(github as NonNullable<typeof github>).settings.hosts).toBe(
      '{"hosts":["*.githubusercontent.com","api.github.com"]}',
    );
  });

  it.each([
    ['an IP address', '[127.0.0.1]', 'INVALID_HOSTS', 'endpoints[0].hosts[0]'],
    ['a port', '[a.test, "b.test:443"]', 'INVALID_HOSTS', 'endpoints[0].hosts[1]'],
    ['not a list', 'a.test', 'INVALID_HOSTS', 'endpoints[0].hosts'],
    [
      'more than 100',
      `[${Array.from({ length: 101 }, (_, k) => `h${k}.test`).join(', ')}]`,
      'INVALID_HOSTS',
      'endpoints[0].hosts',
    ],
  ])('refuses %s at its path', (_label, hosts, reason, path) => {
    const error = failure(`version: 1\nendpoints:\n  - name: a\n    hosts: ${hosts}\n`);
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ reason, path });
  });

  it('refuses a host two endpoints claim', () => {
    const error = failure(
      'version: 1\nendpoints:\n  - name: a\n    hosts: [x.test]\n  - name: b\n    hosts: [y.test, X.test]\n',
    );
    expect(error.details).toMatchObject({ reason: 'HOST_TAKEN', path: 'endpoints[1].hosts[1]' });
    expect(error.message).toContain('"x.test" is already mapped by endpoints[0]');
  });
});

describe('applying a file that maps a host another endpoint holds', () => {
  it('moves it to the file’s endpoint: in the plan, the diff, the table and the store', async () => {
    const store = new MemoryStore();
    await store.setSetting('hosts', 'gh', ['api.github.com', 'gist.github.com']);
    const { app, target } = await appOn(store);
    const file = parseMockFile(GITHUB);

    const dry = await applyMockFile(file, target, { dryRun: true });
    expect(dry.moved).toEqual([{ host: 'api.github.com', from: 'gh', to: 'github' }]);
    expect(describePlan(dry, true)).toEqual([
      '+ github',
      '> api.github.com would move from endpoint "gh" to "github"',
      '1 would be created, 0 would be changed, 0 would be removed, 0 unchanged, 1 host would be moved',
    ]);
    expect(await store.getSetting('hosts', 'gh')).toEqual(['api.github.com', 'gist.github.com']);

    const plan = await applyMockFile(file, target);
    expect(describePlan(plan)).toEqual([
      '+ github',
      '> api.github.com moved from endpoint "gh" to "github"',
      '1 created, 0 changed, 0 removed, 0 unchanged, 1 host moved',
    ]);
    expect(await store.getSetting('hosts', 'gh')).toEqual(['gist.github.com']);
    expect(await store.getSetting('hosts', 'github')).toEqual(['api.github.com', 'uploads.github.com']);
    expect(await (await app.request('/api/hosts')).json()).toEqual({
      hosts: [
        { host: 'api.github.com', name: 'github', source: 'api' },
        { host: 'gist.github.com', name: 'gh', source: 'api' },
        { host: 'uploads.github.com', name: 'github', source: 'api' },
      ],
    });
    // Applied again: nothing moves, nothing changes.
    expect(await applyMockFile(file, target)).toMatchObject({ unchanged: ['github'], moved: [] });
  });

  it('a reload that renames the endpoint moves its host, and removes the old name', async () => {
    const { app, target } = await appOn(new MemoryStore());
    const before = parseMockFile('version: 1\nendpoints:\n  - name: gh\n    hosts: [api.github.com]\n    data: 1\n');
    await applyMockFile(before, target);
    const after = parseMockFile(GITHUB);
    const changes = await applyChanges(before, after, target);
    expect(changes).toMatchObject({ created: ['github'], removed: ['gh'] });
    expect(changes.moved).toEqual([{ host: 'api.github.com', from: 'gh', to: 'github' }]);
    expect(((await (await app.request('/api/hosts')).json()) as { hosts: unknown[] }).hosts).toEqual([
      { host: 'api.github.com', name: 'github', source: 'api' },
      { host: 'uploads.github.com', name: 'github', source: 'api' },
    ]);
  });

  it('refuses a host MOCKPOINT_HOSTS maps elsewhere with HOST_TAKEN, before anything is written', async () => {
    const store = new MemoryStore();
    const { target } = await appOn(store, { 'uploads.github.com': 'octo' });
    const file = parseMockFile(`${GITHUB}  - name: plain\n    data: 2\n`);
    const error = await applyMockFile(file, target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockpointError);
    expect(error).toMatchObject({ code: 'HOST_TAKEN', details: { host: 'uploads.github.com', name: 'octo' } });
    expect((error as Error).message).toBe(
      'endpoint "github" maps uploads.github.com, which MOCKPOINT_HOSTS maps to endpoint "octo"; the setting wins over a mock file: map the host in only one of them',
    );
    expect(await store.get('plain')).toBeUndefined();
    expect(await store.getSetting('hosts', 'github')).toBeUndefined();
  });

  it('names a holder read back from the store bounded, with anything but printable ASCII escaped', async () => {
    const store = new MemoryStore();
    const hostile = `a\u202e\u001b[31m${'x'.repeat(200)}`;
    await store.setSetting('hosts', hostile, ['api.github.com']);
    const { target } = await appOn(store);
    const plan = await applyMockFile(parseMockFile(GITHUB), target);
    const [line] = describePlan(plan).filter((text) => text.startsWith('>'));
    expect(line).toBe(`> api.github.com moved from endpoint "a\\u202e\\u001b[31m${'x'.repeat(57)}" to "github"`);
    expect(await store.getSetting('hosts', hostile)).toBeUndefined();
  });
});

describe('the moves said are the moves the daemon made', () => {
  /** A target on `app` that runs `before` once, just before the first `PUT …/hosts?move=true` reaches it. */
  function raced(app: { request: (request: Request) => Response | Promise<Response> }, before: () => unknown) {
    let done = false;
    return {
      url: 'http://app',
      fetch: async (request: Request) => {
        if (!done && request.method === 'PUT' && request.url.endsWith('/hosts?move=true')) {
          done = true;
          await before();
        }
        return app.request(request);
      },
    };
  }

  it('a host given to another endpoint between the plan and the write is said moved, from that endpoint', async () => {
    const { app } = await appOn(new MemoryStore());
    const target = raced(app, () =>
      app.request('/api/endpoints/late/hosts', { method: 'PUT', body: '{"hosts":["uploads.github.com"]}' }),
    );
    const plan = await applyMockFile(parseMockFile(GITHUB), target);
    expect(plan.moved).toEqual([{ host: 'uploads.github.com', from: 'late', to: 'github' }]);
    expect(describePlan(plan)).toContain('> uploads.github.com moved from endpoint "late" to "github"');
  });

  it('a planned move the daemon did not make (the holder let go first) is not said', async () => {
    const store = new MemoryStore();
    await store.setSetting('hosts', 'gh', ['api.github.com']);
    const { app } = await appOn(store);
    const target = raced(app, () => app.request('/api/endpoints/gh/hosts', { method: 'DELETE' }));
    const plan = await applyMockFile(parseMockFile(GITHUB), target);
    expect(plan.moved).toEqual([]);
    expect(describePlan(plan).at(-1)).toBe('1 created, 0 changed, 0 removed, 0 unchanged');
  });

  it('a reload takes back a host the API gave away from an endpoint whose text did not change', async () => {
    const { app, target } = await appOn(new MemoryStore());
    const file = parseMockFile(GITHUB);
    await applyMockFile(file, target);
    await app.request('/api/endpoints/gh/hosts?move=true', { method: 'PUT', body: '{"hosts":["api.github.com"]}' });
    const other = parseMockFile(`${GITHUB}  - name: plain\n    data: 2\n`);
    const changes = await applyChanges(file, other, target);
    expect(changes).toMatchObject({ created: ['plain'], unchanged: ['github'] });
    expect(changes.moved).toEqual([{ host: 'api.github.com', from: 'gh', to: 'github' }]);
    expect(await (await app.request('/api/endpoints/github/hosts')).json()).toEqual({
      hosts: [
        { host: 'api.github.com', name: 'github', source: 'api' },
        { host: 'uploads.github.com', name: 'github', source: 'api' },
      ],
    });
  });

  it('a daemon that does not know move=true gets nothing written: one HOST_TAKEN saying so', async () => {
    const store = new MemoryStore();
    await store.setSetting('hosts', 'gh', ['api.github.com']);
    const { app } = await appOn(store);
    // As a daemon older than move=true answers: the query is not read, `moved` never answered.
    const older = {
      url: 'http://app',
      fetch: async (request: Request) => {
        const url = new URL(request.url);
        url.searchParams.delete('move');
        const answer = await app.request(new Request(url, request));
        if (!answer.ok || !url.pathname.endsWith('/hosts') || request.method !== 'PUT') return answer;
        const { hosts } = (await answer.json()) as { hosts: unknown };
        return Response.json({ hosts });
      },
    };
    const file = parseMockFile(`${GITHUB}  - name: plain\n    data: 2\n`);
    const error = await applyMockFile(file, older).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HOST_TAKEN', details: { host: 'api.github.com', name: 'gh' } });
    expect((error as Error).message).toContain('this daemon is too old to move a host');
    expect(await store.get('github')).toBeUndefined();
    expect(await store.get('plain')).toBeUndefined();
    expect(await store.getSetting('hosts', 'gh')).toEqual(['api.github.com']);
    // Nothing to move: it applies as before.
    await app.request('/api/endpoints/gh/hosts', { method: 'DELETE' });
    expect(await applyMockFile(file, older)).toMatchObject({ created: ['github', 'plain'], moved: [] });
  });
});

describe('a store whose hosts could not be read at start', () => {
  it('a move reads them again first: the host leaves the name the store gave it', async () => {
    const store = new MemoryStore();
    await store.setSetting('hosts', 'gh', ['api.github.com']);
    let fail = true;
    const settingNames = store.settingNames.bind(store);
    // The first read of the names fails (a damaged store at start), later ones work.
    store.settingNames = async (kind, options) => {
      if (fail && kind === 'hosts') {
        fail = false;
        throw new Error('store unreadable');
      }
      return settingNames(kind, options);
    };
    const app = createApp({ store });
    await app.mockpoint.hostsLoaded.catch(() => undefined);
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    const plan = await applyMockFile(parseMockFile(GITHUB), target);
    expect(plan.moved).toEqual([{ host: 'api.github.com', from: 'gh', to: 'github' }]);
    expect(await store.getSetting('hosts', 'gh')).toBeUndefined();
    expect(await store.getSetting('hosts', 'github')).toEqual(['api.github.com', 'uploads.github.com']);
  });
});
