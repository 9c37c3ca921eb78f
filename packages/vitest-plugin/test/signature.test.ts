// Endpoint handles and signature checks, against a real createMockServer() socket.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer, mockpointMatchers } from '../src/index.js';

expect.extend(mockpointMatchers);

describe('endpoint handle: signature checks', () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await createMockServer();
  });
  afterAll(() => mock.close());

  it('sets, shows (secrets masked) and removes a check', async () => {
    const hook = await mock.add({ name: 'signed', data: { ok: true } });
    const secret = 'a github webhook secret';
    expect(await hook.setSignature({ scheme: 'github', secret, enforce: true })).toEqual({
      scheme: 'github',
      secrets: [{ hint: '…cret' }],
      toleranceSec: 300,
      enforce: true,
    });
    expect(JSON.stringify(await hook.getSignature())).not.toContain(secret);
    await hook.removeSignature();
    await expect(hook.getSignature()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(hook.setSignature({ scheme: 'nope' as 'github', secret })).rejects.toMatchObject({
      code: 'UNKNOWN_SIGNATURE_SCHEME',
    });
  });

  it('the handle reads each setting with get…, puts it with set…, removes it with clear…; the old names still answer', async () => {
    const api = await mock.add({ name: 'named-one-way', data: { ok: true } });
    await api.setSignature({ scheme: 'github', secret: 'a github webhook secret' });
    await api.clearSignature();
    await expect(api.getSignature()).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await api.setGraphqlSchema('type Query { hello: String }');
    expect(await api.getGraphqlSchema()).toBe('type Query { hello: String }');
    expect(await api.graphqlSchema()).toBe('type Query { hello: String }');
    await api.clearGraphqlSchema();
    await expect(api.getGraphqlSchema()).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await api.setRoutes([{ id: 'r1', match: { path: '/a' }, answer: { data: { a: 1 } } }]);
    expect((await api.getRoutes()).map((route) => route.id)).toEqual(['r1']);
    expect(await api.routes()).toEqual(await api.getRoutes());

    await api.queue([{ statusCode: 503 }]);
    expect((await api.getQueue()).map((answer) => answer.statusCode)).toEqual([503]);
    expect(await api.queued()).toEqual(await api.getQueue());

    await api.setState({ checkout: 'paid' });
    expect(await api.getState()).toMatchObject({ checkout: 'paid' });
    expect(await api.state()).toEqual(await api.getState());
  });

  it('the matchers and quiet periods take signature: the status of each request', async () => {
    const hook = await mock.add({ name: 'matched', data: { ok: true } });
    const secret = 'the github webhook secret';
    await hook.setSignature({ scheme: 'github', secret });
    const body = '{"action":"opened"}';
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    await fetch(hook.url, { method: 'POST', body, headers: { 'x-hub-signature-256': signature } });
    await hook.waitForRequests({ match: { signature: 'valid' } });
    await expect(hook).toHaveBeenRequestedWith({ signature: 'valid', body: { action: 'opened' } });
    await expect(hook).not.toHaveBeenRequestedWith({ signature: 'invalid' });
    await fetch(hook.url, { method: 'POST', body: `${body} `, headers: { 'x-hub-signature-256': signature } });
    await hook.waitForRequests({ match: { signature: 'invalid' } });
    await expect(hook).toHaveBeenRequestedWith({ signature: 'invalid' });
    const failure = await expect(hook)
      .toHaveBeenRequestedWith({ signature: 'missing' })
      .catch((error: Error) => error);
    expect(String(failure)).toContain(
      'signature: invalid (X-Hub-Signature-256: the signature does not match the secret over the 20 body bytes',
    );
    await hook.expectNoRequests({ within: 200, match: { signature: 'missing' } });
  });
});
