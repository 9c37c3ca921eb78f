import { describe, expect, it } from 'vitest';
import { addedNames, withAdditions } from './twin-additions.js';

/** A document of one form `POST` requiring `coupon`, and one `GET` with a query parameter. */
function documentOf(): Record<string, unknown> {
  const form = (schema: unknown) => ({ content: { 'application/x-www-form-urlencoded': { schema } } });
  return {
    paths: {
      '/v1/promotion_codes': {
        post: {
          requestBody: form({
            type: 'object',
            properties: { coupon: {} },
            required: ['coupon'],
            additionalProperties: false,
          }),
        },
        get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }] },
      },
      '/v1/balance': { post: {} },
    },
  };
}

describe('withAdditions', () => {
  it('adds body properties to a POST and query parameters to a GET, each listed as added', () => {
    const doc = documentOf();
    withAdditions(doc, {
      'POST /v1/promotion_codes': { added: ['promotion'], optional: ['coupon'] },
      'GET /v1/promotion_codes': { added: ['customer_account'] },
      'POST /v1/balance': { added: ['mode'] },
      'POST /v1/nowhere': { added: ['x'] },
    });
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    const post = paths['/v1/promotion_codes']?.post as Record<string, unknown>;
    expect(post.requestBody).toEqual({
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: { coupon: {}, promotion: {} },
            required: [],
            additionalProperties: false,
          },
        },
      },
    });
    expect(addedNames(post)).toEqual(['promotion']);
    const get = paths['/v1/promotion_codes']?.get as Record<string, unknown>;
    expect(get.parameters).toEqual([
      { name: 'limit', in: 'query', schema: { type: 'integer' } },
      { name: 'customer_account', in: 'query', required: false, schema: {} },
    ]);
    // An operation without a body gets one holding the added names alone.
    const balance = paths['/v1/balance']?.post as Record<string, unknown>;
    expect(addedNames(balance)).toEqual(['mode']);
    expect(JSON.stringify(balance.requestBody)).toContain('"mode":{}');
    expect(Object.keys(doc.paths as object)).toEqual(['/v1/promotion_codes', '/v1/balance']);
  });

  it("adds to a file upload's multipart body, making no form body beside it", () => {
    const schema = { type: 'object', properties: { file: {} } };
    const doc = {
      paths: { '/v1/files': { post: { requestBody: { content: { 'multipart/form-data': { schema } } } } } },
    };
    withAdditions(doc, { 'POST /v1/files': { added: ['file_link_data'] } });
    expect(doc.paths['/v1/files'].post.requestBody).toEqual({
      content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: {}, file_link_data: {} } } } },
    });
  });

  it('leaves a document without additions as it was', () => {
    const doc = documentOf();
    withAdditions(doc, undefined);
    expect(doc).toEqual(documentOf());
    expect(addedNames({})).toEqual([]);
  });
});
