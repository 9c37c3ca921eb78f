// The first mistakes a new user makes against the real daemon, each answered so that the next try
// is right: an endpoint written with `body`/`status` names those fields and ours (`data`,
// `statusCode`); a bare array of routes shows the `{ "routes": [...] }` shape; a route path written
// `/users/{id}` (OpenAPI's way) is the parameter `:id`; a mock file with several mistakes lists
// them all, each at its line and column, in words. Then random field names (code points of every
// kind): each refused in one bounded message, and the daemon stays healthy.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, runCli, sharedDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();
// One in-memory daemon for the tests that send it their mistakes (each refused, or under a name of its own).
const memoryDaemon = sharedDaemon({ args: ['--memory'] });

type ErrorBody = { error: { code: string; message: string } };

describe('the API', () => {
  it('PUT /api/endpoint/add with body and status names them and says data and statusCode', async () => {
    const daemon = await memoryDaemon();
    const answer = await requestJson(`${daemon.url}/api/endpoint/add`, {
      method: 'PUT',
      body: { name: 'users', body: { id: 1 }, status: 201 },
    });
    expect(answer.status).toBe(400);
    const { error } = answer.body as ErrorBody;
    expect(error.code).toBe('MISSING_DATA');
    expect(error.message).toContain('unknown field(s): "body" (write data), "status" (write statusCode)');
    expect(error.message).toContain('(an endpoint has name, data, statusCode, delay)');
  });

  it('a bare array of routes is told the { "routes": [...] } shape', async () => {
    const daemon = await memoryDaemon();
    const answer = await requestJson(`${daemon.url}/api/endpoints/users/routes`, {
      method: 'PUT',
      body: [{ match: { path: '/a' }, answer: { data: 1 } }],
    });
    expect(answer.status).toBe(400);
    const { error } = answer.body as ErrorBody;
    expect(error.code).toBe('INVALID_BODY');
    expect(error.message).toContain('{ "routes": [');
    expect(error.message).toContain('a bare array is not taken');
  });

  it('a route path /users/{id} matches /users/7, as /users/:id does', async () => {
    const daemon = await memoryDaemon();
    const put = await requestJson(`${daemon.url}/api/endpoints/api/routes`, {
      method: 'PUT',
      body: {
        routes: [
          { match: { method: 'GET', path: '/users/{id}/posts/{post_id}' }, answer: { data: 'post' } },
          { match: { method: 'GET', path: '/users/{id}' }, answer: { data: 'user' } },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(await requestJson(`${daemon.url}/endpoint/api/users/7`)).toEqual({ status: 200, body: 'user' });
    expect(await requestJson(`${daemon.url}/endpoint/api/users/7/posts/3`)).toEqual({ status: 200, body: 'post' });
    // The route keeps the path as written.
    const listed = await requestJson(`${daemon.url}/api/endpoints/api/routes`);
    expect(JSON.stringify(listed.body)).toContain('/users/{id}');
    // A name given twice, as with :id, is refused.
    const twice = await requestJson(`${daemon.url}/api/endpoints/api/routes`, {
      method: 'PUT',
      body: { routes: [{ match: { path: '/a/{id}/b/{id}' }, answer: { data: 1 } }] },
    });
    expect(twice.status).toBe(400);
    expect((twice.body as ErrorBody).error.message).toContain('parameter :id appears twice');
  });

  it('random field names beside a missing data: each 400 in one bounded message; health answers after', async () => {
    const daemon = await memoryDaemon();
    const random = prng(62);
    for (let i = 0; i < 150; i++) {
      const fields = Object.fromEntries(
        Array.from({ length: 1 + Math.floor(random() * 8) }, () => [
          randomText(random, 1 + Math.floor(random() * 90)),
          1,
        ]),
      );
      const response = await fetch(`${daemon.url}/api/endpoint/add`, {
        method: 'PUT',
        body: JSON.stringify({ name: 'fuzz', ...fields }),
      });
      const text = await response.text();
      expect(response.status, text).toBe(400);
      const { error } = JSON.parse(text) as ErrorBody;
      expect(['MISSING_DATA', 'INVALID_JSON', 'INVALID_BODY', 'UNKNOWN_FIELD', 'INVALID_NAME']).toContain(error.code);
      expect(error.message.length, error.message).toBeLessThan(700);
      expect(error.message).not.toMatch(/[\r\n]/);
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
  });
});

describe('a mock file with several mistakes', () => {
  const FILE = `version: 1
endpoints:
  - name: users
    data: [1]
    statusCode: "201"
    routes:
      - match: { path: /a }
        answer: { status: 200 }
  - name: 5
    data: 1
`;

  it('mockpoint validate lists every one, each at its line and column, in words', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const run = await runCli({ cwd, args: ['validate', 'mockpoint.yaml'] });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const line = lines[0] as string;
    // Before: the first only, as the validator says it ("Invalid input: expected number, received string").
    expect(line).toContain('mockpoint.yaml:5:17: endpoints[0].statusCode: must be a number, not text (3 problems;');
    expect(line).toContain('8:17 endpoints[0].routes[0].answer: unknown field(s): status');
    expect(line).toContain('9:11 endpoints[1].name: must be text, not a number');
    expect(line).not.toContain('Invalid input');
  });

  it('--config with it stops start-up with one line listing them all', async () => {
    const cwd = await makeTempDir();
    writeFileSync(join(cwd, 'mockpoint.yaml'), FILE);
    const run = await runCli({ cwd, args: ['--memory', '--port', '0', '--config', 'mockpoint.yaml'] });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mockpoint: error: .*mockpoint\.yaml:5:17: .*\(3 problems; also 8:17 .*; 9:11 /);
  });
});
