/**
 * The parts of the official MCP SDK (`@modelcontextprotocol/sdk`, a pinned
 * devDependency) that mockpoint's MCP server uses: the low-level `Server`, the
 * stdio and web-standard Streamable HTTP transports, and the request schemas.
 * The build bundles this file alone, minified and without a source map, into
 * `dist/mcp-sdk.js` (tsup.config.ts): the SDK as installed brings express, its
 * own zod and more (29.4 MB measured), its server side bundled is 0.16 MB (ajv left out).
 * Only `mockpoint mcp` and the first request to `/api/mcp` load it.
 *
 * @module
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
