// An operation's request as route schemas: OpenAPI 3.0 / Swagger 2.0 schemas rewritten into
// JSON Schema 2020-12, parameters gathered into object schemas, and the result checked by the
// validator of a route of a real app.
import { createApp } from '@mockpoint/core';
import { describe, expect, it } from 'vitest';
import { requestValidation, toJsonSchema } from '../src/openapi/request-schemas.js';

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

  it('3.0: properties named like keywords (nullable, example, enum) are schemas, converted like any other', () => {
    const schema = {
      type: 'object',
      properties: {
        nullable: { type: 'boolean' },
        example: { type: 'string', nullable: true },
        enum: { type: 'string', enum: ['a'], nullable: true },
      },
    };
    expect(toJsonSchema(schema, true)).toEqual({
      type: 'object',
      properties: {
        nullable: { type: 'boolean' },
        example: { type: ['string', 'null'] },
        enum: { type: ['string', 'null'], enum: ['a', null] },
      },
    });
  });

  it('3.1: left as it is (already 2020-12), but for readOnly', () => {
    const schema = { type: ['string', 'null'], exclusiveMinimum: 0, nullable: true };
    expect(toJsonSchema(schema, false)).toEqual(schema);
  });
});

describe('requestValidation', () => {
  it('Swagger 2.0: the body parameter and typed query/path/header parameters; a route checks with them', async () => {
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
    // The same schemas on a route of an app: the request that fits is answered, the other refused.
    const app = createApp();
    const routes = [{ match: { method: 'POST', path: '/users/:user_id' }, validate, answer: { statusCode: 201 } }];
    const put = await app.request('/api/endpoints/api/routes', { method: 'PUT', body: JSON.stringify({ routes }) });
    expect(put.status, await put.text()).toBe(200);
    const fits = await app.request('/endpoint/api/users/7?limit=10', {
      method: 'POST',
      headers: { 'x-trace': 't', 'content-type': 'application/json' },
      body: '{"name":"Ann"}',
    });
    expect(fits.status).toBe(201);
    const wrong = await app.request('/endpoint/api/users/me?limit=99', { method: 'POST', body: '{}' });
    const { error } = (await wrong.json()) as { error: { details: { errors: { in: string; path: string }[] } } };
    expect(error.details.errors.map((each) => `${each.in} ${each.path}`)).toEqual([
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
