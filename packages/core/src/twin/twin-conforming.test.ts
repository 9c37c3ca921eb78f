// A document's twin answers what its document allows, checked by the checker `pnpm sdk:openai`
// runs (verify/answer-conformance.ts): in OpenAPI 3.1 `nullable: true` is no keyword, so a field
// it marks is not written `null`; an `allOf` of a choice and `{ nullable: true }` is filled from
// the choice, not `{}`; an action the document declares with no content answers no body. A 3.0
// document's `nullable` still reads as `null`.
import { describe, expect, it } from 'vitest';
import { checkedTwin } from '../test-support/checked-twin.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const RUN = { $ref: '#/components/schemas/Run' };

function documentOf(openapi: string) {
  return {
    openapi,
    info: { title: 'Runs', version: '1' },
    paths: {
      '/runs': {
        post: {
          requestBody: json({ type: 'object', properties: { model: { type: 'string' } } }),
          responses: { '200': { description: 'a run', ...json(RUN) } },
        },
      },
      '/runs/{id}': { get: { parameters: [ID], responses: { '200': { description: 'a run', ...json(RUN) } } } },
      '/runs/{id}/accept': { post: { parameters: [ID], responses: { '200': { description: 'OK' } } } },
    },
    components: {
      schemas: {
        Run: {
          type: 'object',
          required: ['id', 'object', 'model', 'max_tokens', 'last_error', 'expires_at', 'tool_choice'],
          properties: {
            id: { type: 'string' },
            object: { type: 'string', enum: ['run'] },
            model: { type: 'string' },
            max_tokens: { type: 'integer', nullable: true, minimum: 256 },
            last_error: {
              type: 'object',
              nullable: true,
              required: ['code'],
              properties: { code: { type: 'string', enum: ['server_error'] } },
            },
            expires_at: { type: 'integer', nullable: true },
            tool_choice: { allOf: [{ $ref: '#/components/schemas/Choice' }, { nullable: true }] },
          },
        },
        Choice: {
          anyOf: [
            { type: 'string', enum: ['none', 'auto'] },
            { type: 'object', required: ['type'], properties: { type: { type: 'string' } } },
          ],
        },
      },
    },
  };
}

/** A twin of the document at `openapi`'s version, a run made in it, and each answer checked against it. */
async function runsTwin(openapi: string) {
  return checkedTwin(documentOf(openapi), 'runs');
}

describe("a document's twin answers as its document's version reads it", () => {
  it('3.1: writes no null where `nullable` marks a field, fills an allOf from its choice, no body where none is declared', async () => {
    const { send } = await runsTwin('3.1.0');
    const made = await send('POST', '/runs', { model: 'gpt' });
    expect(made.status).toBe(200);
    expect(made.findings).toEqual([]);
    const run = JSON.parse(made.text) as Record<string, unknown>;
    expect(run).toMatchObject({ object: 'run', model: 'gpt', max_tokens: 256, last_error: { code: 'server_error' } });
    expect(run.tool_choice).toBe('none');
    expect(typeof run.expires_at).toBe('number');
    const read = await send('GET', `/runs/${run.id as string}`);
    expect(read.status).toBe(200);
    expect(read.findings).toEqual([]);
    const accepted = await send('POST', `/runs/${run.id as string}/accept`);
    expect(accepted).toEqual({ status: 200, text: '', findings: [] });
  });

  it('3.0: a `nullable` field is null', async () => {
    const { send } = await runsTwin('3.0.3');
    const made = await send('POST', '/runs', { model: 'gpt' });
    expect(made.status).toBe(200);
    expect(made.findings).toEqual([]);
    expect(JSON.parse(made.text)).toMatchObject({ max_tokens: null, last_error: null, expires_at: null });
  });
});
