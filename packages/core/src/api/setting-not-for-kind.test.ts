// A setting of every kind (`delay`, `setState`) beside a kind that cannot honour it is refused at save
// with 400 SETTING_NOT_FOR_KIND naming the setting and the kind (docs/design.md#every-feature-composes); any other field beside the
// kind keeps the kind's own refusal. The composition matrix checks the same cells against the daemon.
import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';

async function save(answer: unknown) {
  const app = createApp({ proxyAllowHosts: ['127.0.0.1'] });
  const response = await app.request('/api/endpoints/k/routes', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ routes: [{ answer }] }),
  });
  const body = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, code: body.error?.code, message: body.error?.message ?? '' };
}

const mcp = { tools: [{ name: 't', result: 'x' }] };
const proxy = { url: 'http://127.0.0.1:9/up' };

describe('settings beside a kind that cannot honour them', () => {
  it.each([
    [{ mcp, delay: 5 }, /^routes\[0\]: delay is not a setting of an mcp answer, .*chaos latency/],
    [{ resource: 'items', delay: 5 }, /^routes\[0\]: delay is not a setting of a resource answer, .*chaos latency/],
    [{ proxy, delay: 5 }, /^routes\[0\]\.answer: delay is not a setting of a proxy answer, .*chaos latency/],
    [{ proxy, setState: 'moved' }, /setState is not a setting of a proxy answer, .*queued answer/],
    [{ proxy, setState: 'moved', delay: 5 }, /setState and delay are not settings of a proxy answer, .*queue.*chaos/],
  ])('refuses %j with SETTING_NOT_FOR_KIND', async (answer, message) => {
    const result = await save(answer);
    expect(result).toMatchObject({ status: 400, code: 'SETTING_NOT_FOR_KIND' });
    expect(result.message).toMatch(message);
    // No file-system path, nothing but what the person sent and what to do.
    expect(result.message).not.toMatch(/\/(home|tmp|work)\//);
  });

  it.each([
    [{ mcp, delay: 5, statusCode: 201 }, 'INVALID_ANSWER'],
    [{ proxy, delay: 5, statusCode: 201 }, 'INVALID_PROXY'],
  ])('keeps the kind’s own refusal when other fields stand beside it: %j', async (answer, code) => {
    expect(await save(answer)).toMatchObject({ status: 400, code });
  });

  it('keeps what the kinds take: setState beside mcp and resource', async () => {
    expect((await save({ mcp, setState: 'moved' })).status).toBe(200);
    expect((await save({ resource: 'items', setState: 'moved' })).status).toBe(200);
  });
});
