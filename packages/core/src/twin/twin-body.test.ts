import { describe, expect, it } from 'vitest';
import { readParams, TooLong } from './twin-body.js';
import type { Schema } from './twin-example.js';
import { ParamProblem } from './twin-problems.js';

const doc: Schema = {};
const operation: Schema = {
  requestBody: {
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 5 },
            email: {
              anyOf: [
                { type: 'string', maxLength: 3 },
                { enum: [''], type: 'string' },
              ],
            },
            tags: { type: 'array', items: { type: 'string', maxLength: 2 } },
            free: { type: 'string' },
          },
        },
      },
    },
  },
};

function read(body: string) {
  return readParams(doc, operation, { query: '', body, contentType: 'application/x-www-form-urlencoded' }, true);
}

describe('readParams', () => {
  it("reads a JSON object sent as a form when the provider's bodies are JSON, as GitHub reads `curl -d '{…}'`", () => {
    const formType = 'application/x-www-form-urlencoded';
    const json = (body: string, contentType: string) =>
      readParams(doc, operation, { query: '', body, contentType }, false);
    expect(json(' {"name":"abc"}', formType).body).toEqual({ name: 'abc' });
    expect(json('{"name":"abc"}', '').body).toEqual({ name: 'abc' });
    // A form that is no JSON object is still read as a form.
    expect(json('name=abc', formType).body).toEqual({ name: 'abc' });
    // A provider of form bodies (Stripe) reads a form whatever it looks like, unless JSON is declared.
    expect(read('name=abc').body).toEqual({ name: 'abc' });
    expect(read('{"name":"abc"}').body.name).toBeUndefined();
    expect(
      readParams(doc, operation, { query: '', body: '{"name":"abc"}', contentType: 'application/json' }, true).body,
    ).toEqual({ name: 'abc' });
  });

  it("takes strings within the schema's maxLength, and strings the schema leaves unbounded", () => {
    expect(read(`name=abcde&email=abc&tags[0]=ab&free=${'x'.repeat(10_000)}`).body).toMatchObject({
      name: 'abcde',
      email: 'abc',
      tags: ['ab'],
    });
  });

  it("refuses a string past the schema's maxLength as Stripe does, naming the parameter, at any depth", () => {
    const past = (body: string) => {
      try {
        read(body);
      } catch (error) {
        return error as ParamProblem;
      }
      return undefined;
    };
    const long = past(`name=${'y'.repeat(30)}`);
    expect(long).toBeInstanceOf(ParamProblem);
    expect(long?.message).toBe('Invalid string: yyyyyyyyyy...yyyyyyyyyy; must be at most 5 characters');
    expect(long?.param).toBe('name');
    expect(long?.code).toBeUndefined();
    expect(past('email=abcd')?.message).toBe('Invalid string: abcd; must be at most 3 characters');
    expect(past('tags[0]=ab&tags[1]=abc')?.param).toBe('tags[1]');
  });
  it('bounds a JSON body whose schema also has options that only constrain (anyOf of required lists), as GitHub writes them', () => {
    const constrained: Schema = {
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { name: { type: 'string', maxLength: 50 }, count: { type: 'integer' } },
              anyOf: [{ required: ['name'] }, { required: ['count'] }],
            },
          },
        },
      },
    };
    const readJson = (body: unknown) =>
      readParams(doc, constrained, { query: '', body: JSON.stringify(body), contentType: 'application/json' }, false);
    expect(readJson({ name: 'n'.repeat(50), count: 2 }).body).toEqual({ name: 'n'.repeat(50), count: 2 });
    let refused: unknown;
    try {
      readJson({ name: 'n'.repeat(51) });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TooLong);
    expect(refused).toMatchObject({ param: 'name', max: 50 });
  });

  it("checks the required members of a body's allOf parts too, as Revert writes its requests", () => {
    const revert: Schema = {
      components: {
        schemas: {
          Read: { type: 'object', properties: { subject: { type: 'string' } }, required: ['subject'] },
          Write: { type: 'object', properties: { associations: {} }, allOf: [{ $ref: '#/components/schemas/Read' }] },
        },
      },
    };
    const create: Schema = {
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { additional: {} },
              required: ['additional'],
              allOf: [{ $ref: '#/components/schemas/Write' }],
            },
          },
        },
      },
    };
    const readJson = (body: unknown) =>
      readParams(
        revert,
        create,
        { query: '', body: JSON.stringify(body), contentType: 'application/json' },
        false,
        true,
      );
    expect(readJson({ additional: {}, subject: 'Kickoff' }).body).toEqual({ additional: {}, subject: 'Kickoff' });
    // Held back as the request's problem (the engine answers it after the provider's own refusal).
    expect(readJson({ additional: {} }).problem).toMatchObject({
      message: 'Missing required param: subject.',
      code: 'parameter_missing',
    });
    expect(readJson({ subject: 'Kickoff' }).problem).toMatchObject({ message: 'Missing required param: additional.' });
  });
});

describe('an anyOf of a number and a string', () => {
  const doc = {
    openapi: '3.1.0',
    paths: {},
    components: {
      schemas: {
        Tokens: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['inf'] }] },
      },
    },
  };
  const operation = {
    requestBody: {
      content: {
        'application/json': {
          schema: { type: 'object', properties: { max_output_tokens: { $ref: '#/components/schemas/Tokens' } } },
        },
      },
    },
  };
  const read = (body: string, contentType = 'application/json') =>
    readParams(doc, operation, { query: '', body, contentType }, false).body.max_output_tokens;

  it('takes the string the string option allows, and a number as a number', () => {
    expect(read('{"max_output_tokens":"inf"}')).toBe('inf');
    expect(read('{"max_output_tokens":42}')).toBe(42);
    // A form's strings: digits are the integer option's.
    expect(read('max_output_tokens=42', 'application/x-www-form-urlencoded')).toBe(42);
    expect(read('max_output_tokens=inf', 'application/x-www-form-urlencoded')).toBe('inf');
  });
});
