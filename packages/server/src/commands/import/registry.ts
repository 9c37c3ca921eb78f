/**
 * Every format `mockpoint import` reads, in the order they are tried when
 * `--from` is left out: the formats with a shape of their own first,
 * json-server (any object of arrays and objects) and OpenAPI (anything else)
 * last. To add one: a file in this folder exporting an {@link Importer}, and
 * a line here.
 *
 * @module
 */
import { graphql } from './graphql.js';
import { har } from './har.js';
import type { Importer } from './importer.js';
import { jsonServer } from './json-server.js';
import { mockoon } from './mockoon.js';
import { openapi } from './openapi.js';
import { pact } from './pact.js';
import { postman } from './postman.js';
import { proto } from './proto.js';
import { wiremock } from './wiremock.js';

export const IMPORTERS: readonly Importer[] = [
  graphql,
  har,
  pact,
  wiremock,
  proto,
  mockoon,
  postman,
  jsonServer,
  openapi,
];
