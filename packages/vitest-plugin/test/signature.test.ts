// Endpoint handles and signature checks, against a real createMockServer() socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';

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
});
