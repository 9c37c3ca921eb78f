/**
 * The collections' schemas, a part of `createSchemas` (schemas.ts): one
 * collection's items, a collection name, and an endpoint's collections.
 *
 * @module
 */
import { z } from 'zod';

/** One collection's items, a collection name and an endpoint's collections. */
export function createCollectionSchemas() {
  const collectionItems = z
    .array(z.record(z.string(), z.unknown()).describe('An item: a JSON object, kept as its exact text.'))
    .meta({ title: 'CollectionItems', description: 'The items of one collection, in order.' });
  const collectionName = z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a collection name is 1-64 of A-Z a-z 0-9 _ -')
    .describe('A collection name: 1-64 of A-Z a-z 0-9 _ -.');
  const collections = z.record(collectionName, collectionItems).meta({
    title: 'Collections',
    description: "An endpoint's collections by name (1-64 of A-Z a-z 0-9 _ -), in name order.",
  });
  return { collectionItems, collectionName, collections };
}
