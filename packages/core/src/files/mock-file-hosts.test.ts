// A mock file's `hosts:` (docs/https.md): read as patterns (lower case, sorted,
// once each), written with PUT …/hosts, and refused at its path when a host is
// not a pattern or another endpoint of the file has it. Applied, the file wins
// for its hosts: one another endpoint holds through the API moves (in the plan,
// the diff and the store), one MOCKPOINT_HOSTS maps elsewhere is refused before
// anything is written.
import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { MemoryStore } from '../store/memory/index.js';
import { MockpointError } from '../wire/errors.js';
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
    expect(writeBodies(github as NonNullable<typeof github>).hosts).toBe(
      '{"hosts":["*.githubusercontent.com","api.github.com"]}',
    );
  });

  it.each([
    ['an IP address', '[127.0.0.1]', 'INVALID_HOSTS', 'endpoints[0].hosts[0]'],
    ['a port', '[a.test, "b.test:443"]', 'INVALID_HOSTS', 'endpoints[0].hosts[1]'],
    ['not a list', 'a.test', 'INVALID_HOSTS', 'endpoints[0].hosts'],
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
    await store.setHosts('gh', ['api.github.com', 'gist.github.com']);
    const { app, target } = await appOn(store);
    const file = parseMockFile(GITHUB);

    const dry = await applyMockFile(file, target, { dryRun: true });
    expect(dry.moved).toEqual([{ host: 'api.github.com', from: 'gh', to: 'github' }]);
    expect(describePlan(dry, true)).toEqual([
      '+ github',
      '> api.github.com would move from endpoint "gh" to "github"',
      '1 would be created, 0 would be changed, 0 would be removed, 0 unchanged, 1 host would be moved',
    ]);
    expect(await store.getHosts('gh')).toEqual(['api.github.com', 'gist.github.com']);

    const plan = await applyMockFile(file, target);
    expect(describePlan(plan)).toEqual([
      '+ github',
      '> api.github.com moved from endpoint "gh" to "github"',
      '1 created, 0 changed, 0 removed, 0 unchanged, 1 host moved',
    ]);
    expect(await store.getHosts('gh')).toEqual(['gist.github.com']);
    expect(await store.getHosts('github')).toEqual(['api.github.com', 'uploads.github.com']);
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
    expect(await store.getHosts('github')).toEqual([]);
  });

  it('names a holder read back from the store bounded, with anything but printable ASCII escaped', async () => {
    const store = new MemoryStore();
    const hostile = `a\u202e\u001b[31m${'x'.repeat(200)}`;
    await store.setHosts(hostile, ['api.github.com']);
    const { target } = await appOn(store);
    const plan = await applyMockFile(parseMockFile(GITHUB), target);
    const [line] = describePlan(plan).filter((text) => text.startsWith('>'));
    expect(line).toBe(`> api.github.com moved from endpoint "a\\u202e\\u001b[31m${'x'.repeat(57)}" to "github"`);
    expect(await store.getHosts(hostile)).toEqual([]);
  });
});
