// #71 M4 and M5 for GitHub's hooks, against the built daemon on memory, LevelDB and a real
// redis-server: changing a hook's events (`events`, `add_events`, `remove_events` of
// PATCH /repos/{owner}/{repo}/hooks/{hook_id}) is held to the 20 hooks an event a create is held
// to, and a `config.url` the deliveries could never reach (file:, javascript:, gopher:, the
// metadata address, private addresses) is refused when the hook is made or changed, in GitHub's
// 422 `Validation Failed` form. Every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { twinDaemon, UNREACHABLE_HOOK_URLS, useTwinRedis } from './helpers/twin.js';

const files = useTwinRedis();
const GITHUB = { authorization: 'token ghp_hooks', 'content-type': 'application/json' };
const URL_OK = 'http://127.0.0.1:9/hook';

interface Hook {
  id?: number;
  events?: string[];
  config?: { url?: string };
  message?: string;
  errors?: { resource: string; code: string; field?: string; message: string }[];
}

async function call(root: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${root}${path}`, {
    method,
    headers: GITHUB,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Hook };
}

/** octo/app, made as a user would before its hooks (GitHub's 404 below a repository never made). */
async function madeApp(root: string): Promise<string> {
  expect((await call(root, 'POST', '/orgs/octo/repos', { name: 'app' })).status).toBe(201);
  return '/repos/octo/app/hooks';
}

describe.each(['memory', 'level', 'redis'] as const)("GitHub's hooks (%s)", (kind) => {
  const storeOf = async () => (kind === 'memory' ? 'memory' : await files.store(kind));

  it('holds a change of events to 20 hooks an event, as a create', async () => {
    const { root } = await twinDaemon('github', await storeOf());
    const hooks = await madeApp(root);
    for (let i = 0; i < 20; i++) {
      expect((await call(root, 'POST', hooks, { config: { url: URL_OK }, events: ['push'] })).status).toBe(201);
    }
    const made = await call(root, 'POST', hooks, { config: { url: URL_OK }, events: ['issues'] });
    expect(made.status).toBe(201);
    const one = `${hooks}/${made.body.id}`;
    const full = {
      message: 'Validation Failed',
      errors: [{ resource: 'Hook', code: 'custom', message: 'The "push" event cannot have more than 20 hooks' }],
    };
    for (const change of [{ events: ['push'] }, { events: ['*'] }, { add_events: ['push'] }]) {
      const refused = await call(root, 'PATCH', one, change);
      expect(refused.status, JSON.stringify(change)).toBe(422);
      expect(refused.body, JSON.stringify(change)).toMatchObject(full);
    }
    expect((await call(root, 'GET', one)).body.events).toEqual(['issues']);
    // Events with room are added and removed as GitHub does.
    const added = await call(root, 'PATCH', one, { add_events: ['pull_request'] });
    expect(added.status).toBe(200);
    expect(added.body.events).toEqual(['issues', 'pull_request']);
    const removed = await call(root, 'PATCH', one, { remove_events: ['issues'] });
    expect(removed.body.events).toEqual(['pull_request']);
    // A hook of the 20 changed keeps its own place: it is not counted twice.
    const first = (await call(root, 'GET', `${hooks}?per_page=1`)) as unknown as { body: Hook[] };
    const kept = await call(root, 'PATCH', `${hooks}/${first.body[0]?.id}`, { add_events: ['push', 'issues'] });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  });

  it("refuses a hook's config.url the deliveries could never reach, made or changed", async () => {
    const { root } = await twinDaemon('github', await storeOf());
    const hooks = await madeApp(root);
    for (const url of UNREACHABLE_HOOK_URLS) {
      const refused = await call(root, 'POST', hooks, { config: { url }, events: ['push'] });
      expect(refused.status, url).toBe(422);
      expect(refused.body, url).toMatchObject({
        message: 'Validation Failed',
        errors: [{ resource: 'Hook', code: 'custom', field: 'url' }],
      });
      expect(refused.body.errors?.[0]?.message, url).toMatch(/^url is not supported: /);
    }
    expect(((await call(root, 'GET', hooks)).body as unknown as Hook[]).length).toBe(0);
    const made = await call(root, 'POST', hooks, { config: { url: URL_OK }, events: ['push'] });
    expect(made.status).toBe(201);
    const changed = await call(root, 'PATCH', `${hooks}/${made.body.id}`, {
      config: { url: 'http://169.254.169.254/' },
    });
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'Hook', field: 'url' }] });
    expect((await call(root, 'GET', `${hooks}/${made.body.id}`)).body.config?.url).toBe(URL_OK);
    const moved = await call(root, 'PATCH', `${hooks}/${made.body.id}`, { config: { url: 'http://127.0.0.1:10/x' } });
    expect(moved.status).toBe(200);
  });
});
