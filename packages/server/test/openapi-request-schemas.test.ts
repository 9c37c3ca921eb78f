// An operation's request as route schemas: OpenAPI 3.0 / Swagger 2.0 schemas rewritten into
// JSON Schema 2020-12, parameters gathered into object schemas, and the result checked by the
// same validator the routes use.
import { RequestValidator } from '@mockpoint/core/internal';
import { describe, expect, it } from 'vitest';
import { requestValidation, toJsonSchema } from '../src/openapi/request-schemas.js';

const encoder = new TextEncoder();

describe('toJsonSchema', () => {
  it('3.0: nullable adds null to type and enum; boolean exclusive bounds become numbers; readOnly is not required', () => {
    const schema = {
      type: 'object',
      required: ['id', 'name', 'size'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string', nullable: true, example: 'x' },
        kind: { type: 'string', enum: ['a', 'b'], nullable: true },
        size: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
      },
    };
    expect(toJsonSchema(schema, true)).toEqual({
      type: 'object',
      required: ['name', 'size'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: ['string', 'null'], example: 'x' },
        kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
        size: { type: 'number', exclusiveMinimum: 0, maximum: 10 },
      },
    });
  });

  it('3.1: left as it is (already 2020-12), but for readOnly', () => {
    const schema = { type: ['string', 'null'], exclusiveMinimum: 0, nullable: true };
    expect(toJsonSchema(schema, false)).toEqual(schema);
  });
});

describe('requestValidation', () => {
  it('Swagger 2.0: the body parameter and typed query/path/header parameters; the validator reads them', () => {
    const item = { parameters: [{ name: 'user-id', in: 'path', required: true, type: 'integer' }] };
    const operation = {
      parameters: [
        { name: 'limit', in: 'query', required: true, type: 'integer', maximum: 50 },
        { name: 'X-Trace', in: 'header', required: true, type: 'string' },
        { name: 'Accept', in: 'header', required: true, type: 'string' },
        { name: 'filter', in: 'query', type: 'object' },
        { name: 'user', in: 'body', required: true, schema: { type: 'object', required: ['name'] } },
      ],
    };
    const validate = requestValidation(item, operation, { mode: 'enforce', swagger2: true, draft4: true });
    expect(validate).toEqual({
      mode: 'enforce',
      body: { type: 'object', required: ['name'] },
      bodyRequired: true,
      query: { type: 'object', properties: { limit: { type: 'integer', maximum: 50 } }, required: ['limit'] },
      params: { type: 'object', properties: { user_id: { type: 'integer' } }, required: ['user_id'] },
      headers: { type: 'object', properties: { 'x-trace': { type: 'string' } }, required: ['x-trace'] },
    });
    const validator = new RequestValidator(validate as NonNullable<typeof validate>);
    const fits = validator.check({
      query: { limit: '10' },
      headers: { 'x-trace': 't' },
      params: { user_id: '7' },
      body: encoder.encode('{"name":"Ann"}'),
    });
    expect(fits.errors).toEqual([]);
    const wrong = validator.check({
      query: { limit: '99' },
      headers: {},
      params: { user_id: 'me' },
      body: encoder.encode('{}'),
    });
    expect(wrong.errors.map((error) => `${error.in} ${error.path}`)).toEqual([
      'params /user_id',
      'query /limit',
      'headers ',
      'body ',
    ]);
  });

  it('nothing to check: no validate', () => {
    expect(
      requestValidation({}, { responses: {} }, { mode: 'report', swagger2: false, draft4: false }),
    ).toBeUndefined();
  });
});
