// Reading mock files: `data` kept as its exact JSON text (big integers, -0,
// key order, escapes) from YAML and JSON, and errors that name the file, the
// line and column, and the path, with stable codes.
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { parseMockFile } from './parse-mock-file.js';

function dataOf(text: string, file = 'mockpoint.yaml', index = 0): string {
  const endpoint = parseMockFile(text, { file }).endpoints[index];
  return endpoint?.record?.data.text ?? 'absent';
}

function failure(text: string, options: Parameters<typeof parseMockFile>[1] = {}): MockpointError {
  try {
    parseMockFile(text, options);
  } catch (error) {
    if (error instanceof MockpointError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('data is kept exactly', () => {
  it('YAML block style: big integers, -0, 1.50, exponents and key order as written', () => {
    const text = [
      'version: 1',
      'endpoints:',
      '  - name: big',
      '    data:',
      '      z: 12345678901234567890123',
      '      "2": -0',
      '      a: [1.50, 1e400, -0.0, true, null, ~]',
      "      s: 'it''s'",
    ].join('\n');
    expect(dataOf(text)).toBe('{"z":12345678901234567890123,"2":-0,"a":[1.50,1e400,-0.0,true,null,null],"s":"it\'s"}');
  });

  it('YAML flow style written as JSON keeps its own text, escapes included', () => {
    const text =
      'version: 1\nendpoints:\n  - name: j\n    data: {"b": "caf\\u00e9 \\/ \\ud83d\\ude00", "a": [ 1 , 2 ]}\n';
    expect(dataOf(text)).toBe('{"b":"caf\\u00e9 \\/ \\ud83d\\ude00","a":[1,2]}');
  });

  it('a YAML number that JSON cannot hold is refused with its line, not changed', () => {
    const error = failure('version: 1\nendpoints:\n  - name: hex\n    data:\n      n: 0x1F\n');
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ line: 5, column: 10, path: 'endpoints[0].data', reason: 'INVALID_DATA' });
    expect(error.message).toMatch(/^mockpoint\.yaml:5:10: endpoints\[0\]\.data: 0x1F is not a JSON number/);
  });

  it('JSON files: every data kept as its exact text (records, routes and queued answers)', () => {
    const text = `{
      "version": 1,
      "endpoints": [
        { "name": "a", "data": { "id": 98765432109876543210, "z": -0, "e": "\\u00e9" } },
        { "name": "b", "routes": [ { "answer": { "data": [ 1.0, 2e-7 ] } } ],
          "queue": [ { "data": { "n": 123456789012345678901234567890 } } ] }
      ]
    }`;
    const [a, b] = parseMockFile(text, { file: 'mocks/mockpoint.json' }).endpoints;
    expect(a?.record?.data.text).toBe('{"id":98765432109876543210,"z":-0,"e":"\\u00e9"}');
    expect(b?.record).toBeUndefined();
    expect((b?.routes[0]?.answer.data as { text: string } | undefined)?.text).toBe('[1.0,2e-7]');
    expect((b?.queue[0]?.data as { text: string } | undefined)?.text).toBe('{"n":123456789012345678901234567890}');
  });

  it('an endpoint with only statusCode has data null; routes get stable ids by position', () => {
    const file = parseMockFile(
      'version: 1\nendpoints:\n  - name: s\n    statusCode: 204\n    routes:\n      - answer: {}\n      - id: route-2\n        answer: {}\n      - answer: {}\n',
    );
    const [s] = file.endpoints;
    expect(s?.record).toMatchObject({ statusCode: 204, delay: 0 });
    expect(s?.record?.data.text).toBe('null');
    expect(s?.routes.map((route) => route.id)).toEqual(['route-1', 'route-2', 'route-3']);
    expect(s?.queue).toEqual([]);
  });

  it('$file reads JSON text exactly through the reader it is given', () => {
    const read: string[] = [];
    const file = parseMockFile('version: 1\nendpoints:\n  - name: f\n    data: { $file: ./user.json }\n', {
      readFile: (ref) => {
        read.push(ref);
        return '{ "id": 12345678901234567890, "b": 1, "a": 2 }\n';
      },
    });
    expect(read).toEqual(['./user.json']);
    expect(file.endpoints[0]?.record?.data.text).toBe('{"id":12345678901234567890,"b":1,"a":2}');
  });
});

describe('errors name the file, line, column and path', () => {
  it('a bad field deep in a route', () => {
    const text = [
      'version: 1',
      'endpoints:',
      '  - name: ok',
      '  - name: gh',
      '    routes:',
      '      - answer: {}',
      '      - match:',
      '          path: /repos/:owner/:owner',
      '        answer: {}',
    ].join('\n');
    const error = failure(text, { file: 'mocks.yaml' });
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ file: 'mocks.yaml', line: 7, path: 'endpoints[1].routes[1]' });
    expect(error.details?.reason).toBe('INVALID_ROUTE_PATTERN');
    expect(error.message).toMatch(/^mocks\.yaml:7:\d+: endpoints\[1\]\.routes\[1\]: /);
  });

  it('a schema error points at the value at fault', () => {
    const error = failure('version: 1\nendpoints:\n  - name: a\n    statusCode: 99\n');
    expect(error.details).toMatchObject({
      line: 4,
      column: 17,
      path: 'endpoints[0].statusCode',
      reason: 'INVALID_STATUS_CODE',
    });
  });

  it('an unknown field and a missing version', () => {
    expect(failure('version: 1\nendpoints:\n  - name: a\n    colour: red\n').details).toMatchObject({
      line: 3,
      path: 'endpoints[0]',
      reason: 'UNKNOWN_FIELD',
    });
    expect(failure('endpoints: []\n').details).toMatchObject({ reason: 'INVALID_VERSION' });
    expect(failure('version: 2\nendpoints: []\n').details).toMatchObject({ path: 'version', line: 1 });
  });

  it('YAML syntax and duplicate keys are MOCK_FILE_SYNTAX with their line', () => {
    const syntax = failure('version: 1\nendpoints:\n  - name: a\n    data: [1, 2\n');
    expect(syntax.code).toBe('MOCK_FILE_SYNTAX');
    expect(syntax.message).toMatch(/^mockpoint\.yaml:\d+:\d+: /);
    const duplicate = failure('version: 1\nendpoints:\n  - name: a\n    data: 1\n    data: 2\n');
    expect(duplicate.code).toBe('MOCK_FILE_SYNTAX');
    expect(duplicate.details).toMatchObject({ line: 5 });
  });

  it('JSON syntax errors and duplicate keys inside data, with their line', () => {
    const error = failure(
      '{\n  "version": 1,\n  "endpoints": [\n    { "name": "a", "data": { "x": 1, "x": 2 } }\n  ]\n}',
      {
        file: 'm.json',
      },
    );
    expect(error.code).toBe('MOCK_FILE_SYNTAX');
    expect(error.details).toMatchObject({ file: 'm.json', line: 4 });
    expect(failure('{"version": 1,', { file: 'm.json' }).code).toBe('MOCK_FILE_SYNTAX');
  });

  it('a name defined twice, and a bad queued answer', () => {
    expect(failure('version: 1\nendpoints:\n  - name: a\n  - name: a\n').details).toMatchObject({
      line: 4,
      path: 'endpoints[1].name',
      reason: 'NAME_TAKEN',
    });
    const queue = failure(
      'version: 1\nendpoints:\n  - name: q\n    queue:\n      - {}\n      - { fault: reset, statusCode: 500 }\n',
    );
    expect(queue.details).toMatchObject({ line: 6, path: 'endpoints[0].queue[1]', reason: 'INVALID_BODY' });
  });

  it('$file without a reader (text not from disk) is refused', () => {
    expect(failure('version: 1\nendpoints:\n  - name: f\n    data: { $file: ./x.json }\n').details).toMatchObject({
      reason: 'INVALID_FILE_REFERENCE',
      path: 'endpoints[0].data.$file',
    });
  });
});

describe('answer headers follow the one header rule', () => {
  it.each([
    ['a route', '    routes:\n      - answer:\n          headers: { x-e: "\\u20acuro" }\n'],
    ['a route (a control character)', '    routes:\n      - answer:\n          headers: { x-e: "a\\u0001b" }\n'],
    ['a queued answer', '    queue:\n      - headers: { x-e: "\\u20acuro" }\n        body: b\n'],
    [
      'a streamed answer',
      '    routes:\n      - answer:\n          headers: { x-e: "\\u2028" }\n          stream: { format: ndjson, events: [{ data: 1 }] }\n',
    ],
  ])('refuses a value HTTP cannot carry in %s, as the API does', (_, yaml) => {
    const error = failure(`version: 1\nendpoints:\n  - name: h\n${yaml}`);
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ reason: 'INVALID_HEADER' });
  });
});
