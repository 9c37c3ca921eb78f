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
