// The official `openai` client (from npm) streaming a chat completion from a
// mockpoint route: it reads server-sent events as they arrive, and when the
// stream breaks halfway it has the first part of the message and then an error.
import { expect, it, useMockServer } from '@mockpoint/vitest';
import OpenAI from 'openai';
import { fakeOpenAI } from './fake-openai.js';

const mock = useMockServer({ resetAfterEach: true });

function client(baseURL: string, headers: Record<string, string> = {}): OpenAI {
  // No retries: a broken stream must surface as the client reports it.
  return new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0, defaultHeaders: headers });
}

it('streams a chat completion chunk by chunk, then [DONE]', async () => {
  const openai = await fakeOpenAI(mock);
  const stream = await client(openai.url).chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Say hello' }],
    stream: true,
  });
  const deltas: string[] = [];
  let finish: string | null = null;
  for await (const part of stream) {
    expect(part.model).toBe('gpt-4o-mini'); // templated from the request body, per event
    const [choice] = part.choices;
    if (choice?.delta.content) deltas.push(choice.delta.content);
    finish = choice?.finish_reason ?? finish;
  }
  expect(deltas).toEqual(['Hello', ', world', '!']);
  expect(finish).toBe('stop');
  await expect(openai).toHaveBeenRequestedWith({ method: 'POST', path: '/chat/completions', body: { stream: true } });
});

it('a stream that breaks halfway: the client has the first chunks, then throws', async () => {
  const openai = await fakeOpenAI(mock);
  const stream = await client(openai.url, { 'x-break': '1' }).chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Say hello' }],
    stream: true,
  });
  const deltas: string[] = [];
  const error = await (async () => {
    for await (const part of stream) {
      const content = part.choices[0]?.delta.content;
      if (content) deltas.push(content);
    }
  })().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(deltas).toEqual(['Hello', ', wor']);
  // Node's fetch (undici) reports the cut body as `TypeError: terminated` (cause: other side closed).
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toBe('terminated');
  const [request] = await openai.requests();
  expect(request?.answeredBy).toEqual({ route: 'broken' });
});
