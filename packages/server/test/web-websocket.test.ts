/**
 * A browser's own WebSocket (Debian's Chromium through playwright-core) against a
 * scripted route on the daemon: the subprotocol chosen from the browser's list, the
 * script's frames (text, JSON, binary), a reply to a matching message, a close code
 * and reason the page sees, and the journal holding every message both ways exactly.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { closeBrowser, openPage, poll, startWebDaemon, useBrowser, type WatchedPage } from './web-support.js';

let server: RunningServer;
const pages: WatchedPage[] = [];

beforeAll(async () => {
  server = await startWebDaemon();
  const saved = await fetch(`${server.url}/api/endpoints/chat/routes`, {
    method: 'PUT',
    body: JSON.stringify({
      routes: [
        {
          match: { path: '/room' },
          answer: {
            websocket: {
              protocols: ['chat.v2', 'chat.v1'],
              onOpen: [{ json: { type: 'welcome', text: 'héllo 🎉' } }, { bytes: 'AAEC/w==', delay: 10 }],
              on: [
                { match: { body: { type: 'ping' } }, send: [{ json: { type: 'pong' } }] },
                { match: { body: 'bye' }, close: { code: 4000, reason: 'see you' } },
              ],
            },
          },
        },
      ],
    }),
  });
  expect(saved.status).toBe(200);
});

afterAll(async () => {
  for (const { page } of pages) await page.context().close();
  await closeBrowser();
  await server.close();
});

test('Chromium: protocol, frames both ways, binary, close code; the journal holds them exactly', async () => {
  const watched = await openPage(await useBrowser());
  pages.push(watched);
  const { page } = watched;
  await page.goto(server.url);
  const url = `${server.url.replace('http', 'ws')}/endpoint/chat/room`;
  const seen = await page.evaluate(async (address) => {
    const events: string[] = [];
    const socket = new WebSocket(address, ['chat.v1', 'other']);
    socket.binaryType = 'arraybuffer';
    const closed = new Promise<string>((resolve) => {
      socket.onclose = (event) => resolve(`close ${event.code} ${event.reason} clean=${event.wasClean}`);
    });
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') events.push(`text ${event.data}`);
      else events.push(`bytes ${Array.from(new Uint8Array(event.data as ArrayBuffer)).join(',')}`);
      if (events.length === 3) socket.send(JSON.stringify({ type: 'ping', from: 'chromium' }));
      if (events.length === 4) {
        socket.send(new Uint8Array([9, 8, 7]));
        socket.send('bye');
      }
    };
    // The protocol first: 'open' comes before any message.
    socket.onopen = () => events.push(`protocol ${socket.protocol}`);
    events.push(await closed);
    return events;
  }, url);
  expect(seen).toEqual([
    'protocol chat.v1',
    'text {"type":"welcome","text":"héllo 🎉"}',
    'bytes 0,1,2,255',
    'text {"type":"pong"}',
    'close 4000 see you clean=true',
  ]);
  const journal = (await (await fetch(`${server.url}/api/endpoints/chat/requests`)).json()) as {
    requests: Array<{ method: string; body: string; bodyEncoding?: string; websocket?: { direction: string } }>;
  };
  expect(journal.requests.map((e) => [e.method, e.websocket?.direction, e.body, e.bodyEncoding])).toEqual([
    ['GET', undefined, '', undefined],
    ['MESSAGE', 'out', '{"type":"welcome","text":"héllo 🎉"}', undefined],
    ['MESSAGE', 'out', 'AAEC/w==', 'base64'],
    ['MESSAGE', 'in', '{"type":"ping","from":"chromium"}', undefined],
    ['MESSAGE', 'out', '{"type":"pong"}', undefined],
    ['MESSAGE', 'in', 'CQgH', 'base64'],
    ['MESSAGE', 'in', 'bye', undefined],
    ['CLOSE', 'out', 'see you', undefined],
  ]);
  expect(watched.problems).toEqual([]);
});

test("the page's journal shows each message's way, connection and close code, and offers no curl for them", async () => {
  const watched = await openPage(await useBrowser());
  pages.push(watched);
  const { page } = watched;
  await page.goto(`${server.url}/#/e/chat`);
  // The test above left one handshake and seven messages and a close in the journal.
  await poll(() => page.locator('.journal-list li').count()).toBe(8);
  const connection = (await page.locator('.journal-list .ws').first().getAttribute('title'))?.match(
    /connection (\S+),/,
  )?.[1];
  expect(connection).toBeDefined();
  const marks = await page
    .locator('.journal-list summary')
    .evaluateAll((summaries) =>
      summaries.map((summary) => [
        summary.querySelector('.method')?.textContent,
        summary.querySelector('.ws')?.textContent ?? null,
      ]),
    );
  // Newest first.
  expect(marks).toEqual([
    ['CLOSE', `out → ${connection} close 4000`],
    ['MESSAGE', `in ← ${connection}`],
    ['MESSAGE', `in ← ${connection}`],
    ['MESSAGE', `out → ${connection}`],
    ['MESSAGE', `in ← ${connection}`],
    ['MESSAGE', `out → ${connection}`],
    ['MESSAGE', `out → ${connection}`],
    ['GET', null],
  ]);
  await page.locator('.journal-list summary').first().click();
  const opened = page.locator('.journal-list li').first();
  await poll(() => opened.locator('.entry-actions').count()).toBe(1);
  const text = await opened.textContent();
  expect(text).toContain('close code4000');
  expect(text).toContain(`connection${connection}`);
  expect(await opened.getByRole('button', { name: 'Copy as curl' }).count()).toBe(0);
  expect(watched.problems).toEqual([]);
});
