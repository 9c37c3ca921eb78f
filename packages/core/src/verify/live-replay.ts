/**
 * `verify --upstream`: each route's example request (verify/live-request.ts)
 * sent to the live API through the proxy's upstream (its allow list and
 * SSRF rules, `MOCKPOINT_PROXY_ALLOW_HOSTS`), and the real answer compared
 * with the route's answer by shape (verify/live-shapes.ts): status, content
 * type, JSON fields missing, extra or retyped. Bounded: at most `concurrency`
 * requests in flight, each within `timeoutMs` (its body read up to the body
 * limit), all within `totalMs`; a route not replayed in time, or whose request
 * failed, is a note and counts as unreached.
 *
 * @module
 */
import { checkUpstreamHost, type Upstream } from '../answer/proxy/upstream.js';
import type { Route, RouteAnswer } from '../api/route.js';
import { jsonTooDeep } from '../codec/body.js';
import { JsonText } from '../codec/json-text.js';
import { utf8Text } from '../codec/utf8.js';
import { MockpointError } from '../registry/errors.js';
import type { ExampleRequest } from './live-request.js';
import { shapeDifferences } from './live-shapes.js';
import { type At, type Collector, shown } from './verify-collector.js';

/** How the replay runs. */
export interface LiveSetup {
  /** The API's base URL; a route's subpath is appended to its path. */
  url: URL;
  /** Shape paths left out (`body.updatedAt`, `body.items.*.id`, `status`, `headers.content-type`). */
  ignore: ReadonlySet<string>;
  /** Replay methods other than GET, HEAD and OPTIONS too. */
  unsafe: boolean;
  /** Headers sent with every request, over the example's. */
  headers: readonly [string, string][];
  concurrency: number;
  timeoutMs: number;
  totalMs: number;
  upstream: Upstream;
  allowHosts: readonly string[];
  /** Bytes of a real answer read at most. */
  maxBodyBytes: number;
}

/** A body as compared: JSON parsed, or text, or nothing to compare. */
type Compared = { json: unknown } | { other: true } | { none: true };

/** The media type's essence, lower case. */
function essence(type: string | undefined): string {
  return (type?.split(';')[0] ?? '').trim().toLowerCase();
}

function isJson(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(type);
}

function parsed(text: string | undefined, type: string): Compared {
  if (text === undefined || text === '') return { none: true };
  if (!isJson(type) || jsonTooDeep(text)) return { other: true };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { other: true };
  }
}

