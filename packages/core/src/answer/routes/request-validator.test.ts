import { describe, expect, it } from 'vitest';
import { MAX_VALIDATION_ERRORS, type RouteValidation } from '../../wire/route-validation.js';
import { RequestValidator, type ValidatedRequest } from './request-validator.js';

const encoder = new TextEncoder();

function request(parts: Partial<Omit<ValidatedRequest, 'body'>> & { body?: string | Uint8Array }): ValidatedRequest {
  const { body = '', ...rest } = parts;
  return {
    query: {},
    headers: {},
    params: {},
    ...rest,
    body: typeof body === 'string' ? encoder.encode(body) : body,
  };
}

const pet: RouteValidation = {
  mode: 'report',
  body: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', minLength: 1 }, tag: { type: ['string', 'null'] } },
  },
  bodyRequired: true,
  query: {
    type: 'object',
    required: ['limit'],
    properties: { limit: { type: 'integer', maximum: 100 }, ids: { type: 'array', items: { type: 'integer' } } },
  },
  params: { type: 'object', properties: { petId: { type: 'integer' } } },
  headers: { type: 'object', required: ['x-request-id'], properties: { 'x-flags': { type: 'array' } } },
};

const fits = request({
  query: { limit: '10', ids: ['1', '2'] },
  params: { petId: '7' },
  headers: { 'x-request-id': 'abc', 'content-type': 'application/json' },
  body: '{"name":"Rex","tag":null}',
});

describe('RequestValidator', () => {
  it('passes a request that fits, reading query, params and headers as the types their schemas name', () => {
    expect(new RequestValidator(pet).check(fits)).toEqual({ errors: [] });
  });

  it('names each part that does not fit, with a JSON Pointer into it', () => {
    const mark = new RequestValidator(pet).check(
      request({
        query: { limit: 'ten', ids: ['1', 'x'] },
        params: { petId: 'seven' },
        headers: {},
        body: '{"tag":5}',
      }),
    );
    const where = mark.errors.map((error) => `${error.in} ${error.path}`);
    expect(where).toEqual(['params /petId', 'query /limit', 'query /ids/1', 'headers ', 'body ', 'body /tag']);
    expect(mark.errors.find((error) => error.in === 'body' && error.path === '')?.message).toContain('name');
  });

  it('requires a body only with bodyRequired, and says when it is not JSON', () => {
    const validator = new RequestValidator({ mode: 'enforce', body: { type: 'object' }, bodyRequired: true });
    expect(validator.check(request({ body: '' })).errors).toEqual([
      { in: 'body', path: '', message: 'a body is required' },
    ]);
    expect(new RequestValidator({ mode: 'report', body: { type: 'object' } }).check(request({})).errors).toEqual([]);
    expect(validator.check(request({ body: '{oops' })).errors[0]?.message).toBe('the body is not JSON');
    // A body sent as another type is not held to the JSON schema, unless it is JSON all the same.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(validator.check(request({ body: 'a=1', headers: form })).errors).toEqual([]);
    expect(validator.check(request({ body: '[1]', headers: form })).errors).toMatchObject([{ in: 'body', path: '' }]);
    // Only the journal's first bytes, not the whole body: it cannot be checked.
    expect(validator.check({ ...request({}), body: undefined }).errors[0]?.message).toContain('body limit');
  });

  it('lists at most MAX_VALIDATION_ERRORS and counts the rest', () => {
    const properties = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'integer' }]));
    const validator = new RequestValidator({ mode: 'report', body: { type: 'object', properties } });
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, 'x'])));
    const mark = validator.check(request({ body }));
    expect(mark.errors).toHaveLength(MAX_VALIDATION_ERRORS);
    expect(mark.total).toBe(30);
  });

  it('reports one error for an anyOf, not one per branch; $ref within the schema resolves', () => {
    const validator = new RequestValidator({
      mode: 'report',
      body: {
        $defs: { id: { type: 'integer' } },
        anyOf: [{ $ref: '#/$defs/id' }, { type: 'string', format: 'uuid' }],
      },
    });
    expect(validator.check(request({ body: '12' })).errors).toEqual([]);
    const errors = validator.check(request({ body: 'true' })).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ in: 'body', path: '' });
  });

  it('reports a schema that cannot be used (a $ref to nothing) on each request, not by throwing', () => {
    const validator = new RequestValidator({ mode: 'enforce', query: { $ref: '#/nowhere' } });
    const [error] = validator.check(request({})).errors;
    expect(error?.message).toMatch(/^the route's schema cannot be used: /);
  });
});
