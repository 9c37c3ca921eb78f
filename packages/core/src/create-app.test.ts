import { describe, expect, it } from 'vitest';
import { createApp } from './index.js';

describe('createApp', () => {
  it('serves what PUT /api/endpoint/add stored', async () => {
    const app = createApp();
    const add = await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: JSON.stringify({ name: 'hello', data: { ok: true }, statusCode: 202 }),
    });
    expect(add.status).toBe(201);
    expect(await add.json()).toEqual({ success: true, name: 'hello', data: { ok: true }, statusCode: 202, delay: 0 });
    const read = await app.request('/endpoint/hello');
    expect(read.status).toBe(202);
    expect(await read.json()).toEqual({ ok: true });
  });
});
