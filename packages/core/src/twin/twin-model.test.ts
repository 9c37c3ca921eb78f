// A path parameter the document marks `x-multi-segment` (GitHub's contents `path`, a git `ref`)
// takes one or more segments, `/` kept; an operation whose segments match one for one wins over it.
import { describe, expect, it } from 'vitest';
import { TwinModel } from './twin-model.js';
import { checkProfile } from './twin-profile.js';

const ref = { name: 'ref', in: 'path', required: true, schema: { type: 'string' }, 'x-multi-segment': true };
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Git', version: '1' },
  components: { parameters: { ref } },
  paths: {
    '/git/ref/{ref}': { get: { parameters: [{ $ref: '#/components/parameters/ref' }], responses: {} } },
    '/commits/{ref}': { parameters: [ref], get: { responses: {} } },
    '/commits/{ref}/status': { get: { parameters: [ref], responses: {} } },
    '/tags/{tag}': { get: { responses: {} } },
  },
};

describe('x-multi-segment path parameters', () => {
  const model = new TwinModel(DOCUMENT, checkProfile({ name: 'git' }));
  const matched = (path: string) => {
    const found = model.match('GET', path);
    return found === undefined ? undefined : [found.op.template, found.values];
  };

  it('take the rest of the path, `/` kept, decoded once', () => {
    expect(matched('/git/ref/heads/feature/a')).toEqual(['/git/ref/{ref}', { ref: 'heads/feature/a' }]);
    expect(matched('/git/ref/heads%2Ffeature')).toEqual(['/git/ref/{ref}', { ref: 'heads/feature' }]);
    expect(matched('/git/ref/heads/a%252Fb')).toEqual(['/git/ref/{ref}', { ref: 'heads/a%2Fb' }]);
    // Declared on the path item: in the middle, the segments after it still fixed.
    expect(matched('/commits/heads/main')).toEqual(['/commits/{ref}', { ref: 'heads/main' }]);
    expect(matched('/commits/heads/main/status')).toEqual(['/commits/{ref}/status', { ref: 'heads/main' }]);
  });

  it('take no empty segment, and other parameters stay one segment', () => {
    expect(matched('/git/ref/heads//a')).toBeUndefined();
    expect(matched('/git/ref/heads/')).toBeUndefined();
    expect(matched('/tags/a/b')).toBeUndefined();
    expect(matched('/tags/a')).toEqual(['/tags/{tag}', { tag: 'a' }]);
  });
});

describe('paths keyed with a query', () => {
  const answer = { responses: {} };
  const model = new TwinModel(
    {
      openapi: '3.1.0',
      info: { title: 'Keyed', version: '1' },
      paths: {
        '/responses': { post: { ...answer, operationId: 'create' } },
        '/responses/{id}': { get: { ...answer, operationId: 'read' } },
        '/responses?beta=true': { post: { ...answer, operationId: 'beta_create' } },
        '/responses/{id}?beta=true&v=2': { get: { ...answer, operationId: 'beta_read' } },
      },
    },
    checkProfile({ name: 'keyed' }),
  );
  const picked = (method: string, path: string, query?: string) => {
    const found = model.match(method, path, query);
    return found === undefined ? undefined : [found.op.operation.operationId, found.op.action, found.values];
  };

  it("answer a request whose query holds theirs, before the plain path, in the plain path's collection", () => {
    expect(picked('POST', '/responses', 'beta=true')).toEqual(['beta_create', 'create', {}]);
    expect(picked('POST', '/responses', 'stream=false&beta=true')).toEqual(['beta_create', 'create', {}]);
    expect(picked('GET', '/responses/r1', 'v=2&beta=true')).toEqual(['beta_read', 'read', { id: 'r1' }]);
    expect(model.resources.map((resource) => resource.template)).toEqual(['/responses']);
  });

  it('leave every other request to the plain path', () => {
    expect(picked('POST', '/responses')).toEqual(['create', 'create', {}]);
    expect(picked('POST', '/responses', 'beta=false')).toEqual(['create', 'create', {}]);
    expect(picked('GET', '/responses/r1', 'beta=true')).toEqual(['read', 'read', { id: 'r1' }]);
  });
});

describe('path parameters limited to a list', () => {
  const product = {
    name: 'product',
    in: 'path',
    required: true,
    schema: { type: 'string', enum: ['graph', 'alerts'] },
  };
  const model = new TwinModel(
    {
      openapi: '3.0.3',
      info: { title: 'Products', version: '1' },
      paths: {
        '/orgs/{org}/{product}': { parameters: [product], post: { responses: {} } },
        '/kinds/{kind}': {
          get: {
            parameters: [{ name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: ['a'] } }],
            responses: {},
          },
        },
        '/free/{name}': {
          get: { parameters: [{ name: 'name', in: 'path', schema: { type: 'string' } }], responses: {} },
        },
      },
    },
    checkProfile({ name: 'products' }),
  );

  it('match a value the list holds, and no other', () => {
    expect(model.match('POST', '/orgs/o/graph')?.values).toEqual({ org: 'o', product: 'graph' });
    expect(model.match('POST', '/orgs/o/secrets')).toBeUndefined();
    // Compared as decoded, case and all.
    expect(model.match('POST', '/orgs/o/Graph')).toBeUndefined();
    expect(model.match('POST', '/orgs/o/%61lerts')?.values).toEqual({ org: 'o', product: 'alerts' });
    expect(model.match('GET', '/kinds/a')?.op.template).toBe('/kinds/{kind}');
    expect(model.match('GET', '/kinds/b')).toBeUndefined();
    expect(model.hasPath('/kinds/b')).toBe(false);
    // A parameter with no list takes any value.
    expect(model.match('GET', '/free/anything')?.values).toEqual({ name: 'anything' });
  });
});
