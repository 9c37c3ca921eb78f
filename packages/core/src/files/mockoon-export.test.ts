import { describe, expect, it } from 'vitest';
import { mockoonMockFile } from './mockoon-environment.js';
import { mockoonEnvironment } from './mockoon-export.js';
import { parseMockFile } from './parse-mock-file.js';

const parse = (file: unknown) =>
  parseMockFile(JSON.stringify(file), { file: 'mock.json', format: 'json', maxBodyBytes: Infinity }).endpoints;

describe('mockoonEnvironment', () => {
  it('one endpoint: subpaths at the root; read back by the Mockoon importer as the same routes', () => {
    const endpoints = parse({
      version: 1,
      endpoints: [
        {
          name: 'api',
          routes: [
            { id: 'user', match: { method: 'GET', path: '/users/:id' }, answer: { data: { id: 1 } } },
            {
              id: 'search',
              match: { method: 'GET', path: '/search', query: { q: 'a' } },
              answer: { body: 'found', statusCode: 201, delay: 5 },
            },
          ],
        },
      ],
    });
    const exported = mockoonEnvironment(endpoints, 'api');
    expect(exported.skipped).toEqual([]);
    const environment = JSON.parse(exported.text);
    expect(environment.routes.map((route: { endpoint: string }) => route.endpoint)).toEqual(['users/:id', 'search']);
    expect(environment.routes[1].responseMode).toBe('FALLBACK');
    // The same text twice (deterministic UUIDs).
    expect(mockoonEnvironment(endpoints, 'api').text).toBe(exported.text);
    const back = parse(JSON.parse(mockoonMockFile(exported.text, { name: 'api' }).text));
    expect(back[0]?.routes).toEqual([
      expect.objectContaining({
        // Read back as Mockoon matches it: ignoring case and a trailing /, `:id` a named group.
        match: { method: 'GET', path: { matches: '(?i)/users/(?<id>[^/]+?)/?' } },
        answer: expect.objectContaining({ body: '{"id":1}' }),
      }),
      expect.objectContaining({
        // Read back as Mockoon matches it: ignoring case and a trailing /.
        match: { method: 'GET', path: { matches: '(?i)/search/?' }, query: { q: 'a' } },
        answer: expect.objectContaining({ body: 'found', statusCode: 201, delay: 5 }),
      }),
    ]);
    // Exported again, the import's regex paths are the Mockoon paths they came from.
    const again = mockoonEnvironment(back, 'api');
    expect(again.skipped).toEqual([]);
    expect(JSON.parse(again.text).routes.map((route: { endpoint: string }) => route.endpoint)).toEqual([
      'users/:id',
      'search',
    ]);
  });

  it('several endpoints: each path under <name>/, collections as data buckets; lists what it leaves out', () => {
    const endpoints = parse({
      version: 1,
      endpoints: [
        {
          name: 'a',
          data: { n: 1 },
          collections: { people: [{ id: 1 }], notes: [{ id: 1, text: '{{x}}' }] },
          routes: [
            { id: 'people', match: { path: '/people' }, answer: { resource: 'people' } },
            { id: 'notes', match: { path: '/notes' }, answer: { resource: 'notes' } },
            { id: 'any', answer: { body: 'x' } },
            { id: 'star', match: { path: '/files/*' }, answer: { body: 'x' } },
            { id: 'json', match: { path: '/j', body: { a: 1 } }, answer: { body: 'x' } },
            { id: 'dotted', match: { path: '/d', query: { 'a.b': '1' } }, answer: { body: 'x' } },
            { id: 'braces', match: { path: '/t', headers: { 'x-t': '{{now}}' } }, answer: { body: 'x' } },
          ],
        },
        { name: 'b', routes: [{ id: 'bin', match: { path: '/bin' }, answer: { bodyBase64: 'AAE=' } }] },
      ],
    });
    const exported = mockoonEnvironment(endpoints);
    const environment = JSON.parse(exported.text);
    expect(environment.routes.map((route: { type: string; endpoint: string }) => [route.type, route.endpoint])).toEqual(
      [
        ['crud', 'a/people'],
        ['http', 'a'],
      ],
    );
    expect(environment.data).toEqual([
      expect.objectContaining({ id: 'a-people', name: 'people', value: '[{"id":1}]' }),
    ]);
    expect(exported.skipped.map(({ what }) => what)).toEqual([
      'a collection notes',
      'a route notes',
      'a route any',
      'a route star',
      'a route json',
      'a route dotted',
      'a route braces',
      'b route bin',
    ]);
  });
});
