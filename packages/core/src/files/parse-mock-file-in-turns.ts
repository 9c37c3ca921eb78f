/**
 * {@link parseMockFile} of a long JSON mock file of routes (an import's:
 * thousands of Pact interactions, HAR entries, OpenAPI operations) a slice per
 * event-loop turn, as the routes API reads a long list: the file is split at its
 * endpoints and routes (scanned in turns, every value kept exact), and each
 * slice of {@link ROUTES_PER_SLICE} routes is checked by {@link parseMockFile}
 * itself, the loop running between slices. The result is the same as one
 * parse; a file of anything else than endpoints' names and routes, and a file
 * some slice refuses, is parsed whole (so its error says where, in the file's own lines).
 *
 * @module
 */
import { scanJson, scanJsonInTurns } from '../codec/json-text.js';
import { utf8Length } from '../codec/utf8-length.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_ROUTES, routesBodyBytes } from '../registry/limits.js';
import { SLICED_ROUTES_CHARS, TurnBudget } from '../turns/turn-budget.js';
import { type MockFile, type MockFileEndpoint, type ParseMockFileOptions, parseMockFile } from './parse-mock-file.js';

/** Routes checked by one {@link parseMockFile} call, between two turns. */
const ROUTES_PER_SLICE = 50;

/** An endpoint of the file as texts: its name's JSON and each route's. */
interface EndpointTexts {
  name: string;
  routes: string[];
}

/**
 * Route texts with the ids {@link parseMockFile} would give those that have none (`route-1`, … not taken);
 * `undefined` when two routes give the same id (slices are checked each on its own, so only the whole
 * parse sees the clash and says `DUPLICATE_ROUTE_ID` where it is).
 */
async function withIds(routes: readonly string[], budget: TurnBudget): Promise<string[] | undefined> {
  const ids: (string | undefined)[] = [];
  for (const route of routes) {
    await budget.pause();
    ids.push(scanJson(route).members?.get('id'));
  }
  const given = ids.filter((id) => id !== undefined).map((id) => JSON.parse(id) as unknown);
  const taken = new Set(given);
  if (taken.size !== given.length) return undefined;
  let next = 1;
  return routes.map((route, index) => {
    if (ids[index] !== undefined || !route.startsWith('{')) return route;
    while (taken.has(`route-${next}`)) next++;
    const id = JSON.stringify(`route-${next++}`);
    return route === '{}' ? `{"id":${id}}` : `{"id":${id},${route.slice(1)}`;
  });
}

/**
 * The file's endpoints as texts, or `undefined` when it holds more than endpoints' names and routes, or
 * when a list is one whose limits (count, size) only the whole parse checks.
 */
async function endpointTexts(
  text: string,
  options: ParseMockFileOptions,
  budget: TurnBudget,
): Promise<EndpointTexts[] | undefined> {
  // Three levels in turns: endpoints, each endpoint, its routes.
  const top = (await scanJsonInTurns(text, budget, false, 3)).members;
  if (top === undefined || [...top.keys()].some((key) => key !== 'version' && key !== 'endpoints')) return undefined;
  if (top.get('version') !== '1') return undefined;
  const list = top.get('endpoints');
  const endpoints = list === undefined ? undefined : (await scanJsonInTurns(list, budget, true, 2)).elements;
  if (endpoints === undefined) return undefined;
  const out: EndpointTexts[] = [];
  for (const endpoint of endpoints) {
    await budget.pause();
    const members = (await scanJsonInTurns(endpoint, budget, true, 1)).members;
    const name = members?.get('name');
    const routes = members?.get('routes');
    if (members === undefined || name === undefined || members.size !== (routes === undefined ? 1 : 2))
      return undefined;
    const elements = routes === undefined ? [] : (await scanJsonInTurns(routes, budget, true)).elements;
    if (elements === undefined || elements.length > (options.maxRoutes ?? DEFAULT_MAX_ROUTES)) return undefined;
    if (utf8Length(routes ?? '') > routesBodyBytes(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)) return undefined;
    const routeTexts = await withIds(elements, budget);
    if (routeTexts === undefined) return undefined;
    out.push({ name, routes: routeTexts });
  }
  return new Set(out.map((endpoint) => endpoint.name)).size === out.length ? out : undefined;
}

/** One endpoint checked a slice of routes at a time; `undefined` when a slice is refused. */
async function checkedEndpoint(
  endpoint: EndpointTexts,
  options: ParseMockFileOptions,
  budget: TurnBudget,
): Promise<MockFileEndpoint | undefined> {
  let checked: MockFileEndpoint | undefined;
  for (let from = 0; from === 0 || from < endpoint.routes.length; from += ROUTES_PER_SLICE) {
    await budget.pause();
    const routes = endpoint.routes.slice(from, from + ROUTES_PER_SLICE).join(',');
    let slice: MockFileEndpoint | undefined;
    try {
      const text = `{"version":1,"endpoints":[{"name":${endpoint.name},"routes":[${routes}]}]}`;
      slice = parseMockFile(text, { ...options, format: 'json' }).endpoints[0];
    } catch {
      return undefined;
    }
    if (slice === undefined) return undefined;
    if (checked === undefined) checked = slice;
    else checked.routes.push(...slice.routes);
  }
  return checked;
}

/**
 * {@link parseMockFile} of `text` (JSON), a slice of routes per event-loop turn
 * when it is long; the same result, and the same errors.
 */
export async function parseMockFileInTurns(text: string, options: ParseMockFileOptions = {}): Promise<MockFile> {
  if (options.format !== 'json' || text.length < SLICED_ROUTES_CHARS) return parseMockFile(text, options);
  const budget = new TurnBudget();
  let endpoints: EndpointTexts[] | undefined;
  try {
    endpoints = await endpointTexts(text.replace(/^\uFEFF/, ''), options, budget);
  } catch {
    endpoints = undefined;
  }
  const out: MockFileEndpoint[] = [];
  for (const endpoint of endpoints ?? []) {
    const checked = await checkedEndpoint(endpoint, options, budget);
    if (checked === undefined) break;
    out.push(checked);
  }
  // Anything else, or a slice refused: one parse of the whole file (its error then says where, in the file's lines).
  if (endpoints === undefined || out.length < endpoints.length) return parseMockFile(text, options);
  return { version: 1, endpoints: out };
}
