/**
 * A tiny LLM client library: summarize a text, and tag it through a tool call,
 * on OpenAI's Chat Completions or Anthropic's Messages with the providers'
 * official SDKs. The SDKs retry a 429 or an overload after its `retry-after`
 * (`maxRetries`); a stream that breaks halfway is started again once (the SDKs
 * do not retry a body that breaks after the headers). Each failure that stays
 * is a {@link SummarizerError} saying why.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

export type Provider = 'openai' | 'anthropic';

export interface SummarizerOptions {
  provider: Provider;
  /** The API's base URL (a mockpoint endpoint in the tests). */
  baseURL: string;
  apiKey?: string;
  model?: string;
  /** Retries of a 429, an overload or a 5xx (the SDK's, after retry-after). @default 2 */
  maxRetries?: number;
}

/** Why a call failed: `rate_limited`, `overloaded`, `too_long` (the context window), `broken` (the stream broke twice), `failed`. */
export class SummarizerError extends Error {
  constructor(
    readonly reason: 'rate_limited' | 'overloaded' | 'too_long' | 'broken' | 'failed',
    cause: unknown,
  ) {
    super(`summarizer: ${reason}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SummarizerError';
  }
}

function reasonOf(error: unknown): SummarizerError['reason'] {
  if (error instanceof OpenAI.RateLimitError || error instanceof Anthropic.RateLimitError) return 'rate_limited';
  // Anthropic says 529 overloaded_error; OpenAI's overload is a 503.
  if (error instanceof Anthropic.OverloadedError || (error instanceof OpenAI.APIError && error.status === 503)) {
    return 'overloaded';
  }
  if (error instanceof OpenAI.BadRequestError && error.code === 'context_length_exceeded') return 'too_long';
  if (error instanceof Anthropic.BadRequestError && /prompt is too long/.test(error.message)) return 'too_long';
  return 'failed';
}

/** A body that broke after the headers: fetch's `terminated`, as each SDK passes it on. */
function isBrokenStream(error: unknown): boolean {
  return error instanceof Error && error.message === 'terminated';
}

const PROMPT = 'Summarize the text in one sentence.';
const TAG_TOOL = {
  name: 'set_tags',
  description: 'Tags for the text.',
  schema: {
    type: 'object' as const,
    properties: { tags: { type: 'array', items: { type: 'string' } } },
    required: ['tags'],
  },
};

export interface Summarizer {
  /** The summary, streamed: `onDelta` gets each piece as it arrives. */
  summarize(text: string, onDelta?: (delta: string) => void): Promise<string>;
  /** Tags for the text, from the model's `set_tags` tool call. */
  tags(text: string): Promise<string[]>;
}

export function createSummarizer(options: SummarizerOptions): Summarizer {
  const maxRetries = options.maxRetries ?? 2;
  const apiKey = options.apiKey ?? 'test-key';
  const openai = new OpenAI({ apiKey, baseURL: options.baseURL, maxRetries });
  const anthropic = new Anthropic({ apiKey, baseURL: options.baseURL, maxRetries });
  const model = options.model ?? (options.provider === 'openai' ? 'gpt-4o-mini' : 'claude-haiku-4-5');

  async function streamOnce(text: string, onDelta: (delta: string) => void): Promise<string> {
    if (options.provider === 'openai') {
      const stream = openai.chat.completions.stream({
        model,
        messages: [
          { role: 'system', content: PROMPT },
          { role: 'user', content: text },
        ],
      });
      stream.on('content', onDelta);
      return (await stream.finalChatCompletion()).choices[0]?.message.content ?? '';
    }
    const stream = anthropic.messages.stream({
      model,
      max_tokens: 512,
      system: PROMPT,
      messages: [{ role: 'user', content: text }],
    });
    stream.on('text', onDelta);
    const message = await stream.finalMessage();
    return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }

  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw error instanceof SummarizerError ? error : new SummarizerError(reasonOf(error), error);
    }
  }

  return {
    summarize(text, onDelta = () => {}) {
      return call(async () => {
        try {
          return await streamOnce(text, onDelta);
        } catch (error) {
          if (!isBrokenStream(error)) throw error;
          // Once more from the start; a second break is final.
          return streamOnce(text, onDelta).catch((again: unknown) => {
            throw isBrokenStream(again) ? new SummarizerError('broken', again) : again;
          });
        }
      });
    },

    tags(text) {
      return call(async () => {
        let input: unknown;
        if (options.provider === 'openai') {
          const completion = await openai.chat.completions.create({
            model,
            messages: [{ role: 'user', content: text }],
            tools: [
              {
                type: 'function',
                function: { name: TAG_TOOL.name, description: TAG_TOOL.description, parameters: TAG_TOOL.schema },
              },
            ],
            tool_choice: { type: 'function', function: { name: TAG_TOOL.name } },
          });
          const toolCall = completion.choices[0]?.message.tool_calls?.[0];
          input = toolCall?.type === 'function' ? JSON.parse(toolCall.function.arguments) : undefined;
        } else {
          const message = await anthropic.messages.create({
            model,
            max_tokens: 256,
            messages: [{ role: 'user', content: text }],
            tools: [{ name: TAG_TOOL.name, description: TAG_TOOL.description, input_schema: TAG_TOOL.schema }],
            tool_choice: { type: 'tool', name: TAG_TOOL.name },
          });
          input = message.content.find((block) => block.type === 'tool_use')?.input;
        }
        const tags = (input as { tags?: unknown } | undefined)?.tags;
        if (!Array.isArray(tags)) throw new SummarizerError('failed', new Error('the model called no set_tags'));
        return tags.map(String);
      });
    },
  };
}
