import { describe, expect, it } from 'vitest';
import { MockpointError } from '../registry/errors.js';
import { isPact, pactMockFile } from './pact-mock-file.js';

/** The routes of the one endpoint a Pact file makes. */
function routes(text: string, name?: string) {
  const imported = pactMockFile(text, name === undefined ? {} : { name });
  return { ...imported, routes: JSON.parse(imported.text).endpoints[0].routes };
}

const V2 = JSON.stringify({
  consumer: { name: 'web' },
  provider: { name: 'users-api' },
  interactions: [
    {
      description: 'a user',
      providerState: 'user 1 exists',
      request: {
        method: 'get',
        path: '/users/1',
        query: 'fields=name&fields=tags',
        headers: { Accept: 'application/json' },
      },
      response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { id: 1, name: 'Ada' } },
    },
    {
      description: 'a greeting',
      request: { method: 'POST', path: '/greet', body: { to: 'Ada' }, headers: { 'Content-Type': 'application/json' } },
      response: { status: 201, headers: { 'Content-Type': 'text/plain' }, body: 'hello Ada' },
    },
  ],
  metadata: { pactSpecification: { version: '2.0.0' } },
});

describe('pactMockFile', () => {
  it('makes a V2 file a route per interaction, named after the provider', () => {
    const imported = routes(V2);
    expect(imported).toMatchObject({
      name: 'users-api',
      consumer: 'web',
      specification: '2.0.0',
      interactions: 2,
      leftOut: [],
    });
    expect(imported.routes).toEqual([
      {
        id: 'a-user',
        match: { method: 'GET', path: '/users/1', query: { fields: ['name', 'tags'] } },
        answer: { statusCode: 200, headers: { 'content-type': 'application/json' }, data: { id: 1, name: 'Ada' } },
      },
      {
        id: 'a-greeting',
        match: { method: 'POST', path: '/greet', body: { to: 'Ada' } },
        answer: { statusCode: 201, headers: { 'content-type': 'text/plain' }, body: 'hello Ada' },
      },
    ]);
    expect(isPact(V2)).toBe(true);
    expect(isPact('{"log":{"entries":[]}}')).toBe(false);
  });

  it('reads V4 bodies (JSON exact, text, base64) and says what it left out', () => {
    const v4 = `{"consumer":{"name":"web"},"provider":{"name":"api"},"metadata":{"pactSpecification":{"version":"4.0"}},"interactions":[
      {"type":"Synchronous/HTTP","description":"big","request":{"method":"GET","path":"/n","query":{"q":["a b"]}},
       "response":{"status":200,"body":{"content":{"n":12345678901234567890,"p":1.50},"contentType":"application/json","encoded":false}}},
      {"type":"Synchronous/HTTP","description":"logo","request":{"method":"GET","path":"/logo.png"},
       "response":{"status":200,"headers":{"x-a":["1","2"]},"body":{"content":"//4=","contentType":"image/png","encoded":"base64"}}},
      {"type":"Synchronous/HTTP","description":"big again","providerStates":[{"name":"other"}],"request":{"method":"GET","path":"/n","query":{"q":["a b"]}},"response":{"status":404}},
      {"type":"Asynchronous/Messages","description":"an event","contents":{}},
      {"type":"Synchronous/HTTP","description":"upload","request":{"method":"PUT","path":"/f","body":{"content":"AA==","encoded":"base64"}},"response":{"status":204}},
      {"type":"Synchronous/HTTP","description":"ruled","request":{"method":"GET","path":"/users/7","matchingRules":{"path":{"matchers":[{"match":"regex","regex":"/users/\\\\d+"}]}}},"response":{"status":301}}
    ]}`;
    const imported = pactMockFile(v4, { name: 'copy' });
    // Numbers exact as written (big integers, 1.50), where JSON.parse would round them.
    expect(imported.text).toContain('"n": 12345678901234567890,');
    expect(imported.text).toContain('"p": 1.50');
    const made = JSON.parse(imported.text).endpoints[0];
    expect(made.name).toBe('copy');
    expect(made.routes.map((route: { id: string }) => route.id)).toEqual(['big', 'logo', 'ruled']);
    expect(made.routes[0].match).toEqual({ method: 'GET', path: '/n', query: { q: 'a b' } });
    expect(made.routes[1].answer).toEqual({
      statusCode: 200,
      headers: { 'x-a': ['1', '2'], 'content-type': 'image/png' },
      bodyBase64: '//4=',
    });
    expect(imported.leftOut).toEqual([
      {
        what: 'interaction "big again"',
        why: 'the same request as interaction "big": a route answers it in every provider state',
      },
      { what: 'interaction "an event"', why: 'a Asynchronous/Messages interaction, not HTTP' },
      { what: 'interaction "upload"', why: 'its request body is bytes, which a route cannot match exactly' },
      { what: 'interaction "ruled"\'s request matching rules', why: 'the route matches the example values exactly' },
    ]);
  });

  it('refuses what is no Pact file with INVALID_PACT', () => {
    const refused = (text: string) => {
      try {
        pactMockFile(text, { file: 'p.json' });
      } catch (error) {
        expect(error).toBeInstanceOf(MockpointError);
        expect((error as MockpointError).code).toBe('INVALID_PACT');
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused('{')).toMatch(/^p\.json: not JSON/);
    expect(refused('{"consumer":{},"provider":{}}')).toContain('it has no interactions list');
    expect(refused('{"consumer":{"name":"a"},"provider":{"name":"b"},"messages":[]}')).toContain('a message pact');
    expect(refused('{"consumer":{"name":"a"},"provider":{"name":"users api"},"interactions":[]}')).toContain(
      'is no endpoint name: give one with --name',
    );
  });
});
