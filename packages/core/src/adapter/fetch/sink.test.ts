import { describe, expect, it } from 'vitest';
import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import { sendAnswer } from '../../answer/sink.js';
import { OpenStreams } from '../../answer/stream/open-streams.js';
import { createFetchSink } from './sink.js';

function delayed(ms: number): EndpointAnswer {
  return { kind: 'respond', status: 201, headers: { 'content-length': '4' }, body: 'late', delay: ms };
}

describe('the Fetch sink: a delayed answer', () => {
  const sink = createFetchSink(new OpenStreams());

  it('is sent once its delay is over', async () => {
    const started = performance.now();
    const response = await sendAnswer(delayed(30), sink, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('late');
  });

  it('comes to 499 as soon as its client leaves, without waiting out the delay', async () => {
    const client = new AbortController();
    const pending = sendAnswer(delayed(60_000), sink, client.signal);
    setTimeout(() => client.abort(), 10);
    expect((await pending).status).toBe(499);
  });

  it('comes to 499 at once for a client that has already left', async () => {
    const client = new AbortController();
    client.abort();
    expect((await sendAnswer(delayed(60_000), sink, client.signal)).status).toBe(499);
  });

  it('rejects (for the runtime to answer 500) when sending fails after the delay, instead of throwing from a timer', async () => {
    // A header value the Response constructor refuses.
    const bad: EndpointAnswer = { ...delayed(5), headers: { 'x-bad': 'a\nb' } } as EndpointAnswer;
    await expect(sendAnswer(bad, sink, new AbortController().signal)).rejects.toThrow();
  });
});
