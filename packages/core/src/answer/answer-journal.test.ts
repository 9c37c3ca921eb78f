import { describe, expect, it } from 'vitest';
import { createApp } from '../index.js';
import { JOURNAL_BODY_LIMIT } from '../registry/limits.js';
import { keptAnswer } from './answer-journal.js';
import { emptyAnswer, type RespondAnswer } from './endpoint-answer.js';

describe('the answer a journal entry keeps', () => {
  it('is the answer sent: status, headers and the exact body (base64 where not UTF-8)', async () => {
    const app = createApp();
    const bytes = new Uint8Array([0xff, 0x00, 0x41, 0xc3]);
    await app.request('/api/endpoints/bin/routes', {
      method: 'PUT',
      body: JSON.stringify({
        routes: [
          {
            match: { path: '/b' },
            answer: { bodyBase64: Buffer.from(bytes).toString('base64'), headers: { 'x-a': '1' } },
          },
          { match: { path: '/t' }, answer: { statusCode: 201, body: 'Zoë' } },
        ],
      }),
    });
    expect((await app.request('/endpoint/bin/b')).status).toBe(200);
    expect(await (await app.request('/endpoint/bin/t')).text()).toBe('Zoë');
    const { requests } = (await (await app.request('/api/endpoints/bin/requests')).json()) as {
      requests: {
        statusCode: number;
        response?: Record<string, unknown>;
        timings?: { wait: number; total?: number };
      }[];
    };
    expect(requests[0]?.response).toMatchObject({
      headers: { 'x-a': '1', 'content-type': 'application/octet-stream', 'content-length': '4' },
      body: Buffer.from(bytes).toString('base64'),
      bodyEncoding: 'base64',
      bodySize: 4,
      bodyTruncated: false,
    });
    expect(requests[1]).toMatchObject({
      statusCode: 201,
      response: { body: 'Zoë', bodySize: 4, bodyTruncated: false },
    });
    expect(requests[1]?.response).not.toHaveProperty('bodyEncoding');
    expect(requests[1]?.timings?.wait).toBeGreaterThanOrEqual(0);
  });

  it('is the answer itself, by reference, unless its body is over the limit: then only its first bytes', () => {
    const small = emptyAnswer(200, { 'x-a': '1' });
    expect(keptAnswer(small)).toBe(small);
    const text = 'é'.repeat(JOURNAL_BODY_LIMIT);
    const big: RespondAnswer = { kind: 'respond', status: 200, headers: {}, body: text, delay: 0 };
    const kept = keptAnswer(big);
    expect(kept).toMatchObject({ kind: 'cut', size: JOURNAL_BODY_LIMIT * 2 });
    expect(kept.kind === 'cut' && kept.body.byteLength).toBe(JOURNAL_BODY_LIMIT);
    // The same answer served again (a cached one) is measured and cut once.
    expect(keptAnswer(big)).toBe(kept);
    const ascii: RespondAnswer = { kind: 'respond', status: 200, headers: {}, body: 'a'.repeat(30_000), delay: 0 };
    expect(keptAnswer(ascii)).toBe(ascii);
  });
});
