// OpenAI embeddings as an llm answer gives them: a vector per input (a string, strings, tokens),
// the same for the same text, of unit length and the asked dimensions, as numbers or base64
// float32 little-endian; OpenAI's 400 for what the API refuses and past the values' bound; the
// route's model, usage and error.
import { describe, expect, it } from 'vitest';
import type { LlmAnswer } from '../../api/answer-llm.js';
import { type LlmRequest, type LlmSource, llmWire } from './llm-wire.js';
import { embeddingInputs, embeddingVector } from './openai-embeddings.js';

const FIXED: LlmSource = { random: (_alphabet, count) => 'x'.repeat(count), now: () => Date.UTC(2025, 0, 1) };

function wire(request: Partial<LlmRequest>, answer: Partial<LlmAnswer> = {}) {
  const llm: LlmAnswer = { provider: 'openai', api: 'embeddings', ...answer };
  return llmWire(
    { answer: llm, text: undefined, request: { includeUsage: false, inputChars: 0, ...request }, maxChunks: 1000 },
    FIXED,
  );
}

function body(request: Partial<LlmRequest>, answer: Partial<LlmAnswer> = {}) {
  const result = wire(request, answer);
  if (result.kind !== 'json') throw new Error('not JSON');
  return { status: result.status, json: JSON.parse(result.body) };
}

describe('OpenAI embeddings', () => {
  it('a vector per input: unit length, 1536 by default, the same for the same text', () => {
    const { status, json } = body({ input: ['cat', 'dog', 'cat'], model: 'text-embedding-3-small' });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const [cat, dog, again] = json.data.map((item: { embedding: number[] }) => item.embedding);
    expect(json.data.map((item: { object: string; index: number }) => [item.object, item.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
      ['embedding', 2],
    ]);
    expect(cat).toHaveLength(1536);
    expect(Math.hypot(...cat)).toBeCloseTo(1, 5);
    expect(again).toEqual(cat);
    expect(dog).not.toEqual(cat);
    expect(embeddingVector('cat', 1536).every((value, i) => value === Math.fround(cat[i]))).toBe(true);
  });

  it('dimensions, a 3-large model, base64 float32 little-endian', () => {
    expect(body({ input: 'x', dimensions: 3 }).json.data[0].embedding).toHaveLength(3);
    expect(body({ input: 'x', model: 'text-embedding-3-large' }).json.data[0].embedding).toHaveLength(3072);
    const encoded = body({ input: 'x', dimensions: 4, encodingFormat: 'base64' }).json.data[0].embedding as string;
    const view = new DataView(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)).buffer);
    expect([0, 1, 2, 3].map((i) => view.getFloat32(i * 4, true))).toEqual(Array.from(embeddingVector('x', 4)));
  });

  it('inputs: a string, strings, a token array (one input), token arrays', () => {
    expect(embeddingInputs('a')).toEqual(['a']);
    expect(embeddingInputs(['a', 'b'])).toEqual(['a', 'b']);
    expect(embeddingInputs([1, 2, 3])).toEqual(['[1,2,3]']);
    expect(embeddingInputs([[1], [2]])).toEqual(['[1]', '[2]']);
    for (const bad of [undefined, '', [], [''], [1.5], [{}], 7, Array(2049).fill('a')]) {
      expect(typeof embeddingInputs(bad)).toBe('string');
    }
  });

  it("OpenAI's 400 for what the API refuses and past the values' bound", () => {
    expect(body({}).json.error).toEqual({
      message: "'input' is a required property",
      type: 'invalid_request_error',
      param: 'input',
      code: null,
    });
    for (const dimensions of [0, 3073, 1.5, '8']) {
      expect(body({ input: 'x', dimensions })).toMatchObject({ status: 400, json: { error: { param: 'dimensions' } } });
    }
    const huge = body({ input: Array(86).fill('a'), model: 'text-embedding-3-large' });
    expect(huge.status).toBe(400);
    expect(huge.json.error.message).toContain('86 embeddings of 3072 dimensions are 264192 values, more than 262144');
    expect(body({ input: Array(85).fill('a'), model: 'text-embedding-3-large' }).status).toBe(200);
  });

  it("the route's model, usage and error", () => {
    expect(body({ input: 'x', model: 'asked' }, { model: 'mine', usage: { inputTokens: 42 } }).json).toMatchObject({
      model: 'mine',
      usage: { prompt_tokens: 42, total_tokens: 42 },
    });
    const error = body({ input: 'x' }, { error: 'context_length' });
    expect(error.status).toBe(400);
    expect(error.json.error).toMatchObject({ code: 'context_length_exceeded', param: 'input' });
  });
});
