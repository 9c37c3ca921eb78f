/**
 * A fake MCP server (docs/mcp.md): the route answer `mcp` speaks the Model
 * Context Protocol over Streamable HTTP, enough for an MCP client under test.
 * Each POST carries one JSON-RPC message: `initialize` answers the protocol
 * version, the capabilities of what the answer has, `serverInfo` and an
 * `Mcp-Session-Id`; `ping`, `tools/list`, `tools/call` (the arguments checked
 * against the tool's `inputSchema`, its result or error templated over them),
 * `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list`
 * and `prompts/get`; notifications and responses are accepted with 202; any
 * other method, an unknown tool, resource or prompt, or bad params get their
 * JSON-RPC error. Answers are JSON, or one `text/event-stream` event when the
 * answer says `sse: true` (or the client accepts only that). Runtime-neutral:
 * plain answers of the `respond` kind, no SDK. Every message is journaled as
 * any request is (the filter's `mcp` field matches its method and tool).
 *
 * @module
 */

import type { EndpointAnswer } from '../../answer/endpoint-answer.js';
import { CORS_HEADERS } from '../../answer/read-response.js';
import { Run, SchemaProgram } from '../../answer/routes/json-schema/schema-program.js';
import { validate } from '../../answer/routes/json-schema/validate.js';
import type { RouteHit } from '../../answer/routes/route-table.js';
import { compileJsonTemplate, renderJson, renderText, type TemplateContext } from '../../answer/template.js';
import { type McpAnswer, type McpPrompt, type McpTool, promptMessageText } from '../../api/mcp-json.js';
import { jsonTextOf } from '../../codec/json-text.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { utf8Length } from '../../codec/utf8-length.js';
import type { AnswerMark } from '../../journal/journal-entry.js';
import { NOT_JSON } from '../../journal/request-filter.js';
import { isMockpointError } from '../../registry/errors.js';
import { parseTemplate } from '../../template/template-syntax.js';
import type { Exchange } from './exchange.js';
import type { Verdict } from './step.js';
import { renderFailed } from './verdicts.js';

/** The protocol versions this fake speaks; an unknown one asked for gets the newest. */
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** JSON-RPC error codes (JSON-RPC 2.0 and MCP). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;

type Id = string | number | null;

/** A JSON-RPC answer: a result or an error, for the request with `id`. */
type Reply = { result: string } | { error: { code: number; message: string; data?: unknown } | string };

/** An error reply whose `data` (if any) is already JSON text. */
function rpcError(code: number, message: string): Reply {
  return { error: { code, message } };
}

/** The JSON-RPC message text for `reply`; a result is exact JSON text already. */
export function mcpMessageText(id: Id, reply: Reply): string {
  const idText = JSON.stringify(id);
  if ('result' in reply) return `{"jsonrpc":"2.0","id":${idText},"result":${reply.result}}`;
  const error = typeof reply.error === 'string' ? reply.error : JSON.stringify(reply.error);
  return `{"jsonrpc":"2.0","id":${idText},"error":${error}}`;
}

/** Compiled input schemas, by tool (a route's tools live as long as its table). */
const programs = new WeakMap<McpTool, SchemaProgram | string>();

