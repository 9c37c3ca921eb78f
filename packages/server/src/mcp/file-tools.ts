/**
 * The MCP tools that are no single API operation: sending a request to an
 * endpoint's public URL, and mock files (apply, export, import), each through
 * the same functions `mockpoint apply`, `export` and `import` use, against the
 * API only.
 *
 * @module
 */
import type { MockpointClient } from '@mockpoint/core/client';
import {
  type AdminTarget,
  applyMockFile,
  exportMockFile,
  parseMockFile,
  parseMockFileInTurns,
} from '@mockpoint/core/files';
import { type AnswerBudget, escapedPrefix } from './answer-budget.js';
import type { ToolAnswer } from './api-tools.js';
import { TEXT_IMPORT_KINDS, textImporter } from './text-imports.js';

/** What one call shares with the other calls of its MCP message. */
export interface CallContext {
  /** What the `call_endpoint` calls of the message may answer together (none: each call's own bound only). */
  budget?: AnswerBudget;
}

/** A tool with its own call. */
export interface FileTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
  call(
    target: AdminTarget,
    client: MockpointClient,
    args: Record<string, unknown>,
    context?: CallContext,
  ): Promise<ToolAnswer>;
}

const NAME = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: "The endpoint's name" };
const FORMAT = { type: 'string', enum: ['json', 'yaml'], description: 'The mock file format (default json)' };
/** Largest mock file or document text a tool takes (the API's own limits apply to what it writes). */
const MAX_TEXT = 16 * 1024 * 1024;
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/**
 * The most of an answer's body `call_endpoint` reads (a proxy route may relay an endless one),
 * and the most characters the body takes in its text, escaped as a JSON string.
 */
const MAX_CALL_BODY_BYTES = 1024 * 1024;
/** How long `call_endpoint` waits for an answer and its body (a held or endless answer must end). */
const CALL_TIMEOUT_MS = 60_000;

/** Up to `max` bytes of `answer`'s body as text (cancelled past it), and whether it was cut. */
async function boundedText(answer: Response, max: number): Promise<{ body: string; truncated: boolean }> {
  if (answer.body === null) return { body: '', truncated: false };
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      chunks.push(value.subarray(0, max - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated };
}

function text(args: Record<string, unknown>, field: string): string {
  const value = args[field];
  if (typeof value !== 'string') throw argument(`"${field}" is required: a string`);
  if (value.length > MAX_TEXT) throw argument(`"${field}" is longer than ${MAX_TEXT} characters`);
  return value;
}

function argument(message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code: 'INVALID_ARGUMENT' });
}

function endpointName(args: Record<string, unknown>): string {
  const name = args.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw argument('"name" is 1-64 characters of A-Z a-z 0-9 _ -');
  }
  return name;
}

function formatOf(args: Record<string, unknown>): 'json' | 'yaml' {
  const format = args.format ?? 'json';
  if (format !== 'json' && format !== 'yaml') throw argument('"format" is json or yaml');
  return format;
}

