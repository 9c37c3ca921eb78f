/**
 * A fake of OpenAI's streaming chat completions, built from one mockpoint
 * route: `POST /chat/completions` with `"stream": true` answers with
 * server-sent events shaped the way that API sends them — `chat.completion.chunk`
 * objects, a content delta each, a last chunk with `finish_reason`, then
 * `data: [DONE]`. The model name is templated from the request's body.
 */
import type { MockApi, MockServerClient, RouteAnswer } from '@mockpoint/vitest';

/** One chunk as the API streams it (`delta` is the new part of the message). */
function chunk(delta: Record<string, string>, finishReason: string | null): Record<string, unknown> {
  return {
    id: 'chatcmpl-mock1',
    object: 'chat.completion.chunk',
    created: 1764000000,
    model: '{{body.model}}',
    system_fingerprint: 'fp_mock',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The streamed answer for `pieces` of text, 20 ms apart; `end: 'reset'` breaks it after them. */
export function completionStream(pieces: string[], end: 'close' | 'reset' = 'close'): RouteAnswer {
  const events: { data: unknown; delay?: number }[] = [
    { data: chunk({ role: 'assistant', content: '' }, null) },
    ...pieces.map((content) => ({ data: chunk({ content }, null), delay: 20 })),
  ];
  // A stream that breaks halfway has neither the last chunk nor [DONE].
  if (end === 'close') events.push({ data: chunk({}, 'stop'), delay: 20 }, { data: '[DONE]', delay: 0 });
  return {
    template: true,
    headers: { 'openai-processing-ms': '42', 'x-request-id': 'req_mock' },
    stream: { format: 'sse', events, end },
  };
}

/** Sets up the fake under the name `openai`: a complete answer, and (with `x-break: 1`) one that breaks. */
export function fakeOpenAI(mock: Pick<MockServerClient, 'api'>): Promise<MockApi> {
  return mock.api('openai', [
    {
      id: 'broken',
      match: { method: 'POST', path: '/chat/completions', headers: { 'x-break': '1' } },
      answer: completionStream(['Hello', ', wor'], 'reset'),
    },
    {
      id: 'stream',
      match: { method: 'POST', path: '/chat/completions', body: { stream: true } },
      answer: completionStream(['Hello', ', world', '!']),
    },
  ]);
}
