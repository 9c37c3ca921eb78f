// A template that repeats a large request value, in the built daemon: the answer is
// 500 TEMPLATE_TOO_LARGE (rendering stops at MOCKPOINT_MAX_BODY_BYTES), and the daemon
// goes on serving. Before the bound, {{body}} x 10,000 on a 60 KB body ended the
// process with "RangeError: Invalid string length".
import { describe, expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

describe('a template past the body limit (daemon)', () => {
  it('answers 500 TEMPLATE_TOO_LARGE to {{body}} x 10,000 on a 60 KB body and keeps running', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    let exited = false;
    void daemon.exited.then(() => {
      exited = true;
    });
    const routes = [{ id: 'echo', answer: { template: true, body: '{{body}}'.repeat(10_000) } }];
    const put = await fetch(`${daemon.url}/api/endpoints/big/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes }),
    });
    expect(put.status).toBe(200);
    const body = JSON.stringify({ text: 'x'.repeat(60_000) });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${daemon.url}/endpoint/big`, { method: 'POST', body });
      expect(response.status).toBe(500);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('TEMPLATE_TOO_LARGE');
      expect(error.message).toContain('MOCKPOINT_MAX_BODY_BYTES');
    }
    const health = await fetch(`${daemon.url}/api/health`);
    expect(health.status).toBe(200);
    expect(exited).toBe(false);
  });
});