function programOf(tool: McpTool): SchemaProgram | string {
  let program = programs.get(tool);
  if (program === undefined) {
    try {
      program = new SchemaProgram((tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>);
      validate({}, program.root, new Run(program));
    } catch (error) {
      program = `the tool's inputSchema cannot be used: ${(error as Error).message.split('\n')[0]}`;
    }
    programs.set(tool, program);
  }
  return program;
}

/** Why `args` do not fit the tool's input schema, or `undefined` when they do. */
function argumentsProblem(tool: McpTool, args: unknown): string | undefined {
  const program = programOf(tool);
  if (typeof program === 'string') return program;
  try {
    const result = validate(args, program.root, new Run(program));
    if (result.valid) return undefined;
    const first = result.errors.at(-1);
    return first === undefined ? 'arguments do not fit the inputSchema' : `${first.instanceLocation}: ${first.error}`;
  } catch (error) {
    return `arguments could not be checked: ${(error as Error).message}`;
  }
}

/** A context whose `{{arguments…}}` are `args`. */
function withArguments(context: TemplateContext, args: unknown): TemplateContext {
  return { ...context, arguments: args };
}

/** A template string rendered as text. */
function renderString(text: string, context: TemplateContext): string {
  return renderText(parseTemplate(text), context);
}

function callTool(tool: McpTool, args: Record<string, unknown>, context: TemplateContext): Reply {
  const problem = argumentsProblem(tool, args);
  if (problem !== undefined) return rpcError(INVALID_PARAMS, `invalid arguments for tool ${tool.name}: ${problem}`);
  const ctx = withArguments(context, args);
  if (tool.error !== undefined) {
    if (typeof tool.error === 'string') {
      const text = renderString(tool.error, ctx);
      return { result: JSON.stringify({ content: [{ type: 'text', text }], isError: true }) };
    }
    const { code, message, data } = tool.error;
    const rendered = renderString(message, ctx);
    const dataText = data === undefined ? '' : `,"data":${jsonTextOf(data)}`;
    return { error: `{"code":${JSON.stringify(code)},"message":${JSON.stringify(rendered)}${dataText}}` };
  }
  const text = jsonTextOf(tool.result);
  const rendered = renderJson(compileJsonTemplate(text), ctx);
  if (text.startsWith('"')) {
    return { result: JSON.stringify({ content: [{ type: 'text', text: JSON.parse(rendered) as string }] }) };
  }
  return { result: rendered };
}

function getPrompt(prompt: McpPrompt, args: Record<string, unknown>, context: TemplateContext): Reply {
  for (const argument of prompt.arguments ?? []) {
    if (argument.required === true && typeof args[argument.name] !== 'string') {
      return rpcError(INVALID_PARAMS, `prompt ${prompt.name} needs the argument ${argument.name}`);
    }
  }
  const ctx = withArguments(context, args);
  const messages = prompt.messages.map((message) => {
    if ('text' in message)
      return { role: message.role, content: { type: 'text', text: renderString(message.text, ctx) } };
    const { content } = message;
    // MCP's own shape: a text content's text is a template; any other block is answered as given.
    const text = promptMessageText(message);
    return {
      role: message.role,
      content: text === undefined ? content : { ...content, text: renderString(text, ctx) },
    };
  });
  const result: Record<string, unknown> = { messages };
  if (prompt.description !== undefined) result.description = prompt.description;
  return { result: JSON.stringify(result) };
}

/** Fields of an item as `…/list` shows them. */
function listed<T extends object>(item: T, keys: readonly (keyof T)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (item[key] !== undefined) out[key as string] = item[key];
  return out;
}

function objectParams(params: unknown): Record<string, unknown> | undefined {
  if (params === undefined) return {};
  return typeof params === 'object' && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/** The reply to one request of `method` with `params`. */
function reply(mcp: McpAnswer, name: string, method: string, params: unknown, context: TemplateContext): Reply {
  const p = objectParams(params);
  if (p === undefined) return rpcError(INVALID_PARAMS, 'params is an object');
  switch (method) {
    case 'initialize': {
      const asked = p.protocolVersion;
      const protocolVersion = typeof asked === 'string' && VERSIONS.includes(asked) ? asked : VERSIONS[0];
      const capabilities: Record<string, unknown> = {};
      if (mcp.tools !== undefined) capabilities.tools = { listChanged: false };
      if (mcp.resources !== undefined) capabilities.resources = { subscribe: false, listChanged: false };
      if (mcp.prompts !== undefined) capabilities.prompts = { listChanged: false };
      const result: Record<string, unknown> = {
        protocolVersion,
        capabilities,
        serverInfo: mcp.serverInfo ?? { name, version: '1.0.0' },
      };
      if (mcp.instructions !== undefined) result.instructions = mcp.instructions;
      return { result: JSON.stringify(result) };
    }
    case 'ping':
      return { result: '{}' };
    case 'tools/list':
      return {
        result: JSON.stringify({
          tools: (mcp.tools ?? []).map((tool) => ({
            ...listed(tool, ['name', 'title', 'description']),
            inputSchema: tool.inputSchema ?? { type: 'object' },
          })),
        }),
      };
    case 'tools/call': {
      const tool = typeof p.name === 'string' ? mcp.tools?.find((t) => t.name === p.name) : undefined;
      if (tool === undefined) return rpcError(INVALID_PARAMS, `unknown tool: ${String(p.name)}`);
      const args = p.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        return rpcError(INVALID_PARAMS, 'arguments is an object');
      }
      return callTool(tool, args as Record<string, unknown>, context);
    }
    case 'resources/list':
      return {
        result: JSON.stringify({
          resources: (mcp.resources ?? []).map((r) => listed(r, ['uri', 'name', 'title', 'description', 'mimeType'])),
        }),
      };
    case 'resources/templates/list':
      return { result: '{"resourceTemplates":[]}' };
    case 'resources/read': {
      const resource = mcp.resources?.find((r) => r.uri === p.uri);
      if (resource === undefined) {
        return { error: { code: RESOURCE_NOT_FOUND, message: 'Resource not found', data: { uri: p.uri } } };
      }
      if (resource.contents !== undefined) {
        // MCP's own contents, as given; an item without a uri is the resource's.
        const contents = resource.contents.map(({ uri, ...rest }) => ({ uri: uri ?? resource.uri, ...rest }));
        return { result: JSON.stringify({ contents }) };
      }
      const content: Record<string, unknown> = { uri: resource.uri, text: resource.text };
      if (resource.mimeType !== undefined) content.mimeType = resource.mimeType;
      return { result: JSON.stringify({ contents: [content] }) };
    }
    case 'prompts/list':
      return {
        result: JSON.stringify({
          prompts: (mcp.prompts ?? []).map((prompt) => listed(prompt, ['name', 'title', 'description', 'arguments'])),
        }),
      };
    case 'prompts/get': {
      const prompt = typeof p.name === 'string' ? mcp.prompts?.find((x) => x.name === p.name) : undefined;
      if (prompt === undefined) return rpcError(INVALID_PARAMS, `unknown prompt: ${String(p.name)}`);
      const args = objectParams(p.arguments);
      if (args === undefined) return rpcError(INVALID_PARAMS, 'arguments is an object');
      return getPrompt(prompt, args, context);
    }
    default:
      return rpcError(METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
}

const NO_STORE = 'no-store';

function answerOf(
  exchange: Exchange,
  status: number,
  body: string | null,
  type: string | undefined,
  extra: Record<string, string> = {},
): EndpointAnswer {
  const headers: Record<string, string> = { ...CORS_HEADERS, 'cache-control': NO_STORE, ...extra };
  if (type !== undefined) headers['content-type'] = type;
  headers['content-length'] = String(body === null ? 0 : utf8Length(body));
  return { kind: 'respond', status, headers, body: exchange.head ? null : body, delay: 0 };
}

/** One JSON-RPC message as a JSON body, or as one SSE event when that is what is sent. */
export function sentToMcp(
  exchange: Exchange,
  mcp: McpAnswer,
  status: number,
  text: string,
  extra?: Record<string, string>,
): EndpointAnswer {
  const accept = rawHeader(exchange.request.rawHeaders, 'accept') ?? '';
  const sse = /text\/event-stream/i.test(accept) && (mcp.sse === true || !/application\/json|\*\/\*/i.test(accept));
  if (sse) return answerOf(exchange, status, `event: message\ndata: ${text}\n\n`, 'text/event-stream', extra);
  return answerOf(exchange, status, text, 'application/json', extra);
}

/** The answer of an `mcp` route to this request. */
export function mcpVerdict(exchange: Exchange, hit: RouteHit, mcp: McpAnswer): Verdict {
  const { route, params } = hit;
  const seq = ++route.seq;
  const mark: AnswerMark = { answeredBy: { route: route.id }, params };
  const method = exchange.request.method;
  if (method !== 'POST') {
    // No server-initiated stream (GET) and no session to end (DELETE): Streamable HTTP's 405.
    const allow = method === 'OPTIONS' ? 204 : 405;
    return { answer: answerOf(exchange, allow, null, undefined, { allow: 'POST' }), mark };
  }
  const view = exchange.view;
  const message = view.bodyTruncated ? NOT_JSON : view.json;
  if (message === NOT_JSON) {
    return { answer: sentToMcp(exchange, mcp, 400, mcpMessageText(null, rpcError(PARSE_ERROR, 'Parse error'))), mark };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    const why = Array.isArray(message) ? 'Invalid Request: batches are not supported' : 'Invalid Request';
    return { answer: sentToMcp(exchange, mcp, 400, mcpMessageText(null, rpcError(INVALID_REQUEST, why))), mark };
  }
  const { id, method: rpcMethod, params: rpcParams } = message as { id?: unknown; method?: unknown; params?: unknown };
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  // A notification (no id) or a response to us: accepted, nothing to answer.
  if (id === undefined || (rpcMethod === undefined && validId)) {
    return { answer: answerOf(exchange, 202, null, undefined), mark };
  }
  if (!validId || typeof rpcMethod !== 'string') {
    const replyId = validId ? (id as string | number) : null;
    return {
      answer: sentToMcp(exchange, mcp, 400, mcpMessageText(replyId, rpcError(INVALID_REQUEST, 'Invalid Request'))),
      mark,
    };
  }
  let answered: Reply;
  try {
    answered = reply(mcp, exchange.name, rpcMethod, rpcParams, exchange.context(params, seq));
  } catch (error) {
    if (isMockpointError(error)) return renderFailed(exchange, mark, `route ${route.id}`, error, { route: route.id });
    throw error;
  }
  const extra: Record<string, string> =
    rpcMethod === 'initialize' && 'result' in answered ? { 'mcp-session-id': crypto.randomUUID() } : {};
  return { answer: sentToMcp(exchange, mcp, 200, mcpMessageText(id as string | number, answered), extra), mark };
}
