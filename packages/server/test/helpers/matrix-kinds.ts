/**
 * The rows of the composition matrix (compose-matrix.test.ts): every kind of
 * answer the daemon gives, each as how to make a name answer that way (with a
 * setting's route or answer members merged in) and how to call it. A new kind
 * of answer is one entry of {@link KINDS}.
 *
 * @module
 */
import {
  type CallOptions,
  connectStreamCall,
  framed,
  grpcNativeCall,
  grpcWebCall,
  httpCall,
  mcpCall,
  type Result,
  webSocketCall,
} from './matrix-calls.js';

/** One cell's place: the daemon, the name it owns, and the namespace it is made in (absent: the default). */
export interface Cell {
  url: string;
  name: string;
  /** The cell's own protobuf package (a service belongs to one name): `p` and the cell's index. */
  pkg: string;
  /** The upstream record a proxy route relays. */
  upstream: string;
  namespace?: string;
}

/** What a setting adds to the kind's route: members of the route (`rateLimit`) and of its answer (`delay`, `setState`; a record's `delay`). */
export interface Extra {
  route?: Record<string, unknown>;
  answer?: Record<string, unknown>;
}

/** Where a setting's members go: a route (`rateLimit`, `setState`), or any answer's `delay` (a record's too). */
export type Place = 'route' | 'delay';

export interface Kind {
  id: string;
  /** Served on Node only (native gRPC needs HTTP/2 trailers: the Fetch path answers `unimplemented`). */
  nodeOnly?: true;
  /** The places the kind has for a setting's members: a record has its `delay` only, a GraphQL schema neither. */
  places: readonly Place[];
  /** Makes the cell's name answer as this kind; resolves the status and body of the save that could refuse. */
  setup(cell: Cell, extra: Extra): Promise<{ status: number; body: string }>;
  /** A queued answer that resets the call (a gRPC call takes a queued answer with a `grpc` member). @default { fault: 'reset' } */
  queuedReset?: Record<string, unknown>;
  /** The request body a signature covers, exactly as {@link call} sends it. */
  body: Uint8Array;
  call(cell: Cell, options?: CallOptions): Promise<Result>;
}

const encoder = new TextEncoder();
/** An answer of about a hundred bytes: the bandwidth cells time how long it takes. */
const TEXT = 'x'.repeat(100);

/** The admin API's base of the cell's namespace. */
function api(cell: Cell): string {
  return cell.namespace === undefined ? `${cell.url}/api` : `${cell.url}/ns/${cell.namespace}/api`;
}

/** The namespace's header on a call (the one way every protocol can name it). */
export function inNamespace(cell: Cell, options: CallOptions = {}): CallOptions {
  if (cell.namespace === undefined) return options;
  return { ...options, headers: { ...options.headers, 'mockpoint-session': cell.namespace } };
}

/** A save through the admin API of the cell's namespace. */
export async function save(cell: Cell, path: string, body: unknown, method = 'PUT') {
  const response = await fetch(`${api(cell)}${path}`, { method, body: JSON.stringify(body) });
  return { status: response.status, body: await response.text() };
}

/** Saves the name's one route (`id: r`), the setting's members merged in. */
function route(cell: Cell, extra: Extra, match: Record<string, unknown>, answer: Record<string, unknown>) {
  const one = { id: 'r', match, ...extra.route, answer: { ...answer, ...extra.answer } };
  return save(cell, `/endpoints/${cell.name}/routes`, { routes: [one] });
}

/** Fails the setup when a save it needs before the one that may refuse fails. */
async function must(saved: Promise<{ status: number; body: string }>): Promise<void> {
  const { status, body } = await saved;
  if (status >= 300) throw new Error(`setup: ${status} ${body}`);
}

function endpointUrl(cell: Cell, subpath = ''): string {
  return `${cell.url}/endpoint/${cell.name}${subpath}`;
}

function httpKind(
  id: string,
  match: Record<string, unknown>,
  answer: (cell: Cell) => Record<string, unknown>,
  request: { subpath?: string; method?: string; body?: string; headers?: Record<string, string> } = {},
  before?: (cell: Cell) => Promise<void>,
): Kind {
  const body = request.body === undefined ? new Uint8Array(0) : encoder.encode(request.body);
  return {
    id,
    places: ['route', 'delay'],
    body,
    async setup(cell, extra) {
      await before?.(cell);
      return route(cell, extra, match, answer(cell));
    },
    call: (cell, options) =>
      httpCall(
        endpointUrl(cell, request.subpath),
        { method: request.method ?? 'GET', headers: request.headers, body: request.body },
        inNamespace(cell, options),
      ),
  };
}

const GRPC_PROTO = (pkg: string) => `syntax = "proto3";
package ${pkg};
message Ask { string text = 1; }
message Say { string text = 1; }
service M { rpc Get(Ask) returns (Say); rpc Many(Ask) returns (stream Say); }
`;

/** `Ask { text: "a" }` in protobuf's binary form. */
const ASK = Uint8Array.of(0x0a, 0x01, 0x61);

