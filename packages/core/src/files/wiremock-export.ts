/**
 * A mock file's endpoints as WireMock stub mappings (`{ "mappings": [...] }`):
 * the subset WireMock can express, with the rest listed (`skipped`), so that
 * nobody is locked in. Each route becomes a mapping whose priority keeps
 * mockpoint's order (the first route answers first); an endpoint's record
 * becomes a mapping at `/`. With one endpoint the paths are its subpaths
 * (point the client at WireMock's root); with several, each path starts with
 * `/<name>`.
 *
 * @module
 */
import { kindOf } from '../api/answer-kinds.js';
import type { RequestFilter } from '../api/journal-json.js';
import type { Route } from '../api/route.js';
import { isTimedState } from '../api/state-json.js';
import { JsonText, jsonTextOf, stringifyExact } from '../codec/json-text.js';
import type { LeftOut } from './left-out.js';
import type { MockFileEndpoint } from './parse-mock-file.js';
import { wireMockDistribution } from './wiremock-delay.js';

/** What {@link wireMockMappings} made. */
export interface WireMockExport {
  /** `{ "mappings": [...] }`, JSON (every body exact). */
  text: string;
  mappings: number;
  skipped: LeftOut[];
}

type Json = Record<string, unknown>;

/** Java regex text matching `text` literally. */
function quoteRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A path pattern (`/users/:id`, `/files/*`) as WireMock's URL: `urlPath` when literal, else `urlPathPattern`. */
function urlOf(path: string, prefix: string): Json {
  const segments = path.split('/').slice(1);
  let literal = true;
  const regex: string[] = [];
  const plain: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === '*' && index === segments.length - 1) {
      literal = false;
      regex.push('*');
      continue;
    }
    const decoded = (() => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })();
    // `:name` after the start or a non-name character starts a parameter (docs/routes.md).
    const parts = segment.split(/(?<![A-Za-z0-9_]):([A-Za-z_][A-Za-z0-9_]*)/);
    if (parts.length === 1) {
      plain.push(decoded);
      regex.push(quoteRegex(decoded));
      continue;
    }
    literal = false;
    regex.push(
      parts
        .map((part, i) => {
          if (i % 2 === 1) return '[^/]+';
          try {
            return quoteRegex(decodeURIComponent(part));
          } catch {
            return quoteRegex(part);
          }
        })
        .join(''),
    );
  }
  if (literal) return { urlPath: `${prefix}/${plain.join('/')}` };
  const last = regex.at(-1) === '*';
  const body = (last ? regex.slice(0, -1) : regex).join('/');
  const head = `${quoteRegex(prefix)}${body === '' && last ? '' : `/${body}`}`;
  return { urlPathPattern: last ? `${head}(/.*)?` : head };
}

/** The one scenario and value of a state, or `undefined` when it names several. */
function oneState(state: unknown): [string, string] | undefined {
  if (typeof state === 'string') return ['default', state];
  const entries = Object.entries(state as Record<string, string>);
  return entries.length === 1 ? (entries[0] as [string, string]) : undefined;
}

const wireState = (value: string) => (value === 'started' ? 'Started' : value);

