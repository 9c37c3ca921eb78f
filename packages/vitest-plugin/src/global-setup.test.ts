// The global setup with sessions and MOCKPOINT_URL: a shared daemon is used (its URL and admin
// token provided, nothing started, nothing closed), and one that does not answer stops the run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup from './global-setup.js';

function fakeProject(sessions: boolean) {
  const provided: Record<string, unknown> = {};
  const project = {
    config: { root: '/', provide: sessions ? { 'mockpoint:sessions': { onUnhandledRequest: 'error' } } : {} },
    provide: (key: string, value: unknown) => {
      provided[key] = value;
    },
    onTestsRerun: () => {},
  };
  return { project: project as unknown as TestProject, provided };
}

describe('the global setup with MOCKPOINT_URL', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('with sessions: provides the daemon there and its admin token, and starts nothing', async () => {
    const daemon = createServer((req, res) => res.writeHead(req.url === '/api/health' ? 200 : 404).end('{}'));
    await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(daemon.address() as AddressInfo).port}`;
      vi.stubEnv('MOCKPOINT_URL', `${url}/`);
      vi.stubEnv('MOCKPOINT_ADMIN_TOKEN', 'admin');
      const { project, provided } = fakeProject(true);
      const teardown = await setup(project);
      expect(provided).toEqual({ mockpoint: { url }, 'mockpoint:admin-token': 'admin' });
      await teardown();
    } finally {
      daemon.close();
    }
  });

  it('with sessions, a URL where nothing answers stops the run with INVALID_SETUP', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    vi.stubEnv('MOCKPOINT_URL', `http://127.0.0.1:${port}`);
    await expect(setup(fakeProject(true).project)).rejects.toMatchObject({
      code: 'INVALID_SETUP',
      message: expect.stringContaining(`MOCKPOINT_URL=http://127.0.0.1:${port}: no mockpoint daemon answers there`),
    });
  });

  it('without sessions, MOCKPOINT_URL is not looked at: the run starts its own instance', async () => {
    vi.stubEnv('MOCKPOINT_URL', 'http://127.0.0.1:9');
    const { project, provided } = fakeProject(false);
    const teardown = await setup(project);
    try {
      expect((provided.mockpoint as { url: string }).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(provided.mockpoint).not.toEqual({ url: 'http://127.0.0.1:9' });
    } finally {
      await teardown();
    }
  });
});
