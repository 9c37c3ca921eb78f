/**
 * Registers `/api/mcp` (docs/mcp.md) on the daemon's app, after the guards of
 * `/api/*` (Host, Origin, admin token), which apply to it as to every admin
 * route. The MCP SDK is loaded on the first request only: an idle daemon never
 * loads it.
 *
 * @module
 */
import type { MockpointApp } from '@mockpoint/core';

export function registerMcpRoute(app: MockpointApp): void {
  let handler: Promise<(request: Request) => Promise<Response>> | undefined;
  app.all('/api/mcp', async (c) => {
    handler ??= import('./mcp/mcp-http.js').then(({ mcpHttpHandler }) =>
      mcpHttpHandler(app, {
        token: app.mockpoint.options.adminToken,
        maxBodyBytes: app.mockpoint.options.maxBodyBytes,
      }),
    );
    return (await handler)(c.req.raw);
  });
}
