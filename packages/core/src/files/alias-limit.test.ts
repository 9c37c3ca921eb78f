// YAML aliases are resolved by our own walk (exact-yaml.ts keeps numbers and
// key order), so the walk itself bounds what aliases expand to: a
// billion-laughs document is refused at once, naming the file and the alias,
// and the text aliases resolve to is bounded too.
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { MAX_ALIAS_NODES, MAX_ALIAS_TEXT } from './alias-budget.js';
import { parseMockFile } from './parse-mock-file.js';

function failure(text: string): MockpointError {
  try {
    parseMockFile(text, { file: 'pr/mockpoint.yaml' });
  } catch (error) {
    if (error instanceof MockpointError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

/** The classic billion laughs: nine levels of nine aliases (9^9 "lol"s) under `at`. */
function laughs(indent: string): string[] {
  const levels = 'abcdefghi';
  const lines = [`${indent}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  for (let i = 1; i < levels.length; i++) {
    const [p, c] = [levels[i - 1], levels[i]];
    lines.push(`${indent}${c}: &${c} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`);
  }
  return lines;
}

describe('alias expansion is bounded', () => {
  it('a billion laughs in data is refused with MOCK_FILE_ALIAS_LIMIT, naming the file and the alias', () => {
    const text = ['version: 1', 'endpoints:', '  - name: bomb', '    data:', ...laughs('      ')].join('\n');
    expect(text.length).toBeLessThan(500);
    const error = failure(text);
    expect(error.code).toBe('MOCK_FILE_ALIAS_LIMIT');
    expect(error.details).toMatchObject({ file: 'pr/mockpoint.yaml', path: 'endpoints[0].data' });
    expect(error.details?.alias).toMatch(/^[a-i]$/);
    expect(error.message).toMatch(
      new RegExp(`^pr/mockpoint\\.yaml:\\d+:\\d+: endpoints\\[0\\]\\.data: the alias \\*[a-i] .*${MAX_ALIAS_NODES}`),
    );
  });

  it('a billion laughs outside data (any field of the file) is refused the same way', () => {
    const text = [
      'version: 1',
      'x-laughs:',
      ...laughs('  '),
      'endpoints:',
      '  - name: bomb',
      '    routes:',
      '      - answer: { headers: *i }',
    ].join('\n');
    expect(failure(text).code).toBe('MOCK_FILE_ALIAS_LIMIT');
  });

  it('few aliases of a big JSON text: the resolved size is bounded as well', () => {
    const big = `"${'x'.repeat(64 * 1024)}"`;
    const count = Math.ceil(MAX_ALIAS_TEXT / (64 * 1024)) + 1;
    const text = [
      'version: 1',
      'endpoints:',
      '  - name: wide',
      `    statusCode: 200`,
      `    data: { "big": &big ${big}, "copies": [${Array(count).fill('*big').join(',')}] }`,
    ].join('\n');
    const error = failure(text);
    expect(error.code).toBe('MOCK_FILE_ALIAS_LIMIT');
    expect(error.details).toMatchObject({ alias: 'big' });
    expect(error.message).toMatch(/the alias \*big resolves to more than/);
  });

  it('an alias inside the node it names (a cycle) is refused, not followed until the stack overflows', () => {
    const error = failure('version: 1\nendpoints:\n  - name: loop\n    data: &self { next: *self }\n');
    expect(error.code).toBe('MOCK_FILE_ALIAS_LIMIT');
    expect(error.details).toMatchObject({ alias: 'self', line: 4, path: 'endpoints[0].data' });
    expect(error.message).toMatch(/the alias \*self is inside the node it names/);
  });

  it('ordinary reuse is unchanged: an anchored answer shared by routes, a data value repeated', () => {
    const file = parseMockFile(
      [
        'version: 1',
        'endpoints:',
        '  - name: shared',
        '    data: &user { id: 12345678901234567890, tags: [a, b] }',
        '    routes:',
        '      - answer: &ok { statusCode: 200, data: *user }',
        '      - answer: *ok',
        '  - name: again',
        '    data: *user',
      ].join('\n'),
    );
    expect(file.endpoints.map((endpoint) => endpoint.record?.data.text)).toEqual([
      '{"id":12345678901234567890,"tags":["a","b"]}',
      '{"id":12345678901234567890,"tags":["a","b"]}',
    ]);
    expect(file.endpoints[0]?.routes.map((route) => (route.answer.data as { text: string }).text)).toEqual([
      '{"id":12345678901234567890,"tags":["a","b"]}',
      '{"id":12345678901234567890,"tags":["a","b"]}',
    ]);
  });
});
