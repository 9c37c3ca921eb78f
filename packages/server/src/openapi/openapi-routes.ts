/**
 * An OpenAPI document (3.0, 3.1 or Swagger 2.0) as the routes of one endpoint:
 * one route per operation, its path from the template (`/pets/{petId}` →
 * `/pets/:petId`), its method, and the first success response's example, or a
 * value sampled from its schema when there is none. Parsed and dereferenced by
 * load-openapi.ts, sampled by openapi-sampler (deterministic: the same
 * document gives the same routes).
 *
 * @module
 */
import { sample } from 'openapi-sampler';
import { loadOpenApi } from './load-openapi.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

type Json = Record<string, unknown>;

/** One route of the import, in the mock file's shape. */
export interface ImportedRoute {
  id: string;
  match: { method: string; path: string };
  answer: { statusCode: number; headers?: Record<string, string>; data?: unknown };
}

/** `/pets/{petId}` → `/pets/:petId` (parameter names reduced to letters, digits and `_`). */
export function routePath(template: string): string {
  return template.replace(/\{([^}]*)\}/g, (_, name: string) => `:${name.replace(/[^A-Za-z0-9_]/g, '_') || 'param'}`);
}

function isJsonType(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

/** The response an operation answers with: the lowest 2xx, else `default` (as 200). */
function pickResponse(responses: Json): [number, Json] | undefined {
  const codes = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort();
  const code = codes[0] ?? (responses.default ? 'default' : undefined);
  if (code === undefined) return undefined;
  return [code === 'default' ? 200 : Number(code), responses[code] as Json];
}

/** The body of a response: an example, else a sample of its schema; `undefined` when it has no JSON body. */
function responseBody(response: Json, swagger2: boolean): { type: string; data: unknown } | undefined {
  if (swagger2) {
    const examples = response.examples as Json | undefined;
    const type = Object.keys(examples ?? {}).find(isJsonType);
    if (type !== undefined) return { type, data: examples?.[type] };
    const schema = response.schema as Json | undefined;
    return schema ? { type: 'application/json', data: sampled(schema) } : undefined;
  }
  const content = (response.content ?? {}) as Record<string, Json>;
  const type = Object.keys(content).find(isJsonType);
  if (type === undefined) return undefined;
  const media = content[type] as Json;
  if (media.example !== undefined) return { type, data: media.example };
  const examples = media.examples as Record<string, Json> | undefined;
  const first = examples ? Object.values(examples).find((example) => example.value !== undefined) : undefined;
  if (first) return { type, data: first.value };
  const schema = media.schema as Json | undefined;
  return schema ? { type, data: sampled(schema) } : undefined;
}

function sampled(schema: Json): unknown {
  return sample(schema as Parameters<typeof sample>[0], { skipReadOnly: false, skipWriteOnly: true, quiet: true });
}

/** A route id from an operationId (the name rule: 1–64 of A–Z a–z 0–9 _ -), unique among `taken`. */
function routeId(operationId: unknown, method: string, path: string, taken: Set<string>): string {
  const base =
    (typeof operationId === 'string' ? operationId : `${method}${path}`)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || method;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/**
 * The routes of the OpenAPI document at `path` (a file or URL the parser reads):
 * paths with fewer parameters first, so `/pets/mine` answers before `/pets/{id}`.
 */
export async function openApiRoutes(path: string): Promise<ImportedRoute[]> {
  const doc = await loadOpenApi(path);
  const swagger2 = typeof doc.swagger === 'string';
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const taken = new Set<string>();
  const routes: (ImportedRoute & { params: number; order: number })[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const picked = pickResponse((operation.responses ?? {}) as Json);
      const statusCode = picked?.[0] ?? 200;
      const body = picked ? responseBody(picked[1], swagger2) : undefined;
      const answer: ImportedRoute['answer'] = { statusCode: statusCode >= 200 && statusCode <= 599 ? statusCode : 200 };
      if (body !== undefined && body.data !== undefined) {
        answer.headers = { 'content-type': body.type };
        answer.data = body.data;
      }
      routes.push({
        id: routeId(operation.operationId, method, template, taken),
        match: { method: method.toUpperCase(), path: routePath(template) },
        answer,
        params: (template.match(/\{/g) ?? []).length,
        order: routes.length,
      });
    }
  }
  routes.sort((a, b) => a.params - b.params || a.order - b.order);
  return routes.map(({ params: _params, order: _order, ...route }) => route);
}