/** The WireMock request of a route's match, or why it cannot be one. */
function requestOf(
  match: RequestFilter | undefined,
  prefix: string,
): { request: Json; scenario?: [string, string] } | string {
  const request: Json = { method: match?.method?.toUpperCase() ?? 'ANY' };
  const path = match?.path ?? '/*';
  const quotedPrefix = prefix.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
  if (match?.url !== undefined) {
    // WireMock's urlPattern is the same regex over the path and query (below the prefix here).
    if (match.path !== undefined || !('matches' in match.url))
      return 'a url regular expression beside a path, or one that must not match, has no WireMock URL form';
    request.urlPattern = `${quotedPrefix}(?:${match.url.matches})`;
  } else if (typeof path !== 'string') {
    if (!('matches' in path)) return 'a path that must not match a regular expression has no WireMock URL form';
    request.urlPathPattern = `${quotedPrefix}(?:${path.matches})`;
  } else Object.assign(request, urlOf(path, prefix));
  if (match === undefined) return { request };
  for (const key of ['graphql', 'signature', 'websocket'] as const) {
    if (match[key] !== undefined) return `match.${key} has no WireMock request matcher`;
  }
  if (match.query !== undefined) {
    request.queryParameters = Object.fromEntries(
      Object.entries(match.query).map(([key, value]) => [
        key,
        Array.isArray(value)
          ? { hasExactly: value.map((item) => ({ equalTo: item })) }
          : typeof value === 'string'
            ? { equalTo: value }
            : value, // the regex form is WireMock's own: { matches } / { doesNotMatch }
      ]),
    );
  }
  if (match.headers !== undefined) {
    request.headers = Object.fromEntries(
      Object.entries(match.headers).map(([name, value]) => [
        name,
        typeof value === 'string' ? { equalTo: value } : value,
      ]),
    );
  }
  if (match.bodyPatterns !== undefined) request.bodyPatterns = [...match.bodyPatterns];
  if (Object.hasOwn(match, 'body')) {
    request.bodyPatterns = [
      ...((request.bodyPatterns as Json[] | undefined) ?? []),
      typeof match.body === 'string'
        ? { equalTo: match.body }
        : { equalToJson: match.body instanceof JsonText ? match.body.value() : match.body, ignoreExtraElements: true },
    ];
  }
  if (Object.hasOwn(match, 'bodyEquals')) {
    const value = match.bodyEquals instanceof JsonText ? match.bodyEquals.value() : match.bodyEquals;
    request.bodyPatterns = [...((request.bodyPatterns as Json[] | undefined) ?? []), { equalToJson: value }];
  }
  for (const expression of match.bodyJsonPaths ?? []) {
    request.bodyPatterns = [...((request.bodyPatterns as Json[] | undefined) ?? []), { matchesJsonPath: expression }];
  }
  if (match.state === undefined) return { request };
  const scenario = oneState(match.state);
  if (scenario === undefined) return 'match.state names several scenarios; a WireMock mapping has one';
  return { request, scenario };
}

/** The content type mockpoint sends for a body form when the answer's headers name none. */
function defaultType(answer: Route['answer']): string | undefined {
  if (answer.data !== undefined) return 'application/json; charset=utf-8';
  if (answer.body !== undefined) return 'text/plain; charset=utf-8';
  if (answer.bodyBase64 !== undefined) return 'application/octet-stream';
  return undefined;
}

/** The WireMock response of a route's answer, or why it cannot be one; notes pushed to `note`. */
function responseOf(answer: Route['answer'], note: (what: string, why: string) => void): Json | string {
  const kind = kindOf(answer);
  if (kind !== undefined && !kind.forms.wiremock) return `a ${kind.key} answer has no WireMock form`;
  if (answer.fault === 'hang') return 'fault hang: WireMock has no answer that never comes';
  const response: Json = {};
  if (answer.fault === 'reset') return { fault: 'CONNECTION_RESET_BY_PEER' };
  if (answer.fault === 'close') {
    note('fault close', 'written as MALFORMED_RESPONSE_CHUNK (WireMock has no half body then close)');
    return { fault: 'MALFORMED_RESPONSE_CHUNK' };
  }
  response.status = answer.statusCode ?? 200;
  const headers: Record<string, string | string[]> = { ...(answer.headers ?? {}) };
  const type = defaultType(answer);
  if (type !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = type;
  }
  if (Object.keys(headers).length > 0) response.headers = headers;
  if (answer.data !== undefined) response.body = new JsonText(jsonTextOf(answer.data)).text;
  else if (answer.body !== undefined) response.body = answer.body;
  else if (answer.bodyBase64 !== undefined) response.base64Body = answer.bodyBase64;
  if (answer.delay !== undefined && answer.delay > 0) response.fixedDelayMilliseconds = answer.delay;
  if (answer.latency !== undefined) {
    const distribution = wireMockDistribution(answer.latency, note);
    if (distribution !== undefined) response.delayDistribution = distribution;
  }
  if (answer.template === true) {
    note('template', "mockpoint's placeholders are not WireMock's Handlebars; the body is written as it is");
  }
  return response;
}

