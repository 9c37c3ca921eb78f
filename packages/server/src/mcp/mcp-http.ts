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
import { isOwnError, readBodyBytes } from '@mockpoint/core/internal';
import { createMcpServer, loadTools, type McpTools } from './mcp-server.js';
import { WebStandardStreamableHTTPServerTransport } from './sdk.js';

/**
 * The most JSON-RPC messages one POST may carry. A batch (gone from MCP since 2025-06-18;
 * the SDK still reads one) is answered as a whole, so its calls' work adds up in one answer.
 */
export const MAX_BATCH = 16;

/**
 * The body of `request` as text, read by the one bounded reader (it stops past `maxBytes`, reads
 * and drops a bounded rest, holds nothing of it); past the limit, the answer to send instead: a
 * `413` with a JSON-RPC error for `id: null`, as the MCP SDK's transport answers a body over its
 * own limit (`-32000`), `error.data` holding the stable code.
 */
async function readText(request: Request, maxBytes: number): Promise<string | Response> {
  try {
    return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
  } catch (error) {
    if (!isOwnError(error) || error.code !== 'BODY_TOO_LARGE') throw error;
    const data = { code: error.code, status: 413 };
    return Response.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `${error.message} (MOCKPOINT_MAX_BODY_BYTES)`, data },
      },
      { status: 413, headers: { connection: 'close' } },
    );
  }
}

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
    // The body is read here, under the body limit, to count a batch's messages.
    let parsedBody: unknown;
    let incoming = request;
    if (request.method === 'POST') {
      const text = await readText(request, options.maxBodyBytes);
      if (typeof text !== 'string') return text;
      try {
        parsedBody = JSON.parse(text);
      } catch {
        // Not JSON: the transport answers it (-32700) as it would have.
        incoming = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
      }
      if (Array.isArray(parsedBody) && parsedBody.length > MAX_BATCH) {
        return Response.json(
          {
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32600,
              message: `a batch of ${parsedBody.length} messages; at most ${MAX_BATCH} in one POST`,
            },
          },
          { status: 400 },
        );
      }
    }
    const server = createMcpServer(target, await tools, { perMessage: true });
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: options.maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(incoming, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      // Stateless, JSON answers: the answer is whole; nothing of this server outlives it.
      await server.close();
    }
  };
}
