/**
 * What a twin's model is made of (twin-model.ts): an operation of the document, the collection it
 * acts on, and an operation matched to a request path. Types alone, so that what reads them (the
 * flows, twin-flows.ts) needs not the model that makes them.
 *
 * @module
 */
import type { Schema } from './twin-example.js';

/** What an operation does to its collection. */
export type TwinAction = 'create' | 'read' | 'update' | 'delete' | 'list' | 'search' | 'other';

/** A collection the twin keeps: its storage name, its paths and how its ids look. */
export interface TwinResource {
  /** The collection's name in the collections store (`v1-customers`). */
  key: string;
  /** The collection's path template (`/v1/customers`). */
  template: string;
  /** Its id parameter at `template/{id}`. */
  idParam: string;
  /** The prefix of the ids it makes (`cus_`; `''` for none). */
  prefix: string;
  /** The object name an item's `object` field holds, when the schema has one (`customer`). */
  objectName: string | undefined;
  /**
   * The field the path's id reads where the document says so and the profile does not: an item
   * with no `id` whose schema has the id parameter's name less the collection's singular
   * (`{petName}` of `/pets`: `name`). Absent: `id`.
   */
  keyField?: string;
}

/** One operation of the document. */
export interface TwinOperation {
  method: string;
  template: string;
  /** The template's segments: text, or `null` for a parameter. */
  segments: readonly (string | null)[];
  /** The parameters' names, in order. */
  params: readonly string[];
  /**
   * The index in `segments` of the one parameter the document marks `x-multi-segment` (GitHub's
   * contents `path`, a git `ref`): it takes one or more segments, `/` kept (`heads/feature`).
   */
  multi?: number;
  /** The values a path parameter is limited to, by name (its schema's `enum`): another is no path of the operation. */
  choices?: Readonly<Record<string, readonly string[]>>;
  /**
   * The query a path keyed with one asks for (OpenAI's `/responses?beta=true`): the operation
   * answers a request whose query holds each of these pairs, before the same path without them.
   */
  query?: readonly (readonly [string, string])[];
  action: TwinAction;
  resource: TwinResource | undefined;
  operation: Schema;
}

/** An operation matched to a request path, with the path's parameters. */
export interface MatchedOperation {
  op: TwinOperation;
  values: Record<string, string>;
  /**
   * The path's parameters as the URLs of what it makes name them, where the flows keep its items
   * under other `values` (a renamed GitHub repository's current name, as its flows answer it).
   * @default `values`
   */
  shown?: Record<string, string>;
}
