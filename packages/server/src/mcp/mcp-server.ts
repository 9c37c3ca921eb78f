/**
 * mockpoint as an MCP server (docs/mcp.md), on the official MCP SDK's low-level
 * `Server`: the tools of the admin API (mcp/api-tools.ts), the mock file tools
 * (mcp/file-tools.ts), and resources for the endpoint list, one endpoint and its
 * journal. Everything goes through the typed client to the API, in-process
 * (the app's fetch) or over HTTP: the MCP server is one more client of the API.
 * Loaded only by `mockpoint mcp` and the first request to `/api/mcp`.
 *
 * @module
 */
import { createClient, type MockpointClient } from '@mockpoint/core/client';
import { VERSION } from '@mockpoint/core/defaults';
import type { AdminTarget } from '@mockpoint/core/files';
import { AnswerBudget } from './answer-budget.js';
import { type ApiTool, answerOf, apiTools, callApiTool, type ToolAnswer, toolError } from './api-tools.js';
import { FILE_TOOLS, type FileTool } from './file-tools.js';
// The MCP SDK's server side, vendored (sdk.ts, built apart as dist/mcp-sdk.js).
import * as sdk from './sdk.js';

const INSTRUCTIONS = `mockpoint: mock HTTP endpoints for tests. An endpoint is a name; its public URL is /endpoint/{name}
(and paths below it, answered by its routes). Tools mirror the admin API (/api/openapi.json) and answer its JSON
exactly. Typical session: put_endpoint or put_routes, then call_endpoint (or the code under test) sends requests,
get_requests with wait and match waits for them, then read them back. Errors carry the API's stable codes.`;

/** The tools and how to call them, read once from the daemon's document. */
export interface McpTools {
  api: ApiTool[];
  files: readonly FileTool[];
}

/** The tools of the daemon `client` talks to. */
export async function loadTools(client: MockpointClient): Promise<McpTools> {
  return { api: await apiTools(client), files: FILE_TOOLS };
}

/** A tool result as MCP shapes it: one text content, `isError` for errors. */
function result(answer: ToolAnswer): { content: { type: 'text'; text: string }[]; isError?: boolean } {
  return answer.isError
    ? { content: [{ type: 'text', text: answer.text }], isError: true }
    : { content: [{ type: 'text', text: answer.text }] };
}

/** Any failure of a call (the daemon unreachable, a bad mock file) as a tool error with our code. */
function thrownAnswer(error: unknown): ToolAnswer {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return toolError(typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'INTERNAL', String(message ?? error));
}

/**
 * An MCP server for the daemon at `target` (`fetch` given: in-process), with
 * `tools` read before (see {@link loadTools}). `perMessage`: the server answers
 * one message (a stateless HTTP POST, maybe a batch), and its calls share one
 * {@link AnswerBudget}.
 */
export function createMcpServer(
  target: AdminTarget,
  tools: McpTools,
  options: { perMessage?: boolean } = {},
): sdk.Server {
  const context = options.perMessage ? { budget: new AnswerBudget() } : {};
  const client = createClient({ baseUrl: target.url, token: target.token, fetch: target.fetch });
  const server = new sdk.Server(
    { name: 'mockpoint', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      // Used by the SDK for elicitation answers only, which this server never asks for (the build leaves ajv out).
      jsonSchemaValidator: {
        getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'no elicitation' }),
      },
    },
  );
  const apiByName = new Map(tools.api.map((tool) => [tool.name, tool]));
  const fileByName = new Map(tools.files.map((tool) => [tool.name, tool]));

  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({
    tools: [
      ...tools.api.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      ...tools.files.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    ],
  }));

  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const api = apiByName.get(name);
      if (api !== undefined) return result(await callApiTool(client, api, args));
      const file = fileByName.get(name);
      if (file !== undefined) return result(await file.call(target, client, args, context));
    } catch (error) {
      return result(thrownAnswer(error));
    }
    throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `unknown tool "${name}"; tools/list names them`);
  });

  server.setRequestHandler(sdk.ListResourcesRequestSchema, async () => {
    const answer = await client.apiCall('GET', '/api/endpoints?limit=100');
    const names = answer.ok ? ((await answer.json()) as { endpoints: { name: string }[] }).endpoints : [];
    return {
      resources: [
        {
          uri: 'mockpoint://endpoints',
          name: 'endpoints',
          mimeType: 'application/json',
          description: 'Every endpoint',
        },
        ...names.flatMap(({ name }) => [
          { uri: `mockpoint://endpoints/${encodeURIComponent(name)}`, name, mimeType: 'application/json' },
          {
            uri: `mockpoint://endpoints/${encodeURIComponent(name)}/requests`,
            name: `${name} requests`,
            mimeType: 'application/json',
          },
        ]),
      ],
    };
  });

  server.setRequestHandler(sdk.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'mockpoint://endpoints/{name}',
        name: 'endpoint',
        description: 'One endpoint record, its data as stored',
        mimeType: 'application/json',
      },
      {
        uriTemplate: 'mockpoint://endpoints/{name}/requests',
        name: 'journal',
        description: 'The requests an endpoint received, oldest first',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const path = resourcePath(uri);
    if (path === undefined) {
      throw new sdk.McpError(
        sdk.ErrorCode.InvalidParams,
        `unknown resource ${uri}; mockpoint://endpoints, mockpoint://endpoints/{name} or mockpoint://endpoints/{name}/requests`,
      );
    }
    const answer = await answerOf(await client.apiCall('GET', path));
    if (answer.isError) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, answer.text);
    return { contents: [{ uri, mimeType: 'application/json', text: answer.text }] };
  });

  return server;
}

/** The API path of a resource URI, or `undefined` for an unknown one. */
function resourcePath(uri: string): string | undefined {
  if (uri === 'mockpoint://endpoints') return '/api/endpoints';
  const match = /^mockpoint:\/\/endpoints\/([^/?#]+)(\/requests)?$/.exec(uri);
  if (match === null) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
  return `/api/endpoints/${encodeURIComponent(name)}${match[2] ?? ''}`;
}
