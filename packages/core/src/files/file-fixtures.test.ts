// Mock files and their `$file` fixtures as the API takes bodies: strict UTF-8
// (refused with the byte offset, never read as U+FFFD), every admin write
// within the body limit (so validate, apply and --config refuse the same
// files), and `$file` for `body` (text, exactly) and `bodyBase64` (bytes).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../http/create-app.js';
import { DEFAULT_MAX_BODY_BYTES } from '../registry/limits.js';
import { applyMockFile } from './apply-mock-file.js';
import { exportMockFile } from './export-mock-file.js';
import { loadMockFile } from './load-mock-file.js';
import { parseMockFile } from './parse-mock-file.js';

const folder = mkdtempSync(join(tmpdir(), 'mockpoint-fixtures-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, content: string | Uint8Array): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

function refusal(load: () => unknown): { code?: string; message: string; details?: Record<string, unknown> } {
  try {
    load();
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the file to be refused');
}

const BINARY = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('strict UTF-8', () => {
  it('a mock file with a byte that is not UTF-8 is refused with its offset, line and column', () => {
    const head = Buffer.from('version: 1\nendpoints:\n  - name: a\n    data: "caf');
    const path = write('latin1.yaml', Buffer.concat([head, Buffer.from([0xe9]), Buffer.from('"\n')]));
    const error = refusal(() => loadMockFile(path));
    expect(error.code).toBe('MOCK_FILE_SYNTAX');
    expect(error.details).toMatchObject({ file: path, reason: 'INVALID_UTF8', offset: head.length, line: 4 });
    expect(error.message).toBe(`${path}:4:15: byte ${head.length} is not valid UTF-8; save the file as UTF-8`);
  });

  it.each(['data', 'body'])('a %s $file fixture that is not UTF-8 is refused, naming it and the offset', (field) => {
    write('bad.txt', Buffer.from([0x22, 0x61, 0xc3, 0x28, 0x22]));
    const answer = field === 'data' ? '{ data: { $file: bad.txt } }' : '{ body: { $file: bad.txt } }';
    const path = write(
      `bad-${field}.yaml`,
      `version: 1\nendpoints:\n  - name: a\n    routes:\n      - answer: ${answer}\n`,
    );
    const error = refusal(() => loadMockFile(path));
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({
      reason: 'INVALID_UTF8',
      offset: 2,
      path: `endpoints[0].routes[0].answer.${field}.$file`,
    });
    expect(error.message).toContain('bad.txt: byte 2 is not valid UTF-8');
  });
});

describe('$file for body and bodyBase64', () => {
  it('body reads the text exactly, bodyBase64 the bytes; in routes and queued answers', () => {
    write('page.html', '<p>café\r\n  “quoted” </p>\n');
    write('logo.bin', BINARY);
    const path = write(
      'bodies.yaml',
      [
        'version: 1',
        'endpoints:',
        '  - name: files',
        '    routes:',
        '      - answer: { body: { $file: page.html }, headers: { content-type: text/html } }',
        '      - answer: { bodyBase64: { $file: logo.bin } }',
        '    queue:',
        '      - { statusCode: 503, body: { $file: ./page.html } }',
        '      - { bodyBase64: { $file: logo.bin } }',
      ].join('\n'),
    );
    const [endpoint] = loadMockFile(path).endpoints;
    expect(endpoint?.routes[0]?.answer.body).toBe('<p>café\r\n  “quoted” </p>\n');
    expect(endpoint?.routes[1]?.answer.bodyBase64).toBe(Buffer.from(BINARY).toString('base64'));
    expect(endpoint?.queue[0]?.body).toBe('<p>café\r\n  “quoted” </p>\n');
    expect(endpoint?.queue[1]?.bodyBase64).toBe(Buffer.from(BINARY).toString('base64'));
  });

  it('applied, the daemon answers those bytes, and export → apply gives the same answers', async () => {
    write('logo.bin', BINARY);
    const path = write(
      'served.yaml',
      'version: 1\nendpoints:\n  - name: logo\n    routes:\n      - answer: { bodyBase64: { $file: logo.bin }, headers: { content-type: image/png } }\n',
    );
    const app = createApp();
    const target = { url: 'http://app', fetch: async (request: Request) => app.request(request) };
    await applyMockFile(loadMockFile(path), target);
    const served = async () => new Uint8Array(await (await app.request('/endpoint/logo/x')).arrayBuffer());
    expect(await served()).toEqual(BINARY);
    const exported = await exportMockFile(target, { names: ['logo'], format: 'yaml' });
    const again = createApp();
    await applyMockFile(parseMockFile(exported, { file: 'export.yaml' }), {
      url: 'http://app',
      fetch: async (request: Request) => again.request(request),
    });
    expect(new Uint8Array(await (await again.request('/endpoint/logo/x')).arrayBuffer())).toEqual(BINARY);
  });
});

describe('every write within the body limit: the check validate, apply and --config share', () => {
  it('a $file fixture larger than the limit is refused before it is read', () => {
    write('huge.json', `"${'x'.repeat(DEFAULT_MAX_BODY_BYTES)}"`);
    const path = write('huge.yaml', 'version: 1\nendpoints:\n  - name: big\n    data: { $file: huge.json }\n');
    const error = refusal(() => loadMockFile(path));
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ reason: 'BODY_TOO_LARGE', path: 'endpoints[0].data.$file' });
    expect(error.message).toContain(`more than the body limit ${DEFAULT_MAX_BODY_BYTES}`);
  });

  it('a record whose data passes the limit, and queued answers that pass it together, are refused', () => {
    const limit = { maxBodyBytes: 1000 };
    const data = refusal(() =>
      parseMockFile(`version: 1\nendpoints:\n  - name: r\n    data: "${'x'.repeat(1000)}"\n`, limit),
    );
    expect(data.details).toMatchObject({ reason: 'BODY_TOO_LARGE', path: 'endpoints[0].data' });
    expect(data.message).toMatch(/PUT \/api\/endpoints\/r would send \d+ bytes, more than the body limit 1000/);
    const each = `{ body: "${'y'.repeat(400)}" }`;
    const queue = refusal(() =>
      parseMockFile(`version: 1\nendpoints:\n  - name: q\n    queue: [${each}, ${each}, ${each}]\n`, limit),
    );
    expect(queue.details).toMatchObject({ reason: 'BODY_TOO_LARGE', path: 'endpoints[0].queue' });
  });

  it('routes that pass the limit together are taken up to 8 x it (the daemon takes that list), refused past it', () => {
    const limit = { maxBodyBytes: 1000 };
    const routes = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `      - { match: { path: /r${i} }, answer: { body: "${'z'.repeat(300)}" } }`,
      ).join('\n');
    const file = (count: number) => `version: 1\nendpoints:\n  - name: gh\n    routes:\n${routes(count)}\n`;
    expect(parseMockFile(file(20), limit).endpoints[0]?.routes).toHaveLength(20);
    const over = refusal(() => parseMockFile(file(30), limit));
    expect(over.details).toMatchObject({ reason: 'BODY_TOO_LARGE', path: 'endpoints[0].routes' });
    expect(over.message).toMatch(
      /PUT \/api\/endpoints\/gh\/routes would send \d+ bytes, more than the body limit 8000 \(8 x MOCKPOINT_MAX_BODY_BYTES\)/,
    );
  });
});