/** A gRPC-family kind: the unary `Get`, or (`stream`) the server-streaming `Many` answering two messages. */
function grpcKind(id: string, call: Kind['call'], body: Uint8Array, stream = false): Kind {
  const half = { message: { text: TEXT.slice(50) } };
  return {
    id: `gRPC ${id}`,
    ...(id === 'grpc' ? { nodeOnly: true as const } : {}),
    places: ['route', 'delay'],
    queuedReset: { fault: 'reset', grpc: stream ? { messages: [] } : { message: {} } },
    body,
    async setup(cell, extra) {
      await must(
        save(cell, `/endpoints/${cell.name}/grpc`, { protos: { [`${cell.pkg}.proto`]: GRPC_PROTO(cell.pkg) } }),
      );
      const answer = stream ? { grpc: { messages: [half, half] } } : { grpc: { message: { text: TEXT } } };
      return route(cell, extra, { grpc: { method: stream ? 'Many' : 'Get' } }, answer);
    },
    call,
  };
}

const CONNECT_BODY = encoder.encode('{"text":"a"}');
const MCP_CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}';
const CHAT = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
const CHAT_STREAM = '{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}';
const JSON_POST = { 'content-type': 'application/json' };

/** Every kind of answer, one row each. */
export const KINDS: readonly Kind[] = [
  {
    id: 'record',
    places: ['delay'],
    body: new Uint8Array(0),
    setup: (cell, extra) => save(cell, `/endpoints/${cell.name}`, { data: { text: TEXT }, ...extra.answer }),
    call: (cell, options) => httpCall(endpointUrl(cell), { method: 'GET' }, inNamespace(cell, options)),
  },
  httpKind('route (JSON)', {}, () => ({ data: { text: TEXT } })),
  httpKind('stream (SSE)', {}, () => ({
    stream: { format: 'sse', events: [{ data: TEXT.slice(50) }, { data: TEXT.slice(50) }] },
  })),
  httpKind('stream (NDJSON)', {}, () => ({
    stream: { format: 'ndjson', events: [{ data: TEXT.slice(50) }, { data: TEXT.slice(50) }] },
  })),
  {
    ...httpKind('WebSocket', {}, () => ({ websocket: { onOpen: [{ text: TEXT }] } })),
    call: (cell, options) => webSocketCall(endpointUrl(cell).replace(/^http/, 'ws'), inNamespace(cell, options)),
  },
  {
    id: 'GraphQL (schema)',
    places: [],
    body: encoder.encode('{"query":"{ hello }"}'),
    setup: (cell) => save(cell, `/endpoints/${cell.name}/graphql`, { schema: 'type Query { hello: String }' }),
    call: (cell, options) =>
      httpCall(
        endpointUrl(cell),
        { method: 'POST', headers: JSON_POST, body: '{"query":"{ hello }"}' },
        inNamespace(cell, options),
      ),
  },
  grpcKind(
    'connect',
    (cell, options) =>
      httpCall(
        `${cell.url}/${cell.pkg}.M/Get`,
        { method: 'POST', headers: { ...JSON_POST, 'connect-protocol-version': '1' }, body: '{"text":"a"}' },
        inNamespace(cell, options),
      ),
    CONNECT_BODY,
  ),
  grpcKind(
    'grpc-web',
    (cell, options) => grpcWebCall(cell.url, `/${cell.pkg}.M/Get`, ASK, inNamespace(cell, options)),
    framed(ASK),
  ),
  grpcKind(
    'connect (server stream)',
    (cell, options) =>
      connectStreamCall(`${cell.url}/${cell.pkg}.M/Many`, framed(CONNECT_BODY), inNamespace(cell, options)),
    framed(CONNECT_BODY),
    true,
  ),
  grpcKind(
    'grpc-web (server stream)',
    (cell, options) => grpcWebCall(cell.url, `/${cell.pkg}.M/Many`, ASK, inNamespace(cell, options)),
    framed(ASK),
    true,
  ),
  grpcKind(
    'grpc',
    (cell, options) => grpcNativeCall(cell.url, `/${cell.pkg}.M/Get`, ASK, inNamespace(cell, options)),
    framed(ASK),
  ),
  // A refused MCP call is a JSON-RPC error in a 200 (mcpCall reads it by its code; an HTTP error status is
  // not MCP's form and reads as `status N`).
  {
    ...httpKind('MCP', { path: '/mcp' }, () => ({ mcp: { tools: [{ name: 't', result: TEXT }] } })),
    body: encoder.encode(MCP_CALL),
    call: (cell, options) =>
      mcpCall(
        endpointUrl(cell, '/mcp'),
        { method: 'POST', headers: { ...JSON_POST, accept: 'application/json, text/event-stream' }, body: MCP_CALL },
        inNamespace(cell, options),
      ),
  },
  httpKind(
    'LLM (OpenAI JSON)',
    { path: '/chat/completions' },
    () => ({ llm: { provider: 'openai', api: 'chat.completions', text: TEXT } }),
    { subpath: '/chat/completions', method: 'POST', body: CHAT, headers: JSON_POST },
  ),
  httpKind(
    'LLM (Anthropic stream)',
    { path: '/v1/messages' },
    () => ({ llm: { provider: 'anthropic', api: 'messages', text: TEXT } }),
    {
      subpath: '/v1/messages',
      method: 'POST',
      body: CHAT_STREAM.replace('"model":"m"', '"model":"m","max_tokens":64'),
      headers: JSON_POST,
    },
  ),
  httpKind(
    'collection (REST resource)',
    { path: '/items' },
    () => ({ resource: 'items' }),
    { subpath: '/items' },
    (cell) => must(save(cell, `/endpoints/${cell.name}/collections`, { items: [{ id: 1, text: TEXT }] })),
  ),
  httpKind('proxy', {}, (cell) => ({ proxy: { url: `${cell.url}/endpoint/${cell.upstream}` } })),
];
