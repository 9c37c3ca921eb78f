/**
 * The admin request bodies that write one endpoint of a mock file: the record
 * (`PUT /api/endpoints/{name}`), the routes (`PUT …/routes`), the queued
 * answers (`POST …/queue`), the collections (`PUT …/collections`), each per-name setting
 * (`PUT …/<key>`, its declaration's `file.body`: settings/name-settings.ts) and the state's start
 * (`PUT …/state`). `applyMockFile` sends exactly these texts, and
 * `parseMockFile` holds each to the body limit, so `validate`, `apply` and
 * `--config` refuse the same files.
 *
 * @module
 */

import { answerJson } from '../api/answer-json.js';
import { routesJson } from '../api/route.js';
import { JsonText, stringifyExact } from '../codec/json-text.js';
import { SETTING_KINDS, type SettingKind, settingFile } from '../settings/name-settings.js';
import type { MockFileEndpoint } from './parse-mock-file.js';

/** One endpoint's write bodies (absent: that write sends no body). */
export interface WriteBodies {
  record?: string;
  routes: string;
  queue?: string;
  collections?: string;
  /** Each per-name setting the endpoint holds, by kind. */
  settings: Partial<Record<SettingKind, string>>;
  state?: string;
}

/** The bodies that make a daemon hold `endpoint`. */
export function writeBodies(endpoint: MockFileEndpoint): WriteBodies {
  const { record } = endpoint;
  const bodies: WriteBodies = { routes: `{"routes":${routesJson(endpoint.routes)}}`, settings: {} };
  if (record) bodies.record = stringifyExact({ data: record.data, statusCode: record.statusCode, delay: record.delay });
  if (endpoint.queue.length > 0) {
    bodies.queue = stringifyExact({ answers: endpoint.queue.map((answer) => new JsonText(answerJson(answer))) });
  }
  if (endpoint.collections !== undefined) bodies.collections = collectionsBody(endpoint.collections);
  for (const kind of SETTING_KINDS) {
    const value = endpoint[kind];
    if (value !== undefined) bodies.settings[kind] = settingFile(kind).body(value);
  }
  if (endpoint.state !== undefined) bodies.state = statesText(endpoint.state);
  return bodies;
}

/** Scenario → value in scenario name order, as `PUT …/state` takes it and `GET …/state?start=true` answers it. */
export function statesText(states: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(states).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** `{"posts":[…],"users":[…]}`: the collections by name in name order, each its exact text. */
export function collectionsBody(collections: ReadonlyMap<string, JsonText>): string {
  return stringifyExact(collectionsByName(collections));
}

/** The collections as an object, by name in name order (each value its exact text). */
export function collectionsByName(collections: ReadonlyMap<string, JsonText>): Record<string, JsonText> {
  return Object.fromEntries([...collections].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
