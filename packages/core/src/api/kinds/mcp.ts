/**
 * The mcp kind: a fake MCP server over Streamable HTTP (routes only; see
 * docs/mcp.md).
 *
 * @module
 */

import { answerKind } from '../answer-kind.js';
import { checkMcp, createMcpSchemas, mcpFromJson } from '../mcp-json.js';

export const mcpKind = answerKind({
  key: 'mcp',
  noun: 'an mcp answer',
  code: 'INVALID_MCP',
  schema: (parts) => createMcpSchemas(parts.data).answer,
  describe:
    'A fake MCP server over Streamable HTTP (POST JSON-RPC): initialize, tools/list and tools/call (results templated over {{arguments.x}}), resources, prompts, ping (routes only; beside it only setState). See docs/mcp.md.',
  fromJson: mcpFromJson,
  beside: { fields: ['setState'], says: 'the fake server (with setState beside it)' },
  readsBody: true,
  routesOnly: true,
  checkOrder: 2,
  check(answer, { at }) {
    checkMcp(answer.mcp as NonNullable<typeof answer.mcp>, `routes[${at}].answer.mcp`, at);
  },
  forms: { wiremock: false, mockoon: false },
});
