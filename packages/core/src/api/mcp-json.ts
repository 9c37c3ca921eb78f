/**
 * A fake MCP server as it crosses the wire (docs/mcp.md): the route answer
 * `mcp: { tools, resources?, prompts? }`, the request filter's `mcp` field
 * (the JSON-RPC method and tool name), their zod schemas and the checks the
 * schema cannot state (unique names, one of result/error, template syntax,
 * counts). Runtime-neutral: the protocol itself is engine/pipeline/mcp-answer.ts.
 *
 * @module
 */
import { z } from 'zod';
import { isBase64 } from '../codec/base64.js';
import { JsonText, jsonTextOf, scanJson } from '../codec/json-text.js';
import { MockpointError } from '../registry/errors.js';
import { jsonStringTokens, templateSyntaxProblem } from '../template/template-syntax.js';

/** A JSON-RPC error a tool call answers instead of a result. */
interface McpRpcError {
  /** The JSON-RPC error code, e.g. -32603. */
  code: number;
  message: string;
  data?: unknown;
}

/** One tool of a fake MCP server. */
export interface McpTool {
  /** 1–128 characters of `A–Z a–z 0–9 _ - .`, unique in the answer. */
  name: string;
  title?: string;
  description?: string;
  /** The JSON Schema of its arguments (an object schema); the arguments of each call are checked against it. @default { type: 'object' } */
  inputSchema?: Record<string, unknown>;
  /**
   * What a call answers: a string is one text content; an object is the whole
   * `CallToolResult` (`content`, `structuredContent`, `isError`), sent as its
   * exact text. Strings in it are templates over the call (`{{arguments.a.b}}`).
   */
  result?: unknown;
  /**
   * The call fails: a string is a tool error the model sees (`isError: true`
   * with that text); `{ code, message, data? }` a JSON-RPC error.
   */
  error?: string | McpRpcError;
}

/** One of MCP's `contents` of a `resources/read` result: text or bytes (base64), as a real server answers it. */
export interface McpResourceContents {
  /** @default the resource's uri */
  uri?: string;
  mimeType?: string;
  text?: string;
  /** Bytes, in standard base64. */
  blob?: string;
  _meta?: Record<string, unknown>;
}

/**
 * One resource: `resources/list` lists it, `resources/read` answers its `text`
 * exactly, or its `contents` as MCP writes them (one of the two).
 */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  text?: string;
  contents?: McpResourceContents[];
}

/** MCP's content block: `{ type: 'text', text }` (its text a template), or an image, audio or resource block as is. */
export type McpContent =
  | { type: 'text'; text: string; [key: string]: unknown }
  | { type: string; [key: string]: unknown };

/**
 * One message of a prompt: the short form `{ role, text }`, or MCP's own
 * `{ role, content: { type, … } }` (what a real server's `prompts/get` answers).
 */
export type McpPromptMessage =
  | { role: 'user' | 'assistant'; text: string }
  | { role: 'user' | 'assistant'; content: McpContent };

/** One prompt: `prompts/get` answers its messages, their texts templated over the prompt's arguments. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  messages: McpPromptMessage[];
}

/** The template text of a prompt message (the short form's, or a text content's), if it has one. */
export function promptMessageText(message: McpPromptMessage): string | undefined {
  if ('text' in message) return message.text;
  return message.content.type === 'text' && typeof message.content.text === 'string' ? message.content.text : undefined;
}

/** A route answer that speaks MCP over Streamable HTTP. */
export interface McpAnswer {
  /** `serverInfo` of the initialize result. @default { name: the endpoint's name, version: '1.0.0' } */
  serverInfo?: { name: string; version: string };
  /** `instructions` of the initialize result. */
  instructions?: string;
  tools?: McpTool[];
  resources?: McpResource[];
  prompts?: McpPrompt[];
  /** Answer requests as a `text/event-stream` (one event) when the client accepts one. @default false (JSON) */
  sse?: boolean;
}

/** The request filter's `mcp` field: the JSON-RPC method, and for `tools/call` the tool. */
export interface McpFilter {
  /** E.g. `tools/call`, `initialize`, `notifications/initialized`. */
  method?: string;
  /** The tool a `tools/call` names (`params.name`). */
  tool?: string;
}

