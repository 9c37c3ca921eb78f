import { describe, expect, it } from 'vitest';
import { readParams } from './twin-body.js';
import type { Schema } from './twin-example.js';
import { markOpenEnums } from './twin-open-enums.js';

/** A document of one operation whose JSON body has `properties`, its schemas under `components`. */
function documentOf(properties: Schema, components: Schema = {}): { doc: Schema; operation: Schema } {
  const operation: Schema = {
    requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } },
  };
  return { doc: { paths: { '/x': { post: operation } }, components: { schemas: components } }, operation };
}

function send(doc: Schema, operation: Schema, body: unknown) {
  return readParams(doc, operation, { query: '', body: JSON.stringify(body), contentType: 'application/json' }, false);
}

describe('request values held to the document', () => {
  it("reads an option that is itself an untyped union by its own options (OpenAI's voice)", () => {
    const { doc, operation } = documentOf(
      {
        voice: {
          anyOf: [
            { $ref: '#/components/schemas/Voices' },
            { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          ],
        },
      },
      { Voices: { anyOf: [{ type: 'string' }, { type: 'string', enum: ['alloy', 'ash'] }] } },
    );
    const alloy = send(doc, operation, { voice: 'alloy' });
    expect(alloy).toEqual({ body: { voice: 'alloy' }, query: {} });
    expect(send(doc, operation, { voice: { id: 'voice_1234' } })).toEqual({
      body: { voice: { id: 'voice_1234' } },
      query: {},
    });
  });

  it('holds back a value its schema refuses, with the values as sent, for the provider to refuse first', () => {
    const { doc, operation } = documentOf({ state: { type: 'string', enum: ['open', 'closed'] } });
    const read = send(doc, operation, { state: 'everything' });
    expect(read.body).toEqual({ state: 'everything' });
    expect(read.problem).toMatchObject({ param: 'state', keyword: 'enum' });
  });

  it('takes a value outside an enum the document marks open, and still refuses one outside a closed enum', () => {
    const { doc, operation } = documentOf({
      enabled_events: { type: 'array', items: { type: 'string', enum: ['*', 'invoice.paid'], 'x-vendorOpen': true } },
      capture_method: { type: 'string', enum: ['automatic', 'manual'] },
    });
    const body = { enabled_events: ['invoice_payment.paid'] };
    expect(send(doc, operation, body).problem).toMatchObject({ param: 'enabled_events[0]', keyword: 'enum' });
    markOpenEnums(doc, 'x-vendorOpen');
    expect(send(doc, operation, body)).toEqual({ body, query: {} });
    expect(send(doc, operation, { capture_method: 'sometimes' }).problem).toMatchObject({ keyword: 'enum' });
    // The document's values stay, for examples drawn from them.
    expect((doc.paths as Schema)['/x']).toBeDefined();
  });
});
