/**
 * The llm kind: answer in an LLM provider's wire format, JSON or streamed
 * (routes only; see docs/llm.md).
 *
 * @module
 */

import { z } from 'zod';
import { SETTINGS } from '../../registry/settings.js';
import type { RouteSchemaParts } from '../answer-kind.js';
import { answerKind } from '../answer-kind.js';
import {
  checkLlm,
  LLM_APIS,
  LLM_ERROR_TYPES,
  LLM_PROVIDERS,
  llmFromJson,
  MAX_LLM_ERROR_MESSAGE_LENGTH,
  MAX_LLM_MODEL_LENGTH,
  MAX_LLM_RETRY_AFTER,
  MAX_LLM_TOOL_CALLS,
  MAX_LLM_TOOL_NAME_LENGTH,
} from '../answer-llm.js';

/** An answer in an LLM provider's wire format. */
function createLlmSchema(parts: RouteSchemaParts) {
  const llmErrorType = z
    .enum(LLM_ERROR_TYPES as [string, ...string[]])
    .describe(
      "rate_limit (429 with retry-after and the provider's rate-limit headers), overloaded (Anthropic 529, the others 503), server (500), context_length (400).",
    );
  return z
    .strictObject({
      provider: z
        .enum(LLM_PROVIDERS as [string, ...string[]])
        .describe('Whose wire format: openai, anthropic, gemini, ollama or bedrock.'),
      api: z
        .enum(LLM_APIS as [string, ...string[]])
        .describe(
          'openai: chat.completions, responses or embeddings; anthropic: messages; gemini: generateContent; ollama: chat; bedrock: converse or converse-stream.',
        ),
      text: z
        .string()
        .optional()
        .describe(
          "The assistant's text (with template: true, rendered per request), streamed a token-like chunk at a time.",
        ),
      toolCalls: z
        .array(
          z.strictObject({
            name: z.string().max(MAX_LLM_TOOL_NAME_LENGTH).describe('The tool (function) name: A-Z a-z 0-9 _ -.'),
            arguments: parts.data.optional().describe('A JSON object, sent as its exact text; default {}.'),
            id: z
              .string()
              .max(MAX_LLM_TOOL_NAME_LENGTH)
              .optional()
              .describe(
                'The call id; default a fresh call_… (OpenAI), toolu_… (Anthropic) or tooluse_… (Bedrock); Gemini and Ollama send it only when given.',
              ),
          }),
        )
        .max(MAX_LLM_TOOL_CALLS)
        .optional()
        .describe('Tool calls after the text (finish_reason tool_calls, stop_reason tool_use).'),
      stream: z
        .boolean()
        .optional()
        .describe(
          "Stream (SSE; NDJSON for Ollama) or not; absent: as the request asks (its stream field, Ollama's default true; Gemini's :streamGenerateContent path; Bedrock's api).",
        ),
      chunkDelayMs: parts.delay.optional().describe('Milliseconds between streamed chunks; default 0.'),
      usage: z
        .strictObject({
          inputTokens: z
            .number()
            .int()
            .min(0)
            .max(1e9)
            .optional()
            .describe("Default: the request's messages in characters / 4."),
          outputTokens: z.number().int().min(0).max(1e9).optional().describe('Default: the number of chunks.'),
        })
        .optional()
        .describe('The token counts reported.'),
      error: z
        .union([
          llmErrorType,
          z.strictObject({
            type: llmErrorType,
            message: z
              .string()
              .max(MAX_LLM_ERROR_MESSAGE_LENGTH)
              .optional()
              .describe("Default: the provider's wording."),
            retryAfter: z
              .number()
              .int()
              .min(0)
              .max(MAX_LLM_RETRY_AFTER)
              .optional()
              .describe('Seconds in retry-after (rate_limit, overloaded); default 1.'),
          }),
        ])
        .optional()
        .describe("Answer with this error, in the provider's error shape and headers."),
      end: z
        .enum(['close', 'reset'])
        .optional()
        .describe('close (default), or reset: the connection breaks halfway through the stream (or the body).'),
      model: z
        .string()
        .min(1)
        .max(MAX_LLM_MODEL_LENGTH)
        .optional()
        .describe("The model the answer names; default the request's model, else a current model of the provider."),
    })
    .meta({
      title: 'LlmAnswer',
      description: "Answer in an LLM provider's exact wire format, JSON or streamed (routes only; see docs/llm.md).",
    });
}

const llmSchemas = new WeakMap<RouteSchemaParts, z.ZodType>();

/** The llm schema built from these parts, built once. */
export function llmSchema(parts: RouteSchemaParts): z.ZodType {
  let schema = llmSchemas.get(parts);
  if (schema === undefined) {
    schema = createLlmSchema(parts);
    llmSchemas.set(parts, schema);
  }
  return schema;
}

export const llmKind = answerKind({
  key: 'llm',
  noun: 'an llm answer',
  code: 'INVALID_LLM',
  schema: llmSchema,
  describe:
    "Answer as OpenAI's, Anthropic's, Gemini's, Ollama's or Bedrock's API does (JSON, SSE, NDJSON or AWS event stream, tool calls, embeddings, errors); beside it only delay, headers, template (renders text) and setState.",
  fromJson: llmFromJson,
  beside: {
    fields: ['delay', 'latency', 'headers', 'template', 'setState'],
    says: "the provider's (with delay, headers, template and setState beside it)",
  },
  readsBody: true,
  routesOnly: true,
  checkOrder: 4,
  check(answer, { at, limits, template, refuseItem }) {
    refuseItem();
    checkLlm(answer.llm as NonNullable<typeof answer.llm>, {
      maxBodyBytes: limits.maxBodyBytes,
      maxStreamEvents: limits.maxStreamEvents ?? SETTINGS.maxStreamEvents.default,
      maxStreamMs: limits.maxStreamMs ?? SETTINGS.maxStreamMs.default,
      where: `routes[${at}].answer`,
      details: { index: at },
      template,
      delay: answer.delay ?? 0,
    });
  },
  forms: { wiremock: false, mockoon: false },
});
