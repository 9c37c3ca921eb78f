// What an add or a replace stores is exactly what was sent: the `data` value's own
// JSON text (big integers, 1e400, -0, key order), served the same by the endpoint,
// the 201 echo and every management read, across a restart. Bodies that are not
// UTF-8, hold a key twice or come compressed are handled, never silently changed.
// A real daemon on a real socket, with the LevelDB store in a temp directory.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type Daemon, makeTempDir, sharedDaemon, startDaemon, useDaemons } from './helpers/daemon.js';

useDaemons();

const EXACT = '{"b":1,"2":2,"id":12345678901234567890,"n":9007199254740993,"huge":1e400,"neg":-0,"f":1.50,"s":"a  b"}';

async function send(url: string, method: string, body?: string | Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, body: body as BodyInit | undefined, headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function code(text: string): string {
  return (JSON.parse(text) as { error: { code: string } }).error.code;
}

/** A daemon on LevelDB in `dataDir`. */
function daemon(dataDir: string): Promise<Daemon> {
  return startDaemon({ env: { MOCKPOINT_DATA_DIR: dataDir } });
}

/** One LevelDB daemon for the tests that need no restart or setting of their own, emptied after each. */
const shared = sharedDaemon(async () => ({ env: { MOCKPOINT_DATA_DIR: await makeTempDir() } }), { clean: true });

describe('exact JSON', () => {
  it('an add stores the data text as sent; endpoint, echo, get, list and a restart all show it', async () => {
    const dir = await makeTempDir();
    const first = await daemon(dir);
    // Whitespace outside strings may go; everything else stays.
    const spaced = EXACT.replace(/,"/g, ' ,\n "');
    const add = await send(`${first.url}/api/endpoint/add`, 'PUT', `{"name":"big","data":${spaced},"statusCode":201}`);
    expect(add.status, add.text).toBe(201);
    expect(add.text).toBe(`{"success":true,"name":"big","data":${EXACT},"statusCode":201,"delay":0}`);
    expect((await send(`${first.url}/endpoint/big`, 'GET')).text).toBe(EXACT);
    const record = `{"name":"big","data":${EXACT},"statusCode":201,"delay":0}`;
    expect((await send(`${first.url}/api/endpoints/big`, 'GET')).text).toBe(record);
    expect((await send(`${first.url}/api/endpoints`, 'GET')).text).toBe(
      `{"endpoints":[${record}],"next":null,"total":1}`,
    );
    await first.stop();

    const second = await daemon(dir);
    expect((await send(`${second.url}/endpoint/big`, 'GET')).text).toBe(EXACT);
    expect((await send(`${second.url}/api/endpoints/big`, 'GET')).text).toBe(record);
  });

  it('a replace stores and echoes the exact text too', async () => {
    const server = await shared();
    const put = await send(`${server.url}/api/endpoints/r`, 'PUT', `{"data":[${EXACT},-0.0e-0]}`);
    expect(put.status, put.text).toBe(201);
    expect(put.text).toBe(`{"name":"r","data":[${EXACT},-0.0e-0],"statusCode":200,"delay":0}`);
    const again = await send(`${server.url}/api/endpoints/r`, 'PUT', `{"name":"r","data":9007199254740993}`);
    expect(again.status).toBe(200);
    expect((await send(`${server.url}/endpoint/r`, 'GET')).text).toBe('9007199254740993');
  });

  it('a key twice in one object is refused with 400 DUPLICATE_KEY, and nothing is stored', async () => {
    const server = await shared();
    for (const body of [
      '{"name":"dup","data":{"a":1,"a":2}}',
      '{"name":"dup","data":[{"x":{"k":1,"\\u006b":2}}]}',
      '{"name":"dup","name":"dup","data":1}',
    ]) {
      const response = await send(`${server.url}/api/endpoint/add`, 'PUT', body);
      expect(response.status, body).toBe(400);
      expect(code(response.text)).toBe('DUPLICATE_KEY');
    }
    const put = await send(`${server.url}/api/endpoints/dup`, 'PUT', '{"data":{"a":1,"a":2}}');
    expect(code(put.text)).toBe('DUPLICATE_KEY');
    expect((await send(`${server.url}/api/endpoints/dup`, 'GET')).status).toBe(404);
  });
});

describe('bytes that are not UTF-8', () => {
  it('are refused with 400 INVALID_UTF8 on add and replace, never stored as U+FFFD', async () => {
    const server = await shared();
    const head = new TextEncoder().encode('{"name":"bin","data":"caf');
    const body = new Uint8Array([...head, 0xe9, 0x22, 0x7d]); // Latin-1 é, then "}
    const add = await send(`${server.url}/api/endpoint/add`, 'PUT', body);
    expect(add.status, add.text).toBe(400);
    expect(code(add.text)).toBe('INVALID_UTF8');
    const replace = await send(`${server.url}/api/endpoints/bin`, 'PUT', body.slice(15));
    expect(code(replace.text)).toBe('INVALID_UTF8');
    expect((await send(`${server.url}/api/endpoints/bin`, 'GET')).status).toBe(404);
  });
});

describe('Content-Encoding on add and replace', () => {
  const json = `{"name":"zip","data":${EXACT}}`;

  it('gzip and deflate bodies are decoded and stored as their text', async () => {
    const server = await shared();
    const add = await send(`${server.url}/api/endpoint/add`, 'PUT', gzipSync(json), { 'content-encoding': 'gzip' });
    expect(add.status, add.text).toBe(201);
    expect((await send(`${server.url}/endpoint/zip`, 'GET')).text).toBe(EXACT);
    const put = await send(`${server.url}/api/endpoints/zip`, 'PUT', deflateSync('{"data":[1e400]}'), {
      'content-encoding': 'deflate',
    });
    expect(put.status, put.text).toBe(200);
    expect((await send(`${server.url}/endpoint/zip`, 'GET')).text).toBe('[1e400]');
  });

  it('the body limit holds for the decoded size: a small gzip bomb is 413', async () => {
    const server = await startDaemon({
      env: { MOCKPOINT_DATA_DIR: await makeTempDir(), MOCKPOINT_MAX_BODY_BYTES: '65536' },
    });
    const bomb = gzipSync(`{"name":"bomb","data":"${'a'.repeat(1024 * 1024)}"}`);
    expect(bomb.byteLength).toBeLessThan(65536);
    const add = await send(`${server.url}/api/endpoint/add`, 'PUT', bomb, { 'content-encoding': 'gzip' });
    expect(add.status, add.text).toBe(413);
    expect(code(add.text)).toBe('BODY_TOO_LARGE');
  });

  it('an unknown coding is 415 with Accept-Encoding; broken gzip is 400; nothing is stored', async () => {
    const server = await shared();
    const br = await send(`${server.url}/api/endpoint/add`, 'PUT', brotliCompressSync(json), {
      'content-encoding': 'br',
    });
    expect(br.status, br.text).toBe(415);
    expect(code(br.text)).toBe('UNSUPPORTED_ENCODING');
    expect(br.headers.get('accept-encoding')).toBe('gzip, deflate');
    const broken = await send(`${server.url}/api/endpoint/add`, 'PUT', json, { 'content-encoding': 'gzip' });
    expect(broken.status, broken.text).toBe(400);
    expect(code(broken.text)).toBe('INVALID_ENCODING');
    expect((await send(`${server.url}/api/endpoints/zip`, 'GET')).status).toBe(404);
  });
});
