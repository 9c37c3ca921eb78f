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

  it('never calls a request that fails a false subschema fitting (no error listed would let enforce answer it)', () => {
    const cases: [RouteValidation['body'], string][] = [
      [{ type: 'object', properties: { admin: false } }, '{"admin":true}'],
      [false, '{}'],
      [{ type: 'array', prefixItems: [{ type: 'integer' }], items: false }, '[1,2]'],
    ];
    for (const [body, sent] of cases) {
      const { errors } = new RequestValidator({ mode: 'enforce', body }).check(request({ body: sent }));
      expect(errors.length, `${JSON.stringify(body)} with ${sent}`).toBeGreaterThan(0);
      expect(errors[0]?.in).toBe('body');
    }
    const fine = new RequestValidator({ mode: 'enforce', body: { properties: { admin: false } } });
    expect(fine.check(request({ body: '{"name":"x"}' })).errors).toEqual([]);
  });

  it('reads a query, parameter or header as the type behind a $ref, in allOf/anyOf/oneOf (OpenAPI 3.1 nullable)', () => {
    const validator = new RequestValidator({
      mode: 'enforce',
      query: {
        $defs: { limit: { type: 'integer', maximum: 100 }, ids: { type: 'array', items: { $ref: '#/$defs/limit' } } },
        type: 'object',
        properties: {
          limit: { $ref: '#/$defs/limit' },
          offset: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          exact: { oneOf: [{ type: 'boolean' }] },
          ids: { $ref: '#/$defs/ids' },
        },
      },
      params: { allOf: [{ type: 'object', properties: { petId: { allOf: [{ type: 'integer' }] } } }] },
    });
    const sent = request({
      query: { limit: '10', offset: '5', exact: 'true', ids: ['1', '2'] },
      params: { petId: '7' },
    });
    expect(validator.check(sent).errors).toEqual([]);
    const wrong = validator.check(request({ query: { limit: '1000', ids: ['x'] }, params: { petId: 'seven' } }));
    expect(wrong.errors.map((error) => `${error.in} ${error.path}`).sort()).toEqual([
      'params /petId',
      'query /ids/0',
      'query /limit',
    ]);
  });
});
