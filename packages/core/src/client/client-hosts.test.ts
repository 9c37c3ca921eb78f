// The client's host methods, against an app (no socket): the mappings set, listed with their
// source, answering for their endpoint, refused with their codes, and removed.
import { describe, expect, it } from 'vitest';
import { createApp, createClient, MockpointError } from '../index.js';

describe('client host methods', () => {
  it('setHosts, hostsOf and hosts (with the settings), a mapped Host answered by its endpoint, removeHosts', async () => {
    const app = createApp({ hosts: { 'api.stripe.com': 'stripe' } });
    const client = createClient({ baseUrl: 'http://mockpoint.test', app });
    await client.setRoutes('github', [{ match: { path: '/repos/:owner' }, answer: { data: { from: 'github' } } }]);
    expect(await client.setHosts('github', ['api.github.com', '*.githubusercontent.com'])).toEqual([
      { host: '*.githubusercontent.com', name: 'github', source: 'api' },
      { host: 'api.github.com', name: 'github', source: 'api' },
    ]);
    expect(await client.hostsOf('github')).toHaveLength(2);
    expect(await client.hosts()).toEqual([
      { host: '*.githubusercontent.com', name: 'github', source: 'api' },
      { host: 'api.github.com', name: 'github', source: 'api' },
      { host: 'api.stripe.com', name: 'stripe', source: 'settings' },
    ]);
    const answer = await app.fetch(new Request('http://api.github.com/repos/acme'));
    expect(await answer.text()).toBe('{"from":"github"}');

    const taken = await client.setHosts('other', ['api.github.com']).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(MockpointError);
    expect((taken as MockpointError).code).toBe('HOST_TAKEN');
    const bad = await client.setHosts('other', ['not a host']).catch((error: unknown) => error);
    expect((bad as MockpointError).code).toBe('INVALID_HOSTS');

    await client.removeHosts('github');
    expect(await client.hostsOf('github')).toEqual([]);
    expect((await app.fetch(new Request('http://api.github.com/repos/acme'))).status).not.toBe(200);
  });
});
