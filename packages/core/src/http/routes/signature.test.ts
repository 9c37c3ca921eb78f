import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../../index.js';
import { LevelStore } from '../../store/level/index.js';

const WHSEC = `whsec_${Buffer.from('a standard webhooks key of 32 b!').toString('base64')}`;

function send(app: MockpointApp, method: string, name: string, body?: unknown) {
  return app.request(`/api/endpoints/${name}/signature`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('/api/endpoints/{name}/signature', () => {
  it('sets, shows with every secret masked, replaces and removes a check; the record keeps its four fields', async () => {
    const app = createApp();
    expect(await errorOf(await send(app, 'GET', 'hook'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'hook', data: { ok: 1 } }) });

    const put = await send(app, 'PUT', 'hook', { scheme: 'standard', secret: WHSEC, enforce: true });
    expect(put.status).toBe(200);
    const view = {
      scheme: 'standard',
      secrets: [{ hint: `whsec_…${WHSEC.slice(-4)}` }],
      toleranceSec: 300,
      enforce: true,
    };
    expect(await put.json()).toEqual(view);
    const got = await send(app, 'GET', 'hook');
    const text = await got.text();
    expect(JSON.parse(text)).toEqual(view);
    expect(text).not.toContain(WHSEC.slice(6, 30));

    // The record is untouched: exactly four fields.
    const record = await (await app.request('/api/endpoints/hook')).json();
    expect(record).toEqual({ name: 'hook', data: { ok: 1 }, statusCode: 200, delay: 0 });

    const rotated = await send(app, 'PUT', 'hook', {
      scheme: 'hmac',
      secrets: ['old secret that is long enough', 'short'],
      toleranceSec: 30,
      hmac: { header: 'X-Signature', algorithm: 'sha1', encoding: 'base64', prefix: 'sha1=' },
    });
    expect(await rotated.json()).toEqual({
      scheme: 'hmac',
      secrets: [{ hint: '…ough' }, { hint: '…' }],
      toleranceSec: 30,
      enforce: false,
      hmac: { header: 'X-Signature', algorithm: 'sha1', encoding: 'base64', prefix: 'sha1=' },
    });

    expect((await send(app, 'DELETE', 'hook')).status).toBe(204);
    expect((await send(app, 'GET', 'hook')).status).toBe(404);
    expect((await send(app, 'DELETE', 'hook')).status).toBe(204);
    expect((await app.request('/endpoint/hook')).status).toBe(200);
  });

  it('deleting the endpoint removes its check too', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'gone', data: 1 }) });
    await send(app, 'PUT', 'gone', { scheme: 'github', secret: 'It is a secret' });
    expect((await app.request('/api/endpoints/gone', { method: 'DELETE' })).status).toBe(204);
    expect((await send(app, 'GET', 'gone')).status).toBe(404);
  });

  it.each([
    [
      { scheme: 'paypal', secret: 's' },
      'UNKNOWN_SIGNATURE_SCHEME',
      'unknown signature scheme "paypal": use one of standard, stripe, github, slack, hmac',
    ],
    [{ scheme: 'github' }, 'INVALID_SIGNATURE_SECRET', 'give the signing secret as secret'],
    [
      { scheme: 'github', secret: 'a', secrets: ['b'] },
      'INVALID_SIGNATURE_SECRET',
      'either secret or secrets, not both',
    ],
    [{ scheme: 'github', secret: '' }, 'INVALID_SIGNATURE_SECRET', 'secret must be a string of 1 to 1024'],
    [{ scheme: 'github', secrets: [] }, 'INVALID_SIGNATURE_SECRET', 'secrets must be a list of 1 to 10'],
    [{ scheme: 'standard', secret: 'whsec_not base64!' }, 'INVALID_SIGNATURE_SECRET', 'whsec_ followed by base64'],
    [{ scheme: 'standard', secrets: [WHSEC, 'whsec_%%%'] }, 'INVALID_SIGNATURE_SECRET', 'secrets[1]: '],
    [{ scheme: 'hmac', secret: 's' }, 'INVALID_SIGNATURE_OPTIONS', 'the hmac scheme needs hmac'],
    [
      { scheme: 'hmac', secret: 's', hmac: { header: 'bad header' } },
      'INVALID_SIGNATURE_OPTIONS',
      'valid HTTP header name',
    ],
    [
      { scheme: 'hmac', secret: 's', hmac: { header: 'x', algorithm: 'md5' } },
      'INVALID_SIGNATURE_OPTIONS',
      'hmac must be',
    ],
    [{ scheme: 'github', secret: 's', hmac: { header: 'x' } }, 'INVALID_SIGNATURE_OPTIONS', 'only to scheme hmac'],
    [{ scheme: 'github', secret: 's', toleranceSec: -1 }, 'INVALID_SIGNATURE_OPTIONS', 'toleranceSec must be'],
    [{ scheme: 'github', secret: 's', enforce: 'yes' }, 'INVALID_SIGNATURE_OPTIONS', 'enforce must be true or false'],
    [{ scheme: 'github', secret: 's', header: 'x' }, 'UNKNOWN_FIELD', 'unknown field(s): header'],
    [[1], 'INVALID_BODY', 'request body must be a JSON object'],
  ])('refuses %j with %s, and changes nothing', async (body, code, message) => {
    const app = createApp();
    await send(app, 'PUT', 'keep', { scheme: 'github', secret: 'the kept secret' });
    const error = await errorOf(await send(app, 'PUT', 'keep', body));
    expect(error).toMatchObject({ status: 400, code });
    expect(error.message).toContain(message);
    expect(error.message).not.toContain('the kept secret');
    expect(((await (await send(app, 'GET', 'keep')).json()) as { scheme: string }).scheme).toBe('github');
  });

  it('an invalid name is refused with INVALID_NAME', async () => {
    const app = createApp();
    expect(await errorOf(await send(app, 'PUT', 'bad.name', { scheme: 'github', secret: 's' }))).toMatchObject({
      status: 400,
      code: 'INVALID_NAME',
    });
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await (await createApp().request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const ops = doc.paths['/api/endpoints/{name}/signature'];
    expect(Object.keys(ops ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(JSON.stringify(ops?.put?.requestBody)).toContain('toleranceSec');
  });

  it('survives a restart on LevelDB', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-signature-'));
    try {
      const first = await LevelStore.open({ dir });
      await send(createApp({ store: first }), 'PUT', 'kept', { scheme: 'slack', secret: 'slack signing secret 1' });
      await first.close();
      const second = await LevelStore.open({ dir });
      const got = await send(createApp({ store: second }), 'GET', 'kept');
      expect(await got.json()).toMatchObject({ scheme: 'slack', secrets: [{ hint: '…et 1' }] });
      expect(await second.getSetting('signature', 'kept')).toMatchObject({ secrets: ['slack signing secret 1'] });
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('?secrets=true answers the check as stored, in the shape PUT takes; with an admin token set, only to that token', async () => {
    const app = createApp({ adminToken: 'the-admin-token' });
    const admin = { authorization: 'Bearer the-admin-token' };
    const check = { scheme: 'hmac', secrets: ['one', 'two'], enforce: true, hmac: { header: 'X-Signature' } };
    const put = await app.request('/api/endpoints/hook/signature', {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify(check),
    });
    expect(put.status).toBe(200);
    // The plain read stays open and masked.
    expect(((await (await send(app, 'GET', 'hook')).json()) as { secrets: unknown[] }).secrets).toEqual([
      { hint: '…' },
      { hint: '…' },
    ]);
    // The secrets: not without the token (not even with the query's other spellings), in full with it.
    for (const query of ['?secrets=true', '?secrets=', '?secrets=1']) {
      const refused = await app.request(`/api/endpoints/hook/signature${query}`);
      expect(await errorOf(refused)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    const full = await app.request('/api/endpoints/hook/signature?secrets=true', { headers: admin });
    const stored = {
      scheme: 'hmac',
      secrets: ['one', 'two'],
      toleranceSec: 300,
      enforce: true,
      hmac: { header: 'X-Signature', algorithm: 'sha256', encoding: 'hex', prefix: '' },
    };
    expect(await full.json()).toEqual(stored);
    // What it answers is what PUT takes: sent back, the same check.
    const again = await app.request('/api/endpoints/hook/signature', {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify(stored),
    });
    expect(again.status).toBe(200);
    const reread = await app.request('/api/endpoints/hook/signature?secrets=true', { headers: admin });
    expect(await reread.json()).toEqual(stored);
  });
});
