// A queued answer taken and then refused (TOO_MANY_TIMERS: its timed setState finds no room)
// is put back first in line, on the HTTP queue step and on a gRPC call alike: the refusal
// answers, and the next request, once there is room, gets the queued answer. Once its state
// move is made, the answer is used: a refusal to schedule the timed part then does not put it back.
import { describe, expect, it } from 'vitest';
import { createApp, type MockpointApp } from '../index.js';
import { MAX_TIMED_MOVES } from '../state/state-timers.js';

const PROTO =
  'syntax = "proto3";\npackage chat.v1;\nservice Chat { rpc Get(Ask) returns (Ask); }\nmessage Ask { string text = 1; }\n';
const LATER = { after: '30s', to: 'shipped' };

/** Makes the app's timers read as full (`true`) or as they are (`false`). */
function timersFull(app: MockpointApp, full: boolean): void {
  const timers = app.mockpoint.timers;
  if (full) Object.defineProperty(timers, 'size', { configurable: true, get: () => MAX_TIMED_MOVES });
  else delete (timers as unknown as { size?: number }).size;
}

async function queue(app: MockpointApp, name: string, answers: unknown[]): Promise<void> {
  const pushed = await app.request(`/api/endpoints/${name}/queue`, {
    method: 'POST',
    body: JSON.stringify({ answers }),
  });
  expect(pushed.status, await pushed.clone().text()).toBe(201);
}

async function queued(app: MockpointApp, name: string): Promise<unknown[]> {
  return ((await (await app.request(`/api/endpoints/${name}/queue`)).json()) as { answers: unknown[] }).answers;
}

describe('a queued answer refused after its take', () => {
  it('stays queued for the next HTTP request', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'api', data: { ok: 1 } }) });
    await queue(app, 'api', [{ statusCode: 202, data: { queued: true }, setState: LATER }]);
    timersFull(app, true);
    const refused = await app.request('/endpoint/api');
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_TIMERS' } });
    expect(await queued(app, 'api')).toHaveLength(1);
    timersFull(app, false);
    const answered = await app.request('/endpoint/api');
    expect(answered.status).toBe(202);
    expect(await answered.json()).toEqual({ queued: true });
    expect(await queued(app, 'api')).toEqual([]);
  });

  it('stays queued for the next gRPC call', async () => {
    const app = createApp();
    const put = await app.request('/api/endpoints/chat/grpc', {
      method: 'PUT',
      body: JSON.stringify({ protos: { 'chat.proto': PROTO } }),
    });
    expect(put.status).toBe(201);
    await queue(app, 'chat', [{ grpc: { message: { text: 'queued' } }, setState: LATER }]);
    const call = () =>
      app.request('/chat.v1.Chat/Get', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'connect-protocol-version': '1' },
        body: JSON.stringify({ text: 'hi' }),
      });
    timersFull(app, true);
    const refused = await call();
    expect(refused.status).not.toBe(200);
    expect(await refused.text()).toContain('timed state moves');
    expect(await queued(app, 'chat')).toHaveLength(1);
    timersFull(app, false);
    const answered = await call();
    expect(await answered.json()).toEqual({ text: 'queued' });
    expect(await queued(app, 'chat')).toEqual([]);
  });

  it('is used, not put back, when the timers fill after its state moved', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'api', data: { ok: 1 } }) });
    await queue(app, 'api', [{ statusCode: 202, data: { queued: true }, setState: LATER }]);
    const timers = app.mockpoint.timers;
    // Room when checked before the move; full when the timed part is scheduled after it.
    timers.schedule = () => {
      timersFull(app, true);
      return false;
    };
    const refused = await app.request('/endpoint/api');
    expect(await refused.json()).toMatchObject({ error: { code: 'TOO_MANY_TIMERS' } });
    expect(await queued(app, 'api')).toEqual([]);
  });
});
