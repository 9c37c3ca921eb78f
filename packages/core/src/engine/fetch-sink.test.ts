import { describe, expect, it } from 'vitest';
import { type EndpointAnswer, reuseHeaders } from '../answer/endpoint-answer.js';
import { OpenStreams } from '../answer/stream/open-streams.js';
import { createFetchSink } from './fetch-sink.js';
import { sendAnswer } from './sink.js';

function delayed(ms: number): EndpointAnswer {
  return { kind: 'respond', status: 201, headers: { 'content-length': '4' }, body: 'late', delay: ms };
}

describe('the Fetch sink: a delayed answer', () => {
  const sink = createFetchSink(new OpenStreams());

  it('is sent once its delay is over', async () => {
    const started = performance.now();
    const response = await sendAnswer(delayed(30), sink, new AbortController());
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('late');
  });

  it('comes to 499 as soon as its client leaves, without waiting out the delay', async () => {
    const client = new AbortController();
    const pending = sendAnswer(delayed(60_000), sink, client);
    // It leaves once the answer is under way (its 60 s delay started), not after a fixed time.
    setImmediate(() => client.abort());
    expect((await pending).status).toBe(499);
  });

  it('comes to 499 at once for a client that has already left', async () => {
    const client = new AbortController();
    client.abort();
    expect((await sendAnswer(delayed(60_000), sink, client)).status).toBe(499);
  });

  it('rejects (for the runtime to answer 500) when sending fails after the delay, instead of throwing from a timer', async () => {
    // A header value the Response constructor refuses.
    const bad: EndpointAnswer = { ...delayed(5), headers: { 'x-bad': 'a\nb' } } as EndpointAnswer;
    await expect(sendAnswer(bad, sink, new AbortController())).rejects.toThrow();
  });
});

describe('the Fetch sink: an answer whose headers are reused', () => {
  const sink = createFetchSink(new OpenStreams());
  const headers = reuseHeaders(
    Object.freeze({ 'content-type': 'application/json', 'x-two': ['a', 'b'], 'content-length': '2' }),
  );
  const answer: EndpointAnswer = { kind: 'respond', status: 200, headers, body: '{}', delay: 0 };

  it('gives every Response the same headers, each its own copy (a header set on one is not on the next)', async () => {
    const first = sendAnswer(answer, sink, new AbortController()) as Response;
    first.headers.set('x-added', 'only here');
    const second = sendAnswer(answer, sink, new AbortController()) as Response;
    expect(second.headers.has('x-added')).toBe(false);
    for (const response of [first, second]) {
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-two')).toBe('a, b');
      expect(await response.text()).toBe('{}');
    }
  });

  it('still refuses a value the runtime cannot send, on every answer', () => {
    const bad = reuseHeaders(Object.freeze({ 'x-bad': 'a\nb' }));
    const refused: EndpointAnswer = { kind: 'respond', status: 200, headers: bad, body: null, delay: 0 };
    for (let i = 0; i < 2; i++) expect(() => sendAnswer(refused, sink, new AbortController())).toThrow();
  });
});