/**
 * WireMock mappings for `endpoints` (a parsed mock file's). What WireMock
 * cannot express is left out, each with why (a route whole, or one part of it).
 */
export function wireMockMappings(endpoints: readonly MockFileEndpoint[]): WireMockExport {
  const mappings: Json[] = [];
  const skipped: LeftOut[] = [];
  const several = endpoints.length > 1;
  for (const endpoint of endpoints) {
    const prefix = several ? `/${endpoint.name}` : '';
    const label = (what: string) => (several ? `${endpoint.name} ${what}` : what);
    const routes = endpoint.routes;
    for (const [index, route] of routes.entries()) {
      const what = label(`route ${route.id}`);
      const note = (part: string, why: string) => skipped.push({ what: `${what}: ${part}`, why });
      const request = requestOf(route.match, prefix);
      if (typeof request === 'string') {
        skipped.push({ what, why: request });
        continue;
      }
      const response = responseOf(route.answer, note);
      if (typeof response === 'string') {
        skipped.push({ what, why: response });
        continue;
      }
      const mapping: Json = { name: route.id, priority: index + 1, request: request.request, response };
      if (isTimedState(route.answer.setState)) {
        skipped.push({ what, why: 'a timed setState (after) has no WireMock equivalent' });
        continue;
      }
      const setState = route.answer.setState === undefined ? undefined : oneState(route.answer.setState);
      if (route.answer.setState !== undefined && setState === undefined) {
        skipped.push({ what, why: 'setState names several scenarios; a WireMock mapping moves one' });
        continue;
      }
      const scenario = request.scenario ?? setState;
      if (scenario !== undefined) {
        if (setState !== undefined && request.scenario !== undefined && setState[0] !== request.scenario[0]) {
          skipped.push({ what, why: 'it matches one scenario and moves another; a WireMock mapping has one' });
          continue;
        }
        mapping.scenarioName = scenario[0];
        if (request.scenario !== undefined) mapping.requiredScenarioState = wireState(request.scenario[1]);
        if (setState !== undefined) mapping.newScenarioState = wireState(setState[1]);
      }
      if ((route as { validate?: unknown }).validate !== undefined) {
        note('validate', 'request validation against schemas is not carried over');
      }
      mappings.push(mapping);
    }
    if (endpoint.record !== undefined) {
      // The record answers every method at the bare URL, after the routes.
      const response: Json = {
        status: endpoint.record.statusCode,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      };
      response.body = endpoint.record.data.text;
      if (endpoint.record.delay > 0) response.fixedDelayMilliseconds = endpoint.record.delay;
      mappings.push({
        name: several ? `${endpoint.name}-record` : 'record',
        priority: routes.length + 1,
        request: { method: 'ANY', urlPath: prefix === '' ? '/' : prefix },
        response,
      });
    }
    if (endpoint.queue.length > 0) {
      skipped.push({ what: label('queued answers'), why: 'WireMock has no queue of answers used once each' });
    }
    if (endpoint.collections !== undefined) {
      skipped.push({
        what: label(`collections ${[...endpoint.collections.keys()].join(', ')}`),
        why: 'WireMock keeps no data between requests',
      });
    }
    if (endpoint.graphql !== undefined)
      skipped.push({ what: label('graphql schema'), why: 'WireMock answers no GraphQL from a schema' });
    if (endpoint.hosts !== undefined)
      skipped.push({ what: label('hosts'), why: 'WireMock picks no stub by Host here' });
    if (endpoint.chaos !== undefined)
      skipped.push({ what: label('chaos'), why: 'WireMock injects no faults into a share of requests' });
  }
  return { text: `${stringifyExact({ mappings }, 2)}\n`, mappings: mappings.length, skipped };
}