/** The zod schema of the request filter's `mcp` field. */
export function createMcpFilterSchema() {
  return z
    .strictObject({
      method: z.string().min(1).max(256).optional().describe('The JSON-RPC method, e.g. tools/call.'),
      tool: z.string().min(1).max(128).optional().describe('The tool a tools/call names.'),
    })
    .meta({
      title: 'McpFilter',
      description: 'MCP (JSON-RPC) requests by their method and, for tools/call, the tool name. See docs/mcp.md.',
    });
}

/** The most tools, resources or prompts one answer has. */
const MAX_MCP_ITEMS = 256;
/** MCP's tool-name rule. */
const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The zod schemas of the shapes above. `data` is the schema of any exact JSON value. */
export function createMcpSchemas(data: z.ZodType) {
  const text = z.string();
  const rpcError = z.strictObject({
    code: z.number().int().describe('The JSON-RPC error code, e.g. -32603.'),
    message: z.string(),
    data: data.optional(),
  });
  const tool = z
    .strictObject({
      name: z.string().regex(MCP_TOOL_NAME).describe('1-128 characters of A-Z a-z 0-9 _ - . (unique).'),
      title: text.optional(),
      description: text.optional(),
      inputSchema: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The JSON Schema of its arguments; each call is checked against it. Default { "type": "object" }.'),
      result: data
        .optional()
        .describe(
          'A string (one text content) or the whole CallToolResult, sent as its exact text; strings are templates over the call ({{arguments.a.b}}).',
        ),
      error: z
        .union([text, rpcError])
        .optional()
        .describe('A string: a tool error the model sees (isError: true); { code, message }: a JSON-RPC error.'),
    })
    .meta({ title: 'McpTool' });
  const meta = z.record(z.string(), z.unknown()).optional();
  const contents = z
    .strictObject({
      uri: z.string().min(1).max(2048).optional().describe("Default: the resource's uri."),
      mimeType: z.string().max(256).optional(),
      text: text.optional(),
      blob: z.string().optional().describe('Bytes, in standard base64.'),
      _meta: meta,
    })
    .meta({ title: 'McpResourceContents', description: 'Text or blob (one of them), as MCP writes contents.' });
  const resource = z.strictObject({
    uri: z.string().min(1).max(2048),
    name: z.string().min(1).max(256),
    title: text.optional(),
    description: text.optional(),
    mimeType: z.string().max(256).optional(),
    text: text.optional().describe('The contents resources/read answers, exactly (or give contents).'),
    contents: z
      .array(contents)
      .min(1)
      .max(MAX_MCP_ITEMS)
      .optional()
      .describe("MCP's own contents, as a real server's resources/read answers them (or give text)."),
  });
  const role = z.enum(['user', 'assistant']);
  const content = z.union([
    z.strictObject({
      type: z.literal('text'),
      text: text.describe('A template: {{arguments.x}}.'),
      annotations: meta,
      _meta: meta,
    }),
    z
      .looseObject({ type: z.enum(['image', 'audio', 'resource', 'resource_link']) })
      .describe('An image, audio, embedded resource or resource link block, answered as given.'),
  ]);
  const prompt = z.strictObject({
    name: z.string().min(1).max(256),
    title: text.optional(),
    description: text.optional(),
    arguments: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(256),
          description: text.optional(),
          required: z.boolean().optional(),
        }),
      )
      .max(MAX_MCP_ITEMS)
      .optional(),
    messages: z
      .array(
        z.union([
          z.strictObject({ role, text: text.describe('A template: {{arguments.x}}.') }),
          z.strictObject({ role, content }).describe("MCP's own message, as a real server's prompts/get answers it."),
        ]),
      )
      .max(MAX_MCP_ITEMS),
  });
  const answer = z
    .strictObject({
      serverInfo: z.strictObject({ name: z.string().min(1).max(256), version: z.string().min(1).max(64) }).optional(),
      instructions: text.optional(),
      tools: z.array(tool).max(MAX_MCP_ITEMS).optional(),
      resources: z.array(resource).max(MAX_MCP_ITEMS).optional(),
      prompts: z.array(prompt).max(MAX_MCP_ITEMS).optional(),
      sse: z.boolean().optional().describe('Answer as text/event-stream when the client accepts it; default JSON.'),
    })
    .meta({
      title: 'McpAnswer',
      description:
        'A fake MCP server over Streamable HTTP (routes only; see docs/mcp.md): initialize, tools, resources, prompts, ping; each JSON-RPC message is a journal entry.',
    });
  return { answer };
}

