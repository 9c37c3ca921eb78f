import { describe, expect, it } from 'vitest';
import { AnswerConformance, type SentAnswer } from './answer-conformance.js';
import { readOpenApi } from './openapi-document.js';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes/{id}': {
      get: {
        responses: {
          '200': {
            description: 'one',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'object', 'created_at'],
                  properties: { id: { type: 'string' }, object: { const: 'note' }, created_at: { type: 'integer' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

function answer(path: string, status: number, body: unknown): SentAnswer {
  return { method: 'GET', path, status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

describe('AnswerConformance', () => {
  const check = new AnswerConformance(readOpenApi(DOC));

  it('passes an answer that fits its operation’s schema for its status', () => {
    expect(check.check(answer('/notes/n1', 200, { id: 'n1', object: 'note', created_at: 1 }))).toEqual([]);
  });

  it('lists what breaks it: the operation, the JSON path and the rule', () => {
    const found = check.check(answer('/notes/n1?x=1', 200, { id: 'n1', object: 'list', created_at: '2026-01-01' }));
    expect(found.map((f) => [f.operation, f.code, f.path])).toEqual([
      ['GET /notes/{id}', 'SCHEMA_MISMATCH', 'body/object'],
      ['GET /notes/{id}', 'SCHEMA_MISMATCH', 'body/created_at'],
    ]);
  });

  it('holds a success to the document, a refusal it says nothing of to nothing', () => {
    expect(check.check(answer('/notes/n1', 201, {}))[0]?.code).toBe('UNDECLARED_STATUS');
    expect(check.check(answer('/elsewhere', 200, {}))[0]?.code).toBe('UNKNOWN_OPERATION');
    expect(check.check(answer('/notes/n1', 404, { message: 'no' }))).toEqual([]);
    expect(check.check(answer('/elsewhere', 404, { message: 'no' }))).toEqual([]);
    expect(check.checked).toBe(6);
  });
});
