import { describe, expect, it } from 'vitest';
import { isJsonServerDb, jsonServerMockFile } from './json-server-db.js';
import { parseMockFile } from './parse-mock-file.js';

describe('json-server databases', () => {
  it('tells a database from a mock file, an OpenAPI document and other JSON', () => {
    expect(isJsonServerDb('{"posts":[],"profile":{}}')).toBe(true);
    expect(isJsonServerDb('{"version":1,"endpoints":[]}')).toBe(false);
    expect(isJsonServerDb('{"openapi":"3.1.0","paths":{}}')).toBe(false);
    expect(isJsonServerDb('{"swagger":"2.0","paths":{}}')).toBe(false);
    expect(isJsonServerDb('{"posts":[],"count":1}')).toBe(false);
    expect(isJsonServerDb('{}')).toBe(false);
    expect(isJsonServerDb('[]')).toBe(false);
    expect(isJsonServerDb('not json')).toBe(false);
  });

  it('makes one endpoint: a resource route and an exact collection per array, a GET route per object', () => {
    const db =
      '{ "posts": [ {"id":1,"big":12345678901234567890,"price":1.50} ], "profile": {"name":"typicode"}, "n": 1 }';
    const made = jsonServerMockFile(db, { name: 'api' });
    expect(made).toMatchObject({ collections: ['posts'], singular: ['profile'] });
    expect(made.skipped).toEqual([
      { what: '"n"', why: 'neither an array nor an object (json-server serves no route for it)' },
    ]);
    const file = parseMockFile(made.text, { file: 'import.json', format: 'json', maxBodyBytes: Infinity });
    const [endpoint] = file.endpoints;
    expect(endpoint?.name).toBe('api');
    expect(endpoint?.collections?.get('posts')?.text).toBe('[{"id":1,"big":12345678901234567890,"price":1.50}]');
    expect(made.text).toContain('"answer":{"resource":"posts"}');
    expect(made.text).toContain('"match":{"method":"GET","path":"/profile"},"answer":{"data":{"name":"typicode"}}');
  });

  it('--id names the id field; names that cannot be a collection are refused with the way out', () => {
    expect(jsonServerMockFile('{"people":[]}', { name: 'api', idField: '_id' }).text).toContain(
      '"resource":{"collection":"people","idField":"_id"}',
    );
    expect(() => jsonServerMockFile('{"my posts":[]}', { name: 'api' })).toThrow(/rename it in a copy/);
    expect(() => jsonServerMockFile('[1]', { name: 'api', file: 'x.json' })).toThrow(
      /x.json: a json-server database is one JSON object/,
    );
  });
});
