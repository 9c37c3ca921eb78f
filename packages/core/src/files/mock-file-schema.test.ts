// The published JSON Schema of mock files is current, and it agrees with the
// checks the loader makes (a validator, not our own code, reads the examples).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { mockFileJsonSchema, mockFileJsonSchemaText } from './mock-file-schema.js';
import { parseMockFile } from './parse-mock-file.js';

const published = new URL('../../schema/mockpoint.schema.json', import.meta.url);

const good = {
  version: 1,
  endpoints: [
    { name: 'user', data: { id: 1 }, statusCode: 201, delay: 5 },
    {
      name: 'github',
      routes: [
        { match: { method: 'GET', path: '/repos/:owner/:repo' }, answer: { data: { ok: true } } },
        { id: 'fallback', answer: { statusCode: 404, body: 'no' } },
      ],
      queue: [{ statusCode: 503, times: 2 }],
    },
  ],
};

const bad: [string, unknown][] = [
  ['a version other than 1', { version: 2, endpoints: [] }],
  ['an unknown field', { version: 1, endpoints: [{ name: 'a', color: 'red' }] }],
  ['a bad name', { version: 1, endpoints: [{ name: 'a b' }] }],
  ['a status out of range', { version: 1, endpoints: [{ name: 'a', statusCode: 700 }] }],
  ['a route without an answer', { version: 1, endpoints: [{ name: 'a', routes: [{ match: {} }] }] }],
  [
    'an unknown match field',
    { version: 1, endpoints: [{ name: 'a', routes: [{ match: { verb: 'GET' }, answer: {} }] }] },
  ],
];

describe('mockpoint.schema.json', () => {
  it('is current (regenerate with `pnpm docs` after changing the API schemas)', () => {
    expect(readFileSync(published, 'utf8')).toBe(mockFileJsonSchemaText());
  });

  const validate = new Ajv2020({ strict: false }).compile(mockFileJsonSchema());

  it('accepts a file the loader accepts', () => {
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    expect(parseMockFile(JSON.stringify(good), { file: 'x.json' }).endpoints).toHaveLength(2);
  });

  it('accepts { $file } for data, body and bodyBase64, as the loader does (with a reader)', () => {
    const file = {
      version: 1,
      endpoints: [
        {
          name: 'files',
          data: { $file: 'user.json' },
          routes: [{ answer: { body: { $file: 'page.html' } } }, { answer: { bodyBase64: { $file: 'logo.png' } } }],
          queue: [{ body: { $file: 'page.html' } }, { bodyBase64: { $file: 'logo.png' } }],
        },
      ],
    };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const parsed = parseMockFile(JSON.stringify(file), { file: 'x.json', readFile: () => '{"id":1}' });
    expect(parsed.endpoints[0]?.routes[1]?.answer.bodyBase64).toBe(btoa('{"id":1}'));
    expect(validate({ version: 1, endpoints: [{ name: 'a', queue: [{ body: { $file: 'x', more: 1 } }] }] })).toBe(
      false,
    );
  });

  it.each(bad)('refuses %s, as the loader does', (_what, file) => {
    expect(validate(file)).toBe(false);
    expect(() => parseMockFile(JSON.stringify(file), { file: 'x.json' })).toThrow(
      expect.objectContaining({ code: 'MOCK_FILE_INVALID' }),
    );
  });
});
