// A schema finding says once, in words, what is wrong, for each kind of error the validator reports: type, required,
// additionalProperties, enum, const, format, min/max, pattern, oneOf/anyOf — never the validator's own text.
import { describe, expect, it } from 'vitest';
import type { VerifyFinding } from '../api/verify-json.js';
import { readOpenApi } from './openapi-document.js';
import { readablePath } from './schema-words.js';
import { verifyRoutes } from './verify-routes.js';

const ITEM = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 99 },
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    kind: { enum: ['cat', 'dog'] },
    version: { const: 2 },
    born: { type: 'string', format: 'date' },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } },
    owner: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    size: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
    price: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
  },
};

const DOC = readOpenApi({
  openapi: '3.1.0',
  info: { title: 'Items', version: '1' },
  paths: {
    '/items': {
      get: {
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { Item: ITEM } },
});

async function findingsOf(item: unknown): Promise<VerifyFinding[]> {
  const routes = [{ id: 'r', match: { method: 'GET', path: '/items' }, answer: { data: { items: [item] } } }];
  const report = await verifyRoutes(DOC, [{ name: 'items', routes }]);
  return report.findings;
}

/** Each finding as `path: the sentence its message ends in`. */
async function said(item: unknown): Promise<string[]> {
  return (await findingsOf(item)).map(
    (f) => `${f.path}: ${f.message.slice(f.message.indexOf(`${f.path}: `) + f.path.length + 2)}`,
  );
}

const FINE = { id: 1, name: 'rex' };

describe('schema findings in words', () => {
  it('says an extra property under additionalProperties: false once, as not allowed', async () => {
    const findings = await findingsOf({ ...FINE, nickname: 'Rexy' });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'SCHEMA_MISMATCH',
      path: 'body/items/0/nickname',
      found: '"Rexy"',
      message:
        'GET /items (route r): SCHEMA_MISMATCH at body/items/0/nickname: items[0].nickname is not allowed by the schema',
    });
    expect(findings[0]?.message).not.toMatch(/boolean schema|additional properties schema/i);
  });

  it('says a wrong type as what the value is and what the schema wants', async () => {
    const [finding] = await findingsOf({ ...FINE, id: 'seven' });
    expect(finding).toMatchObject({ path: 'body/items/0/id', expected: 'an integer', found: '"seven"' });
    expect(finding?.message).toMatch(/: items\[0\]\.id is a string; the schema wants an integer$/);
  });

  it('says each common kind of error in words', async () => {
    expect(await said({ id: 1 })).toEqual(['body/items/0/name: items[0].name is missing; the schema requires it']);
    expect(
      await said({
        id: 0,
        name: 'R',
        kind: 'cow',
        version: 3,
        born: 'yesterday',
        tags: [],
        owner: true,
        size: 3,
        price: 0.3,
      }),
    ).toEqual([
      'body/items/0/id: items[0].id is 0; the schema wants at least 1',
      'body/items/0/name: items[0].name has 1 character; the schema wants at least 2 characters',
      'body/items/0/name: items[0].name is "R"; the schema wants a string matching the pattern "^[a-z]+$"',
      'body/items/0/kind: items[0].kind is "cow"; the schema wants one of ["cat","dog"]',
      'body/items/0/version: items[0].version is 3; the schema wants exactly 2',
      'body/items/0/born: items[0].born is "yesterday", not a date string',
      'body/items/0/tags: items[0].tags has 0 items; the schema wants at least 1 item',
      "body/items/0/owner: items[0].owner fits none of the schema's anyOf choices",
      "body/items/0/size: items[0].size fits 2 of the schema's oneOf choices; it wants exactly one",
      'body/items/0/price: items[0].price is 0.3; the schema wants a multiple of 0.5',
    ]);
    expect(await said({ id: 100, name: 'abcdefg', tags: ['a', 'b', 'c'], price: 0 })).toEqual([
      'body/items/0/id: items[0].id is 100; the schema wants at most 99',
      'body/items/0/name: items[0].name has 7 characters; the schema wants at most 5 characters',
      'body/items/0/tags: items[0].tags has 3 items; the schema wants at most 2 items',
      'body/items/0/price: items[0].price is 0; the schema wants more than 0',
    ]);
  });

  it('names paths as code reads them', () => {
    expect(readablePath('/items/0/id', 'the body', 'body')).toBe('items[0].id');
    expect(readablePath('/0/id', 'the body', 'body')).toBe('body[0].id');
    expect(readablePath('/a b/x~1y', 'the body', 'body')).toBe('body["a b"]["x/y"]');
    expect(readablePath('', 'the body', 'body')).toBe('the body');
  });
});
