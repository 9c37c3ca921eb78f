/**
 * The MCP tools of `mockpoint mcp` and `/api/mcp`, made from the daemon's own
 * OpenAPI document (`GET /api/openapi.json`, generated from the zod schemas that
 * validate each request): one tool per admin operation, its input schema the
 * operation's path parameters, query parameters and body schema. A call is one
 * request to that operation through the typed client, and its result is the
 * API's answer text, byte for byte (stored data as its exact JSON text); an
 * error status is a tool error carrying the API's `{ "error": { "code", … } }`.
 * No business logic lives here: the MCP server is one more client of the API.
 *
 * @module
 */
import type { MockpointClient } from '@mockpoint/core/client';

/** An operation of the document as it reaches the tools. */
interface Operation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

/** A tool as `tools/list` shows it, with how a call becomes an API request. */
export interface ApiTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
  method: string;
  /** The document's path, with `{param}` segments. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

/**
 * The tool name of each admin operation (`METHOD path` as the document names it).
 * An operation left out of both this table and {@link NOT_TOOLS} makes
 * {@link apiTools} throw, so a new API route cannot be forgotten here.
 */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  'PUT /api/endpoint/add': 'create_endpoint',
  'GET /api/endpoints': 'list_endpoints',
  'DELETE /api/endpoints': 'reset_all',
  'GET /api/endpoints/{name}': 'get_endpoint',
  'PUT /api/endpoints/{name}': 'put_endpoint',
  'DELETE /api/endpoints/{name}': 'delete_endpoint',
  'GET /api/hosts': 'list_hosts',
  'GET /api/endpoints/{name}/hosts': 'get_hosts',
  'PUT /api/endpoints/{name}/hosts': 'put_hosts',
  'DELETE /api/endpoints/{name}/hosts': 'delete_hosts',
  'GET /api/endpoints/{name}/routes': 'get_routes',
  'PUT /api/endpoints/{name}/routes': 'put_routes',
  'POST /api/endpoints/{name}/routes': 'add_routes',
  'DELETE /api/endpoints/{name}/routes': 'delete_routes',
  'DELETE /api/endpoints/{name}/routes/{id}': 'delete_route',
  'POST /api/endpoints/{name}/queue': 'queue_answers',
  'GET /api/endpoints/{name}/queue': 'get_queue',
  'DELETE /api/endpoints/{name}/queue': 'clear_queue',
  'GET /api/endpoints/{name}/collections': 'get_collections',
  'PUT /api/endpoints/{name}/collections': 'put_collections',
  'DELETE /api/endpoints/{name}/collections': 'delete_collections',
  'GET /api/endpoints/{name}/collections/{collection}': 'get_collection',
  'PUT /api/endpoints/{name}/collections/{collection}': 'put_collection',
  'DELETE /api/endpoints/{name}/collections/{collection}': 'delete_collection',
  'POST /api/endpoints/{name}/reset': 'reset_endpoint',
  'POST /api/reset': 'reset_state',
  'GET /api/endpoints/{name}/collections/{collection}/items/{id}': 'get_item',
  'PUT /api/endpoints/{name}/collections/{collection}/items/{id}': 'put_item',
  'PATCH /api/endpoints/{name}/collections/{collection}/items/{id}': 'patch_item',
  'DELETE /api/endpoints/{name}/collections/{collection}/items/{id}': 'delete_item',
  'POST /api/endpoints/{name}/collections/{collection}/items': 'add_item',
  'GET /api/endpoints/{name}/state': 'get_state',
  'PUT /api/endpoints/{name}/state': 'put_state',
  'GET /api/clock': 'get_clock',
  'PUT /api/clock': 'set_clock',
  'DELETE /api/clock': 'reset_clock',
  'GET /api/endpoints/{name}/sockets': 'list_sockets',
  'POST /api/endpoints/{name}/sockets/send': 'socket_send',
  'POST /api/endpoints/{name}/sockets/close': 'socket_close',
  'GET /api/endpoints/{name}/signature': 'get_signature_check',
  'PUT /api/endpoints/{name}/signature': 'put_signature_check',
  'DELETE /api/endpoints/{name}/signature': 'delete_signature_check',
  'GET /api/endpoints/{name}/chaos': 'get_chaos',
  'PUT /api/endpoints/{name}/chaos': 'put_chaos',
  'DELETE /api/endpoints/{name}/chaos': 'delete_chaos',
  'GET /api/chaos': 'get_namespace_chaos',
  'PUT /api/chaos': 'put_namespace_chaos',
  'DELETE /api/chaos': 'delete_namespace_chaos',
  'GET /api/twins': 'list_twin_providers',
  'GET /api/endpoints/{name}/twin': 'get_twin',
  'PUT /api/endpoints/{name}/twin': 'put_twin',
  'DELETE /api/endpoints/{name}/twin': 'delete_twin',
  'POST /api/endpoints/{name}/twin/trigger': 'trigger_twin_event',
  'GET /api/endpoints/{name}/graphql': 'get_graphql_schema',
  'PUT /api/endpoints/{name}/graphql': 'put_graphql_schema',
  'DELETE /api/endpoints/{name}/graphql': 'delete_graphql_schema',
  'GET /api/endpoints/{name}/grpc': 'get_grpc_definitions',
  'PUT /api/endpoints/{name}/grpc': 'put_grpc_definitions',
  'DELETE /api/endpoints/{name}/grpc': 'delete_grpc_definitions',
  'GET /api/endpoints/{name}/requests': 'get_requests',
  'DELETE /api/endpoints/{name}/requests': 'clear_requests',
  'GET /api/requests.har': 'export_har',
  'GET /api/requests.pact': 'export_pact',
  'GET /api/requests/unknown': 'unknown_names',
  'GET /api/requests/unhandled': 'unhandled_requests',
  'POST /api/namespaces': 'create_namespace',
  'GET /api/namespaces': 'list_namespaces',
  'GET /api/namespaces/{ns}': 'get_namespace',
  'DELETE /api/namespaces/{ns}': 'delete_namespace',
  'POST /api/deliveries': 'send_delivery',
  'GET /api/deliveries': 'list_deliveries',
  'GET /api/signature-schemes': 'list_signature_schemes',
  'GET /api/deliveries/{id}': 'get_delivery',
  'DELETE /api/deliveries/{id}': 'cancel_delivery',
  'GET /api/health': 'health',
  'POST /api/verify': 'verify_openapi',
  'GET /api/coverage': 'coverage',
};

