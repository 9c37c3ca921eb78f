/**
 * `/api/mcp`: the MCP server over Streamable HTTP, on the SDK's web-standard
 * transport, stateless (each POST is answered on its own, as JSON), so replicas
 * behind one URL need nothing shared. The app's guards (Host, Origin, admin
 * token) have run before a request gets here; the tools then call the API
 * in-process through the app's fetch, with the same token.
 *
 * @module
 */
import { createClient, type Fetchable } from '@mockpoint/core/client';
import { createMcpServer, loadTools, type McpTools } from './mcp-server.js';
import { WebStandardStreamableHTTPServerTransport } from './sdk.js';

/** The handler of `/api/mcp` for `app`. */
export function mcpHttpHandler(
  app: Fetchable,
  options: { token: string | undefined; maxBodyBytes: number },
): (request: Request) => Promise<Response> {
  // In-process: an IP Host passes the Host guard, and no Origin the Origin guard.
  const target = {
    url: 'http://127.0.0.1',
    token: options.token,
    fetch: async (request: Request) => app.fetch(request),
  };
  let tools: Promise<McpTools> | undefined;
  return async (request) => {
    tools ??= loadTools(createClient({ baseUrl: target.url, token: target.token, fetch: target.fetch })).catch(
      (error: unknown) => {
        tools = undefined;
        throw error;
      },
    );
    const server = createMcpServer(target, await tools);
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: options.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      // Stateless, JSON answers: the answer is whole; nothing of this server outlives it.
      await server.close();
    }
  };
}
