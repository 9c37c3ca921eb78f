import { describe, expect, it } from 'vitest';
import { MAX_VALIDATION_ERRORS, type RouteValidation } from '../../api/route-validation.js';
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

describe('RequestValidator on hostile requests and schemas: every check bounded', () => {
  const body = (schema: RouteValidation['body'], sent: unknown) =>
    new RequestValidator({ mode: 'enforce', body: schema }).check(request({ body: JSON.stringify(sent) })).errors;

  it('runs pattern and patternProperties by RE2: the ReDoS classic ^(a+)+$ answers at once, in a body and a query', () => {
    const hostile = `${'a'.repeat(31)}!`;
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    expect(body(schema, { s: hostile })).toEqual([
      { in: 'body', path: '/s', message: 'String does not match pattern.' },
    ]);
    expect(body(schema, { s: 'a'.repeat(100_000) })).toEqual([]);
    const query = new RequestValidator({ mode: 'report', query: schema });
    expect(query.check(request({ query: { s: hostile } })).errors).toMatchObject([{ in: 'query', path: '/s' }]);
    const names = { patternProperties: { '^(a+)+$': { type: 'integer' } } };
    expect(body(names, { [hostile]: 'x', aaa: 'y' })).toMatchObject([{ path: '/aaa' }]);
    // ECMAScript syntax as JSON Schema has it: \d, classes, \u{…}, named groups, unanchored search.
    const syntax = { items: { type: 'string', pattern: '(?<y>\\d{4})-[\\w.]+\\u{1F600}' } };
    expect(body(syntax, ['on 2024-a.b😀 ok'])).toEqual([]);
    expect(body(syntax, ['24-a😀'])).toHaveLength(1);
  });

  it('finds duplicates among 80,000 items (uniqueItems) by a structural hash: key order does not matter', () => {
    const items = Array.from({ length: 80_000 }, (_, i) => ({ id: i, tags: ['a', i % 7] }));
    items.push({ tags: ['a', 79_999 % 7], id: 79_999 } as (typeof items)[number]);
    expect(body({ uniqueItems: true }, items)).toEqual([
      { in: 'body', path: '', message: 'Duplicate items at indexes 79999 and 80000.' },
    ]);
    expect(body({ uniqueItems: true }, [1, '1', 1.5, [1], { a: 1 }])).toEqual([]);
    expect(body({ uniqueItems: true }, [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }])).toHaveLength(1);
  });

  it('checks items against a 20,000-object enum through a set; the message quotes the enum cut short', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => ({ code: i, name: `n${i}` }));
    const schema = { type: 'array', items: { enum: values } };
    expect(body(schema, [{ name: 'n7', code: 7 }, values[19_999]])).toEqual([]);
    const sent = Array.from({ length: 300 }, (_, i) => ({ code: -i, name: 'x' }));
    const validator = new RequestValidator({ mode: 'enforce', body: schema });
    const mark = validator.check(request({ body: JSON.stringify(sent) }));
    expect(mark.total).toBe(300);
    expect(mark.errors[0]).toMatchObject({ in: 'body', path: '/0' });
    expect(mark.errors[0]?.message.length).toBeLessThan(400);
    expect(body({ const: { a: [1, 2] } }, { a: [1, 2] })).toEqual([]);
    expect(body({ const: { a: [1, 2] } }, { a: [2, 1] })).toHaveLength(1);
  });

  it('answers a stored $ref cycle (saved before the check at save) with an error, never a stack overflow', () => {
    const cycles: RouteValidation['body'][] = [
      { $ref: '#' },
      { $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
    ];
    for (const schema of cycles) {
      const errors = body(schema, { x: 1 });
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message).toContain('(a $ref cycle that stays on one value?)');
    }
  });

  it('keeps a recursive tree schema working 300 levels deep (the validator before overflowed the stack there)', () => {
    const tree = {
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' }, n: { type: 'integer' } } } },
      $ref: '#/$defs/node',
    };
    let deep: Record<string, unknown> = { n: 0 };
    for (let i = 1; i < 300; i++) deep = { n: i, child: deep };
    expect(body(tree, deep)).toEqual([]);
    let bad: Record<string, unknown> = { n: 'x' };
    for (let i = 1; i < 300; i++) bad = { n: i, child: bad };
    expect(body(tree, bad)).toMatchObject([{ path: `${'/child'.repeat(299)}/n` }]);
  });

  it('stops a schema whose anyOf branches each recurse (exponential in the depth) at its step bound', () => {
    const branch = { type: 'object', properties: { c: { $ref: '#' } } };
    const schema = { anyOf: [branch, branch] };
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) deep = { c: deep };
    const errors = body(schema, deep);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^checking the request took more than [\d,]+ steps of the schema/);
    expect(body(schema, { c: { c: {} } })).toEqual([]);
  });

  it('charges a pattern by its RE2 program size times the text: a large program on a long text is stopped before it runs', () => {
    // 6,443 instructions: about 30 µs a character at idle (3 s for these 100,000), where ^[ab]+$ costs ~0.3 µs.
    const large = { type: 'string', pattern: '^(?:(?:a|b)(?:a|b|ab|ba){1,20}){1,40}$' };
    const errors = body(large, 'ab'.repeat(50_000));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^checking the request took more than [\d,]+ steps of the schema/);
    expect(body({ type: 'string', pattern: '^[ab]+$' }, 'ab'.repeat(50_000))).toEqual([]);
    expect(body(large, 'abab')).toEqual([]);
  });

  it('does not assert the url format, whose regular expression backtracks exponentially', () => {
    expect(body({ format: 'url' }, `http://${'a'.repeat(40)}_`)).toEqual([]);
    expect(body({ format: 'email' }, 'not an email')).toHaveLength(1);
  });
});
