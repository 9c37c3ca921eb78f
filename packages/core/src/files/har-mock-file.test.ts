import { describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { MockpointError } from '../registry/errors.js';
import { applyMockFile } from './apply-mock-file.js';
import { harMockFile, isHar } from './har-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

type Pair = { name: string; value: string };

function entry(
  method: string,
  url: string,
  response: { status: number; headers?: Pair[]; content?: Record<string, unknown> },
  postData?: Record<string, unknown>,
) {
  return {
    startedDateTime: '2026-11-24T10:00:00.000Z',
    time: 1,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      ...(postData ? { postData } : {}),
    },
    response: {
      httpVersion: 'HTTP/1.1',
      statusText: '',
      cookies: [],
      redirectURL: '',
      headers: [],
      content: { size: 0, mimeType: '' },
      ...response,
    },
  };
}

function har(...entries: unknown[]): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } });
}

const JSON_TYPE = { name: 'Content-Type', value: 'application/json' };

/** The app with the imported file applied, and a function that asks it at a path below the name. */
async function served(text: string) {
  const app = createApp();
  const file = parseMockFile(text, { file: 'import.json', format: 'json' });
  await applyMockFile(file, { url: 'http://mockpoint', fetch: (request) => Promise.resolve(app.fetch(request)) });
  return (path: string, init?: RequestInit) => app.request(`/endpoint/api${path}`, init);
}