/** The route's own answer as the comparison reads it (`{ why }` when it is made at run time). */
export function mockAnswer(answer: RouteAnswer): { status: number; type: string; body: Compared } | { why: string } {
  for (const kind of ['proxy', 'resource', 'websocket', 'llm', 'mcp'] as const) {
    if (answer[kind] !== undefined) return { why: `a ${kind} answer is made at run time` };
  }
  if (answer.fault !== undefined) return { why: `it answers with the fault "${answer.fault}"` };
  const header = Object.entries(answer.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const given = Array.isArray(header) ? header[0] : header;
  const status = answer.statusCode ?? 200;
  if (answer.data !== undefined) {
    const type = essence(given ?? 'application/json');
    const value = answer.data instanceof JsonText ? JSON.parse(answer.data.text) : answer.data;
    return { status, type, body: answer.template === true ? { other: true } : { json: value } };
  }
  if (answer.body !== undefined && answer.body !== '') {
    const type = essence(given ?? 'text/plain');
    return { status, type, body: answer.template === true ? { other: true } : parsed(answer.body, type) };
  }
  const type =
    answer.bodyBase64 !== undefined
      ? 'application/octet-stream'
      : answer.stream !== undefined
        ? 'text/event-stream'
        : '';
  return { status, type: essence(given ?? type), body: type === '' ? { none: true } : { other: true } };
}

/** Reads at most `max` bytes of `body` (the rest cancelled); `undefined` when it was longer. */
async function readBody(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * What one route's replay found, kept until every replay is done and then
 * handed on in route order (the requests finish in any order).
 */
class TaskLog {
  readonly #said: ((out: Collector) => void)[] = [];
  finding(...args: Parameters<Collector['finding']>): void {
    this.#said.push((out) => out.finding(...args));
  }
  note(...args: Parameters<Collector['note']>): void {
    this.#said.push((out) => out.note(...args));
  }
  handOn(out: Collector): void {
    for (const say of this.#said) say(out);
  }
}

/** One route to replay. */
interface Task {
  at: At;
  route: Route;
  request: ExampleRequest;
  log: TaskLog;
}

/** Collects routes to replay, then replays them within the bounds. */
export class LiveReplay {
  readonly #tasks: Task[] = [];
  replayed = 0;
  unreached = 0;

  constructor(
    private readonly setup: LiveSetup,
    private readonly out: Collector,
  ) {
    checkUpstreamHost(setup.url, setup.allowHosts);
  }

  /** Queues `route`'s replay with `request`. */
  add(at: At, route: Route, request: ExampleRequest): void {
    this.#tasks.push({ at, route, request, log: new TaskLog() });
  }

  /** Replays every queued route; resolves when all are done or the total bound is met. */
  async run(): Promise<void> {
    const deadline = Date.now() + this.setup.totalMs;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.#tasks.length) {
        const task = this.#tasks[next++] as Task;
        const left = deadline - Date.now();
        if (left <= 0) {
          this.unreached++;
          task.log.note(task.at, `not replayed: the whole replay's bound (totalMs ${this.setup.totalMs}) was reached`);
          continue;
        }
        await this.#one(task, Math.min(this.setup.timeoutMs, left));
      }
    };
    const workers = Math.max(1, Math.min(this.setup.concurrency, this.#tasks.length));
    await Promise.all(Array.from({ length: workers }, worker));
    for (const task of this.#tasks) task.log.handOn(this.out);
  }

  /** The URL of `request` below the base. */
  #url(request: ExampleRequest): string {
    const base = this.setup.url;
    const path = base.pathname.replace(/\/+$/, '') + request.subpath;
    return `${base.origin}${path}${request.query === '' ? '' : `?${request.query}`}`;
  }

  async #one(task: Task, timeoutMs: number): Promise<void> {
    const { request } = task;
    const headers = new Map<string, [string, string]>();
    for (const line of request.headers) headers.set(line[0].toLowerCase(), line);
    for (const line of this.setup.headers) headers.set(line[0].toLowerCase(), line);
    headers.set('accept-encoding', ['accept-encoding', 'identity']);
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new MockpointError('UPSTREAM_TIMEOUT', `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let status: number;
    let type: string;
    let bytes: Uint8Array | undefined;
    try {
      const answer = await this.setup.upstream({
        url: this.#url(request),
        method: request.method,
        headers: [...headers.values()],
        body: request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
        allowHosts: this.setup.allowHosts,
        signal: abort.signal,
      });
      status = answer.status;
      type = essence(answer.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1]);
      bytes = await readBody(answer.body, this.setup.maxBodyBytes);
    } catch (error) {
      this.unreached++;
      const why = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : describe(error);
      task.log.note(
        task.at,
        `not replayed (${request.method} ${this.#url(request)}, from the ${request.from}): ${why}`,
      );
      return;
    } finally {
      clearTimeout(timer);
    }
    this.replayed++;
    this.#compare(task, status, type, bytes);
  }

  #compare(task: Task, status: number, type: string, bytes: Uint8Array | undefined): void {
    const { at } = task;
    const { ignore } = this.setup;
    const mock = mockAnswer(task.route.answer);
    if ('why' in mock) {
      task.log.note(at, `${mock.why}: replayed, not compared`);
      return;
    }
    if (mock.status !== status && !ignore.has('status')) {
      task.log.finding(at, 'STATUS_DIFFERS', 'status', String(status), String(mock.status));
      return;
    }
    if (mock.type !== type && !ignore.has('headers.content-type') && (mock.type !== '' || type !== '')) {
      task.log.finding(at, 'CONTENT_TYPE_DIFFERS', 'headers.content-type', shown(type), shown(mock.type));
      return;
    }
    if (!('json' in mock.body)) {
      if ('none' in mock.body && bytes !== undefined && bytes.byteLength > 0 && isJson(type)) {
        task.log.finding(at, 'SHAPE_TYPE_CHANGED', 'body', 'a JSON body', 'no body');
      } else if (task.route.answer.template === true) {
        task.log.note(at, 'templated answer ({{…}}): its body shape was not compared');
      }
      return;
    }
    if (bytes === undefined) {
      task.log.note(at, `the real answer's body is longer than ${this.setup.maxBodyBytes} bytes: not compared`);
      return;
    }
    const real = parsed(utf8Text(bytes) ?? '', type);
    if (!('json' in real)) {
      const expected = 'none' in real ? 'no body' : 'a body that is not JSON';
      task.log.finding(at, 'SHAPE_TYPE_CHANGED', 'body', expected, 'JSON');
      return;
    }
    for (const difference of shapeDifferences(mock.body.json, real.json, 'body', ignore)) {
      task.log.finding(at, difference.code, difference.path, difference.real, difference.mock);
    }
  }
}

/** A failed request as a note says it: its code and message. */
function describe(error: unknown): string {
  if (error instanceof MockpointError) return `${error.code}: ${error.message}`;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
