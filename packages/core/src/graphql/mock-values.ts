/**
 * Deterministic mock values for a schema: every scalar (the five built in and
 * custom ones, by what their name says), enum and abstract type gets a mock
 * drawn from one seeded generator, so the same seed gives the same answer.
 *
 * @module
 */
import { type GraphQLSchema, isAbstractType, isEnumType, isScalarType, isSpecifiedScalarType } from 'graphql';
import type { SeededRandom } from '../random/seeded-random.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
/** 2020-01-01T00:00:00Z: mock dates fall in the five years after it. */
const EPOCH = Date.UTC(2020, 0, 1);
const FIVE_YEARS = 5 * 365 * 24 * 3600 * 1000;

type Mock = () => unknown;

/** A custom scalar's mock, chosen by its name (GitHub's, Shopify's and the common graphql-scalars names). */
function customScalar(name: string, random: SeededRandom): Mock {
  const lower = name.toLowerCase();
  const date = () => new Date(EPOCH + Math.floor(random.next() * FIVE_YEARS));
  if (/datetime|timestamp|instant/.test(lower)) return () => `${date().toISOString().slice(0, 19)}Z`;
  if (lower === 'date' || lower.endsWith('date')) return () => date().toISOString().slice(0, 10);
  if (lower === 'time' || lower.endsWith('time')) return () => date().toISOString().slice(11, 19);
  if (/ur[il]|url|link|href/.test(lower))
    return () => `https://example.com/${random.pick(WORDS)}/${random.int(1, 999)}`;
  if (lower.includes('html')) return () => `<p>${random.pick(WORDS)} ${random.pick(WORDS)}</p>`;
  if (lower.includes('email')) return () => `${random.pick(WORDS)}${random.int(1, 99)}@example.com`;
  if (lower.includes('uuid')) {
    return () => `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-8${random.hex(3)}-${random.hex(12)}`;
  }
  if (/json|object|map/.test(lower)) return () => ({ [random.pick(WORDS)]: random.int(0, 100) });
  if (/bigint|long|int64|uint/.test(lower)) return () => String(random.int(1, 2 ** 31));
  if (/decimal|money|currency|amount|price/.test(lower)) return () => (random.int(0, 99999) / 100).toFixed(2);
  if (lower.includes('base64')) return () => btoa(random.pick(WORDS));
  if (/oid|sha|hash/.test(lower)) return () => random.hex(40);
  return () => `${name}-${random.hex(6)}`;
}

/** The mocks of every scalar, enum and abstract type of `schema`, all drawn from `random`. */
export function mockValues(schema: GraphQLSchema, random: SeededRandom): Record<string, Mock> {
  const mocks: Record<string, Mock> = {
    Int: () => random.int(0, 1000),
    Float: () => random.int(0, 100000) / 100,
    String: () => `${random.pick(WORDS)} ${random.pick(WORDS)}`,
    Boolean: () => random.next() < 0.5,
    ID: () => String(random.int(1, 100000)),
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isScalarType(type) && !isSpecifiedScalarType(type)) mocks[type.name] = customScalar(type.name, random);
    else if (isEnumType(type)) {
      const values = type.getValues().map((value) => value.value as unknown);
      mocks[type.name] = () => random.pick(values);
    } else if (isAbstractType(type)) {
      const names = schema.getPossibleTypes(type).map((possible) => possible.name);
      if (names.length > 0) mocks[type.name] = () => ({ __typename: random.pick(names) });
    }
  }
  return mocks;
}