/**
 * Operations that are no tool: event streams (a tool answers once; `get_requests`
 * with `wait` is the long-poll), the documents themselves, and the public
 * endpoint URLs (the `call_endpoint` tool sends those).
 */
const NOT_TOOLS = new Set([
  'GET /api/endpoints/{name}/requests/stream',
  'GET /api/requests/stream',
  'GET /api/openapi.json',
  'GET /api/config.schema.json',
]);

/** Reads the daemon's OpenAPI document through the client. */
async function openApiDocument(client: MockpointClient): Promise<{ paths: Record<string, Record<string, Operation>> }> {
  const answer = await client.apiCall('GET', '/api/openapi.json');
  if (!answer.ok) throw new Error(`GET /api/openapi.json answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { paths: Record<string, Record<string, Operation>> };
}

/** The tools of every admin operation of the daemon's document, in its order. */
export async function apiTools(client: MockpointClient): Promise<ApiTool[]> {
  const document = await openApiDocument(client);
  const tools: ApiTool[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (NOT_TOOLS.has(key) || method === 'head') continue;
      const name = TOOL_NAMES[key];
      if (name === undefined) throw new Error(`mcp: the API operation ${key} has no tool name (mcp/api-tools.ts)`);
      tools.push(toolOf(name, method.toUpperCase(), path, operation));
    }
  }
  return tools;
}

function toolOf(name: string, method: string, path: string, operation: Operation): ApiTool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    const schema = { ...(parameter.schema as Record<string, unknown>) };
    if (parameter.description !== undefined && schema.description === undefined) {
      schema.description = parameter.description;
    }
    properties[parameter.name] = schema;
    if (parameter.in === 'path') {
      pathParams.push(parameter.name);
      required.push(parameter.name);
    } else queryParams.push(parameter.name);
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body !== undefined) {
    properties.body = body;
    required.push('body');
  }
  return {
    name,
    description: `${operation.summary ?? ''} (${method} ${path})`.trim(),
    inputSchema: { type: 'object', properties, required },
    method,
    path,
    pathParams,
    queryParams,
    hasBody: body !== undefined,
  };
}

/** The result of a tool call: the API's answer text, an error status as a tool error. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** A tool error with one of the API's codes, in the API's own error shape. */
export function toolError(code: string, message: string): ToolAnswer {
  return { text: JSON.stringify({ error: { code, message } }), isError: true };
}

/** Calls `tool` with `args` as one API request. */
export async function callApiTool(
  client: MockpointClient,
  tool: ApiTool,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  let path = tool.path;
  for (const param of tool.pathParams) {
    const value = args[param];
    if (typeof value !== 'string' && typeof value !== 'number') {
      return toolError('INVALID_ARGUMENT', `${tool.name} needs "${param}" (a string)`);
    }
    path = path.replace(`{${param}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const param of tool.queryParams) {
    const value = args[param];
    if (value === undefined || value === null) continue;
    // A filter (`match`) may come as the object it stands for: the API reads its JSON text.
    query.set(param, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const known = new Set([...tool.pathParams, ...tool.queryParams, ...(tool.hasBody ? ['body'] : [])]);
  const unknown = Object.keys(args).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    return toolError(
      'INVALID_ARGUMENT',
      `${tool.name} takes ${[...known].join(', ') || 'no arguments'}; unknown: ${unknown.join(', ')}`,
    );
  }
  let body: string | undefined;
  if (tool.hasBody) {
    if (!('body' in args)) return toolError('INVALID_ARGUMENT', `${tool.name} needs "body"`);
    // A GraphQL schema may be given as the SDL itself; every other body is JSON.
    body = typeof args.body === 'string' && tool.name === 'put_graphql_schema' ? args.body : JSON.stringify(args.body);
  }
  const qs = query.size > 0 ? `?${query}` : '';
  return answerOf(await client.apiCall(tool.method, `${path}${qs}`, body === undefined ? {} : { body }));
}

/** An API answer as a tool result: its text exactly; an empty 2xx says its status. */
export async function answerOf(answer: Response): Promise<ToolAnswer> {
  const text = await answer.text();
  return { text: text === '' ? `${answer.status} ${answer.statusText || 'OK'}`.trim() : text, isError: !answer.ok };
}
