// Requests to the daemon's plain URLs carry the session, by fetch and node:http, against a real
// server on 127.0.0.1 that answers the header it got; intercept's hook keeps working beside it.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesSession, carrySessionToDaemon } from './daemon-carry.js';
import { startIntercept } from './intercept.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ session: req.headers['mockpoint-session'] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function httpGet(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });
}

const fetchJson = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).json();

describe('carriesSession', () => {
  const daemon = new URL('http://127.0.0.1:16540');
  const carried = (url: string, headers: Record<string, string> = {}) =>
    carriesSession(daemon, new URL(url), new Headers(headers));

  it("picks the daemon's plain URLs, under any loopback name", () => {
    expect(carried('http://127.0.0.1:16540/endpoint/user')).toBe(true);
    expect(carried('http://localhost:16540/api/endpoints')).toBe(true);
    expect(carried('http://[::1]:16540/endpoint/user?x=1')).toBe(true);
  });

  it('leaves other origins, requests already in a namespace and the namespace routes', () => {
    expect(carried('http://127.0.0.1:16541/endpoint/user')).toBe(false);
    expect(carried('https://127.0.0.1:16540/endpoint/user')).toBe(false);
    expect(carried('http://example.com:16540/endpoint/user')).toBe(false);
    expect(carried('http://127.0.0.1:16540/ns/t1/endpoint/user')).toBe(false);
    expect(carried('http://127.0.0.1:16540/api/namespaces')).toBe(false);
    expect(carried('http://127.0.0.1:16540/api/namespaces/t1')).toBe(false);
    expect(carried('http://127.0.0.1:16540/endpoint/user', { 'mockpoint-session': 'mine' })).toBe(false);
    expect(carried('http://127.0.0.1:16540/endpoint/user', { baggage: 'a=1, Mockpoint-Session=mine' })).toBe(false);
  });
});

describe('carrySessionToDaemon', () => {
  it('adds the session to fetch and node:http requests to the daemon; a header the caller set stays', async () => {
    let next = 0;
    const stop = carrySessionToDaemon(base, async () => `s${++next}`);
    try {
      expect(await fetchJson(`${base}/endpoint/user`)).toEqual({ session: 's1' });
      expect(await httpGet(`${base}/endpoint/user`)).toEqual({ session: 's2' });
      expect(await httpGet(`${base}/endpoint/user`, { 'mockpoint-session': 'own' })).toEqual({ session: 'own' });
      expect(await fetchJson(`${base}/ns/t1/endpoint/user`)).toEqual({ session: null });
      expect(await fetchJson(`${base}/api/namespaces`)).toEqual({ session: null });
    } finally {
      stop();
    }
    // Stopped: nothing is added any more.
    expect(await fetchJson(`${base}/endpoint/user`)).toEqual({ session: null });
    expect(next).toBe(2);
  });

  it('no session (outside a test): the request goes as it was; an error of the session fails the request', async () => {
    let answer: () => Promise<string | undefined> = async () => undefined;
    const stop = carrySessionToDaemon(base, () => answer());
    try {
      expect(await httpGet(`${base}/endpoint/user`)).toEqual({ session: null });
      answer = () => Promise.reject(Object.assign(new Error('2 tests run at once'), { code: 'NO_SESSION' }));
      await expect(fetch(`${base}/endpoint/user`)).rejects.toMatchObject({ code: 'NO_SESSION' });
      await expect(httpGet(`${base}/endpoint/user`)).rejects.toMatchObject({ code: 'NO_SESSION' });
    } finally {
      stop();
    }
  });

  it("works beside intercept's hook, started and stopped in either order; the clients are restored", async () => {
    const original = { fetch: globalThis.fetch, request: http.request };
    for (const carryFirst of [true, false]) {
      const stops: (() => void)[] = [];
      const carry = () => stops.push(carrySessionToDaemon(base, async () => 'both'));
      if (carryFirst) carry();
      stops.push(startIntercept(['https://api.carry.test'], async () => Response.json({ intercepted: true })));
      if (!carryFirst) carry();
      try {
        expect(await fetchJson('https://api.carry.test/x')).toEqual({ intercepted: true });
        expect(await fetchJson(`${base}/endpoint/user`)).toEqual({ session: 'both' });
        expect(await httpGet(`${base}/endpoint/user`)).toEqual({ session: 'both' });
      } finally {
        for (const stop of carryFirst ? stops.reverse() : stops) stop();
      }
      expect(globalThis.fetch).toBe(original.fetch);
      expect(http.request).toBe(original.request);
    }
  });
});