describe('harMockFile', () => {
  it('answers each recorded request as it was answered, the bytes exact', async () => {
    const json = '{"id":12345678901234567890,"name":"Zoë"}';
    const bytes = new Uint8Array([0, 255, 1, 254]);
    const imported = await harMockFile(
      har(
        entry('GET', 'https://api.example.com/users/1?expand=team', {
          status: 200,
          headers: [JSON_TYPE, { name: 'X-Request-Id', value: 'r1' }, { name: 'Content-Encoding', value: 'gzip' }],
          content: { size: 41, mimeType: 'application/json', text: json },
        }),
        entry('GET', 'https://api.example.com/logo.bin', {
          status: 200,
          headers: [{ name: 'content-type', value: 'application/octet-stream' }],
          content: { size: 4, mimeType: 'application/octet-stream', text: 'AP8B/g==', encoding: 'base64' },
        }),
        entry(
          'POST',
          'https://api.example.com/users',
          {
            status: 201,
            headers: [{ name: 'Set-Cookie', value: 'session=secret' }],
            content: { size: 7, mimeType: 'text/plain', text: 'created' },
          },
          { mimeType: 'application/json', text: '{"name":"Ada"}' },
        ),
      ),
      { name: 'api' },
    );
    expect(imported).toMatchObject({ routes: 3, entries: 3, imported: 3, hosts: ['api.example.com'], skipped: [] });
    const ask = await served(imported.text);

    const user = await ask('/users/1?expand=team');
    expect(user.status).toBe(200);
    expect(await user.text()).toBe(json);
    expect(user.headers.get('x-request-id')).toBe('r1');
    // The HAR holds the decoded body: the wire's encoding is not claimed again.
    expect(user.headers.get('content-encoding')).toBeNull();
    expect((await ask('/users/1')).status).toBe(404);

    const logo = await ask('/logo.bin');
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(bytes);

    const created = await ask('/users', { method: 'POST', body: '{"name":"Ada"}' });
    expect(created.status).toBe(201);
    expect(await created.text()).toBe('created');
    // A secret is left out, not replayed as a placeholder.
    expect(created.headers.get('set-cookie')).toBeNull();
    // The body is matched exactly, as a recording does.
    expect((await ask('/users', { method: 'POST', body: '{"name":"Bob"}' })).status).toBe(404);
  });

  it('one route for a request answered the same way again; answers in order, the last staying, when they changed', async () => {
    const status = (state: string) =>
      entry('GET', 'http://localhost:3000/jobs/7', {
        status: 200,
        headers: [JSON_TYPE],
        content: { size: 1, mimeType: 'application/json', text: `{"state":"${state}"}` },
      });
    const imported = await harMockFile(
      har(status('queued'), status('queued'), status('running'), status('done'), status('done')),
      {
        name: 'api',
      },
    );
    expect(imported.routes).toBe(3);
    const ask = await served(imported.text);
    const states: string[] = [];
    for (let i = 0; i < 5; i++) states.push(await (await ask('/jobs/7')).text());
    expect(states).toEqual([
      '{"state":"queued"}',
      '{"state":"running"}',
      '{"state":"done"}',
      '{"state":"done"}',
      '{"state":"done"}',
    ]);
  });

  it('lists what it leaves out, and keeps only one host with host', async () => {
    const imported = await harMockFile(
      har(
        entry('GET', 'data:text/plain,hi', { status: 200 }),
        entry('GET', 'https://cdn.example.com/app.js', { status: 200 }),
        entry('GET', 'https://api.example.com/gone', { status: 0 }),
        entry('GET', 'https://api.example.com/big', { status: 200, content: { size: 5000, mimeType: 'image/png' } }),
        entry(
          'POST',
          'https://api.example.com/upload',
          { status: 204 },
          { mimeType: 'application/octet-stream', text: '/w==', _encoding: 'base64' },
        ),
        entry(
          'POST',
          'https://api.example.com/broken',
          { status: 204 },
          { mimeType: 'application/octet-stream', text: '%%%', _encoding: 'base64' },
        ),
        entry('GET', 'https://api.example.com/ok', { status: 204 }),
      ),
      { name: 'api', host: 'api.example.com' },
    );
    // The upload's bytes are not UTF-8: matched as their base64, as the journal keeps them.
    expect(imported.routes).toBe(2);
    expect(JSON.parse(imported.text).endpoints[0].routes[0].match).toMatchObject({ path: '/upload', body: '/w==' });
    expect(imported.skipped).toEqual([
      { what: 'GET data:text/plain,hi', why: 'not an http(s) request with a method' },
      {
        what: 'GET https://api.example.com/gone',
        why: 'its status 0 is not an answer of 200-599 (a failed or redirected request?)',
      },
      { what: 'GET https://api.example.com/big', why: 'the HAR holds no text of its 5000-byte body' },
      {
        what: 'POST https://api.example.com/broken',
        why: 'its request body is marked base64 but is not base64',
      },
      { what: '1 entry', why: 'sent to hosts other than api.example.com' },
    ]);
  });

  it('never writes a secret: the headers a recording leaves out, and more with redact (as record --redact)', async () => {
    const secrets = [
      { name: 'Authorization', value: 'Bearer s1' },
      { name: 'Proxy-Authorization', value: 'Basic s2' },
      { name: 'X-Auth-Token', value: 's3' },
      { name: 'X-Access-Token', value: 's4' },
      { name: 'Set-Cookie', value: 'sid=s5' },
      { name: 'X-Session', value: 's6' },
    ];
    const text = har(
      entry('GET', 'https://api.example.com/me', {
        status: 200,
        headers: [...secrets, JSON_TYPE],
        content: { text: '{}' },
      }),
    );
    const plain = await harMockFile(text, { name: 'api' });
    expect(plain.text).not.toMatch(/s[1-5]\b/);
    expect(plain.text).toContain('s6');
    const more = await harMockFile(text, { name: 'api', redact: ['x-session'] });
    expect(more.text).not.toMatch(/s[1-6]\b/);
    // Left out, not written as a placeholder a replay would send.
    expect(JSON.parse(more.text).endpoints[0].routes[0].answer.headers).toEqual({ 'content-type': 'application/json' });
    expect(more.text).not.toContain('redacted');
  });

  it('never writes a token a request header sent under a name of its own (X-Token, Private-Token), wherever it is echoed', async () => {
    const withToken = (one: ReturnType<typeof entry>, name: string) => {
      one.request.headers = [{ name, value: 'tok-SECRET-4471' }] as never;
      return one;
    };
    const imported = await harMockFile(
      har(
        withToken(
          entry('GET', 'https://api.example.com/me?sig=tok-SECRET-4471', {
            status: 200,
            headers: [{ name: 'X-Echo', value: 'tok-SECRET-4471' }, JSON_TYPE],
            content: { text: '{"ok":true}' },
          }),
          'X-Token',
        ),
        withToken(
          entry('GET', 'https://api.example.com/whoami', {
            status: 200,
            headers: [JSON_TYPE],
            content: { text: '{"token":"tok-SECRET-4471"}' },
          }),
          'Private-Token',
        ),
        withToken(
          entry(
            'POST',
            'https://api.example.com/login',
            { status: 204 },
            { mimeType: 'text/plain', text: 'tok-SECRET-4471' },
          ),
          'X-Client-Secret',
        ),
      ),
      { name: 'api' },
    );
    expect(imported.text).not.toContain('SECRET');
    expect(imported.routes).toBe(1);
    expect(imported.skipped).toEqual([
      {
        what: 'GET https://api.example.com/me?sig=tok-SECRET-4471: its answer\'s header "X-Echo"',
        why: 'its value holds a credential the request sent: never written',
      },
      {
        what: 'GET https://api.example.com/whoami',
        why: "its answer's body holds a credential the request sent: never written",
      },
      {
        what: 'POST https://api.example.com/login',
        why: 'its request body holds a credential the request sent: never written',
      },
    ]);
  });

  it('leaves out an entry with a header no route can carry (CR/LF), or a body over the bound, and keeps the rest', async () => {
    const imported = await harMockFile(
      har(
        entry('GET', 'https://api.example.com/ok', { status: 200, content: { text: 'ok' } }),
        entry('GET', 'https://api.example.com/crlf', {
          status: 200,
          headers: [{ name: 'X-Evil', value: 'a\r\nset-cookie: pwn=1' }],
          content: { text: 'no' },
        }),
        entry('GET', 'https://api.example.com/big', {
          status: 200,
          content: { text: 'QUJD'.repeat(1000), encoding: 'base64' },
        }),
        entry(
          'POST',
          'https://api.example.com/up',
          { status: 204 },
          { mimeType: 'text/plain', text: 'x'.repeat(4000) },
        ),
      ),
      { name: 'api', maxBodyBytes: 2000 },
    );
    expect(imported.routes).toBe(1);
    expect(imported.skipped).toEqual([
      {
        what: 'GET https://api.example.com/crlf',
        why: expect.stringMatching(/^its answer's header "X-Evil": has U\+000D \(a control character\) at index 1/),
      },
      {
        what: 'GET https://api.example.com/big',
        why: 'its body is about 3000 bytes, over the 2000-byte body limit (MOCKPOINT_MAX_BODY_BYTES): no route carries it',
      },
      {
        what: 'POST https://api.example.com/up',
        why: 'its request body is at least 4000 bytes, over the 2000-byte body limit (MOCKPOINT_MAX_BODY_BYTES): no route carries it',
      },
    ]);
    const ask = await served(imported.text);
    expect(await (await ask('/ok')).text()).toBe('ok');
  });

  it('refuses what is not HAR with INVALID_HAR, naming the file', async () => {
    await expect(harMockFile('{"log":{}}', { name: 'api', file: 'x.har' })).rejects.toThrow(MockpointError);
    await expect(harMockFile('nope', { name: 'api', file: 'x.har' })).rejects.toMatchObject({
      code: 'INVALID_HAR',
      message: expect.stringMatching(/^x\.har: not JSON/),
    });
    expect(isHar(har())).toBe(true);
    expect(isHar('{"users":[]}')).toBe(false);
  });
});