export const FILE_TOOLS: readonly FileTool[] = [
  {
    name: 'call_endpoint',
    description:
      "Send one HTTP request to an endpoint's public URL (/endpoint/{name}/{subpath}), as the code under test would; answers its status, headers and body text. The request is journaled.",
    inputSchema: {
      type: 'object',
      properties: {
        name: NAME,
        subpath: { type: 'string', maxLength: 2048, description: 'The path below the endpoint, e.g. /users/1?x=y' },
        method: { type: 'string', enum: HTTP_METHODS, description: 'default GET' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        body: { type: 'string', description: 'The request body, as is' },
      },
      required: ['name'],
    },
    async call(target, _client, args, context = {}) {
      const name = endpointName(args);
      const subpath = args.subpath === undefined ? '' : text(args, 'subpath');
      const method = args.method ?? 'GET';
      if (typeof method !== 'string' || !HTTP_METHODS.includes(method)) {
        throw argument(`"method" is one of ${HTTP_METHODS.join(', ')}`);
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries((args.headers ?? {}) as Record<string, unknown>)) {
        try {
          headers.set(key, String(value));
        } catch {
          throw argument(`the header ${JSON.stringify(key)} is not a valid HTTP header`);
        }
      }
      const body = args.body === undefined ? undefined : text(args, 'body');
      if (body !== undefined && (method === 'GET' || method === 'HEAD'))
        throw argument(`a ${method} request has no body`);
      const path = subpath === '' || subpath === '/' ? '' : subpath.startsWith('/') ? subpath : `/${subpath}`;
      let url: URL;
      try {
        url = new URL(`${target.url.replace(/\/+$/, '')}/endpoint/${encodeURIComponent(name)}${path}`);
      } catch {
        throw argument('"subpath" does not make a URL');
      }
      // Dot segments (`/../`, `%2e%2e`) are resolved by the URL parser: the request must stay below the endpoint.
      const base = `/endpoint/${encodeURIComponent(name)}`;
      if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) {
        throw argument(`"subpath" must stay below ${base} (no ../ segments)`);
      }
      const send = target.fetch ?? ((request: Request) => fetch(request));
      const signal = AbortSignal.timeout(CALL_TIMEOUT_MS);
      // Reserved before the read (each byte is at least one character), what the escaped body leaves given back.
      const reserved = context.budget ? context.budget.take(MAX_CALL_BODY_BYTES) : MAX_CALL_BODY_BYTES;
      let answer: Response;
      let read: { body: string; truncated: boolean };
      try {
        answer = await send(new Request(url, { method, headers, body, signal }));
        read = await boundedText(answer, reserved);
      } catch (error) {
        context.budget?.giveBack(reserved);
        if (!signal.aborted) throw error;
        throw Object.assign(
          new Error(
            `the endpoint's answer did not end within ${CALL_TIMEOUT_MS / 1000} s (a held, delayed or endless answer); read it with curl instead`,
          ),
          { code: 'UPSTREAM_TIMEOUT' },
        );
      }
      const answerHeaders: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        answerHeaders[key] = value;
      });
      // Past the bytes reserved the body is cut (at a byte; the last character may be broken), then
      // where its JSON string would pass as many characters (control characters take 6), and said so.
      const { kept, escapedLength } = escapedPrefix(read.body, reserved);
      context.budget?.giveBack(reserved - escapedLength);
      const cutAt = kept.length < read.body.length ? Buffer.byteLength(kept) : read.truncated ? reserved : undefined;
      const cut = cutAt === undefined ? {} : { truncated: true, truncatedAt: cutAt };
      return {
        text: JSON.stringify({ status: answer.status, headers: answerHeaders, body: kept, ...cut }),
        isError: false,
      };
    },
  },
  {
    name: 'apply_mock_file',
    description:
      'Make the daemon hold a mock file (mockpoint.yaml / .json; its JSON Schema is /api/config.schema.json), as `mockpoint apply` does: each name it defines is written whole; answers the plan (created, changed, unchanged, removed, and the hosts moved from another endpoint).',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The mock file text (data kept exact)' },
        format: FORMAT,
        prune: { type: 'boolean', description: 'Also remove the names the file does not define' },
        dryRun: { type: 'boolean', description: 'Plan only: change nothing' },
      },
      required: ['text'],
    },
    async call(target, _client, args) {
      const file = parseMockFile(text(args, 'text'), { file: 'mcp', format: formatOf(args) });
      const plan = await applyMockFile(file, target, { prune: args.prune === true, dryRun: args.dryRun === true });
      return { text: JSON.stringify(plan), isError: false };
    },
  },
  {
    name: 'export_mock_file',
    description:
      "Every name holding anything (records, routes, queued answers, collections, hosts, GraphQL schemas, protobuf definitions, chaos, signature checks with their secrets, the state's start) as a mock file, every data exact, as `mockpoint export` writes it.",
    inputSchema: {
      type: 'object',
      properties: {
        names: {
          type: 'array',
          items: NAME,
          description: 'Only these names (default: every name holding anything a mock file carries)',
        },
        format: FORMAT,
      },
      required: [],
    },
    async call(target, _client, args) {
      const names = args.names;
      if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
        throw argument('"names" is a list of endpoint names');
      }
      const format = formatOf(args);
      const exported = await exportMockFile(target, names === undefined ? { format } : { names, format });
      return { text: exported, isError: false };
    },
  },
  {
    name: 'import_mock_file',
    description:
      'Turn an OpenAPI 3.x/Swagger 2 document, a HAR recording, a Pact file, a json-server database or a GraphQL SDL schema into a mock file for one endpoint, as `mockpoint import` does; with apply: true also apply it. Answers the mock file (and the plan, and what was left out).',
    inputSchema: {
      type: 'object',
      properties: {
        kind: { type: 'string', enum: TEXT_IMPORT_KINDS },
        text: { type: 'string', description: "The document's text (JSON or YAML for OpenAPI)" },
        name: NAME,
        apply: { type: 'boolean', description: 'Also apply the mock file to the daemon' },
      },
      required: ['kind', 'text', 'name'],
    },
    async call(target, _client, args) {
      const importer = textImporter(args.kind);
      if (importer === undefined) throw argument(`"kind" is ${TEXT_IMPORT_KINDS.join(', ')}`);
      const imported = await importer(text(args, 'text'), endpointName(args));
      // Checked as any mock file (a GraphQL schema is built) before it is answered or applied; a long one a
      // slice of routes per event-loop turn, as the routes API reads a long list.
      const file = await parseMockFileInTurns(imported.text, {
        file: 'import.json',
        format: 'json',
        maxBodyBytes: Infinity,
      });
      const plan = args.apply === true ? await applyMockFile(file, target) : undefined;
      // The mock file as its own text (exact numbers), then what was left out, then the plan.
      const rest = `"notes":${JSON.stringify(imported.notes)}${plan ? `,"plan":${JSON.stringify(plan)}` : ''}`;
      return { text: `{"mockFile":${imported.text.trim()},${rest}}`, isError: false };
    },
  },
];