function invalid(where: string, message: string, index: number): never {
  throw new MockpointError('INVALID_MCP', `${where}: ${message}`, { details: { index } });
}

function checkTemplate(text: string, where: string, index: number): void {
  const problem = templateSyntaxProblem(text);
  if (problem !== undefined) {
    throw new MockpointError('INVALID_TEMPLATE', `${where}: ${problem}`, { details: { index } });
  }
}

function unique(names: readonly string[], what: string, where: string, index: number): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) invalid(where, `two ${what} are named ${JSON.stringify(name)}`, index);
    seen.add(name);
  }
}

/**
 * Checks an `mcp` answer beyond its schema: unique tool, prompt and resource
 * names, each tool with exactly one of result and error, an object input
 * schema, and every template (results, errors, prompt messages) parsed.
 */
export function checkMcp(mcp: McpAnswer, where: string, index: number): void {
  const tools = mcp.tools ?? [];
  unique(
    tools.map((tool) => tool.name),
    'tools',
    where,
    index,
  );
  unique(
    (mcp.prompts ?? []).map((prompt) => prompt.name),
    'prompts',
    where,
    index,
  );
  unique(
    (mcp.resources ?? []).map((resource) => resource.uri),
    'resources (uri)',
    where,
    index,
  );
  tools.forEach((tool, i) => {
    const at = `${where}.tools[${i}]`;
    const has = [tool.result !== undefined && 'result', tool.error !== undefined && 'error'].filter(Boolean);
    if (has.length !== 1) invalid(at, `give exactly one of result and error (${tool.name})`, index);
    if (tool.inputSchema !== undefined && tool.inputSchema.type !== 'object') {
      invalid(at, 'inputSchema is a JSON Schema of an object: { "type": "object", "properties": … }', index);
    }
    if (tool.result !== undefined) {
      for (const token of jsonStringTokens(jsonTextOf(tool.result))) checkTemplate(token.value, `${at}.result`, index);
    }
    if (typeof tool.error === 'string') checkTemplate(tool.error, `${at}.error`, index);
    else if (tool.error !== undefined) checkTemplate(tool.error.message, `${at}.error.message`, index);
  });
  (mcp.prompts ?? []).forEach((prompt, i) => {
    prompt.messages.forEach((message, j) => {
      const template = promptMessageText(message);
      const at = `${where}.prompts[${i}].messages[${j}]${'text' in message ? '.text' : '.content.text'}`;
      if (template !== undefined) checkTemplate(template, at, index);
    });
  });
  (mcp.resources ?? []).forEach((resource, i) => {
    const at = `${where}.resources[${i}]`;
    if ((resource.text === undefined) === (resource.contents === undefined)) {
      invalid(at, `give exactly one of text and contents (${resource.uri})`, index);
    }
    resource.contents?.forEach((item, j) => {
      if ((item.text === undefined) === (item.blob === undefined)) {
        invalid(`${at}.contents[${j}]`, 'give exactly one of text and blob', index);
      }
      if (item.blob !== undefined && !isBase64(item.blob)) {
        invalid(`${at}.contents[${j}]`, 'blob is standard padded base64', index);
      }
    });
  });
}

/** An `mcp` answer from its JSON text, each tool's `result` kept as its exact text. */
export function mcpFromJson(text: string): unknown {
  const members = text.startsWith('{') ? scanJson(text).members : undefined;
  if (members === undefined) return JSON.parse(text);
  return Object.fromEntries(
    [...members].map(([key, value]) => {
      if (key !== 'tools' || !value.startsWith('[')) return [key, JSON.parse(value)];
      const tools = (scanJson(value).elements ?? []).map((element) => {
        const fields = element.startsWith('{') ? scanJson(element).members : undefined;
        if (fields === undefined) return JSON.parse(element);
        return Object.fromEntries(
          [...fields].map(([name, field]) => [name, name === 'result' ? new JsonText(field) : JSON.parse(field)]),
        );
      });
      return [key, tools];
    }),
  );
}
