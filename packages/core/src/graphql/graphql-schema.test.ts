import { interfaceChain } from '@mockpoint/testkit/graphql-schemas';
import { describe, expect, it } from 'vitest';
import { isMockpointError } from '../registry/errors.js';
import { buildGraphqlSchema, MAX_INTERFACE_WORK, MAX_SCHEMA_ELEMENTS, MAX_SCHEMA_TOKENS } from './graphql-schema.js';

const MiB = 1024 * 1024;

function refusal(sdl: string): { code: string; message: string; details: unknown } {
  try {
    buildGraphqlSchema(sdl, 4 * MiB);
  } catch (error) {
    if (isMockpointError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('the schema was accepted');
}

describe('the build work of a schema, bounded at save', () => {
  it('refuses interfaces that implement all the earlier ones, counted before anything is built', () => {
    // 120 interfaces: graphql's validateSchema checks about 120^4/8 = 26 million implementations.
    expect(refusal(interfaceChain(120))).toMatchObject({
      code: 'GRAPHQL_SCHEMA_TOO_COMPLEX',
      message: expect.stringContaining(`more than ${MAX_INTERFACE_WORK}`),
      details: { interfaceWork: expect.any(Number) },
    });
    // A few interfaces implementing each other are fine.
    expect(buildGraphqlSchema(interfaceChain(8), 4 * MiB).getType('I7')).toBeDefined();
  });

  it('refuses more elements than the bound, naming what it counts', () => {
    const fields = Array.from({ length: MAX_SCHEMA_ELEMENTS }, (_, i) => `f${i}: Int`).join(' ');
    expect(refusal(`type Query { ${fields} }`)).toMatchObject({
      code: 'GRAPHQL_SCHEMA_TOO_COMPLEX',
      message: expect.stringContaining('types, fields, arguments, enum values and union members'),
      details: { elements: MAX_SCHEMA_ELEMENTS + 1 },
    });
    const fewer = Array.from({ length: MAX_SCHEMA_ELEMENTS - 1 }, (_, i) => `f${i}: Int`).join(' ');
    expect(buildGraphqlSchema(`type Query { ${fewer} }`, 4 * MiB).getQueryType()).toBeDefined();
  });

  it('stops parsing past the token bound: 900 interfaces each implementing the earlier ones (2.8 MB) are refused', () => {
    const sdl = interfaceChain(900);
    expect(sdl.length).toBeGreaterThan(2_700_000);
    expect(refusal(sdl)).toMatchObject({
      code: 'GRAPHQL_SCHEMA_TOO_COMPLEX',
      message: expect.stringContaining(`more than ${MAX_SCHEMA_TOKENS} tokens`),
    });
  });
});
