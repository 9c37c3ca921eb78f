/**
 * The twin (docs/twins.md): after the name's own routes (so a route still
 * answers first), a request to a name with a twin is answered by its stateful
 * engine over the provider's OpenAPI document; a name without one passes on.
 *
 * @module
 */
import { type EndpointAnswer, prepareAnswers } from '../../answer/endpoint-answer.js';
import { CORS_HEADERS } from '../../answer/read-response.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { BY_TWIN } from '../../journal/journal-entry.js';
import type { TwinAnswer } from '../../twin/twin-answer.js';
import type { TwinEngine } from '../../twin/twin-engine.js';
import type { Exchange } from './exchange.js';
import { after, type BodyReads, type Maybe, type Step, type Verdict } from './step.js';

const decoder = new TextDecoder();

/** Bytes answered as they are (a GitHub release asset's download), in the twin's `content-type`. */
function bytesVerdict(exchange: Exchange, answer: TwinAnswer & { bytes: Uint8Array }): Verdict {
  const headers = { ...CORS_HEADERS, ...answer.headers, 'content-length': String(answer.bytes.length) };
  const body = exchange.head ? null : answer.bytes;
  return { answer: Object.freeze({ kind: 'respond', status: answer.status, headers, body, delay: 0 }), mark: BY_TWIN };
}

function verdictOf(exchange: Exchange, answer: TwinAnswer): Verdict {
  if (answer.bytes !== undefined) return bytesVerdict(exchange, { ...answer, bytes: answer.bytes });
  const prepared = prepareAnswers(answer.body, answer.status, 0);
  const chosen: EndpointAnswer = exchange.head ? prepared.head : prepared.full;
  const extra = { ...answer.headers };
  // JSON's is the prepared answer's; another (GitHub's `POST /markdown` HTML) is the twin's.
  if (extra['content-type']?.startsWith('application/json') === true) delete extra['content-type'];
  if (Object.keys(extra).length === 0) return { answer: chosen, mark: BY_TWIN };
  return { answer: { ...chosen, headers: { ...chosen.headers, ...extra } } as EndpointAnswer, mark: BY_TWIN };
}

/** A Host as a URL may hold it: a name or address, and a port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The twin's root as the client reached it (`http://127.0.0.1:4010/endpoint/github`, a `--serve`
 * port's `http://127.0.0.1:4011`): the scheme (TLS, `X-Forwarded-Proto` or HTTP/2's `:scheme`,
 * else `http`), the `Host`, the path the client sent above the twin's; none for a request sent to
 * another host (a host mapping, a proxy's absolute target).
 */
function rootOf(exchange: Exchange): { root?: string } {
  const { request } = exchange;
  if (request.host !== undefined) return {};
  const host = rawHeader(request.rawHeaders, 'host') ?? rawHeader(request.rawHeaders, ':authority');
  if (host === undefined || !HOST.test(host)) return {};
  const path = (request.sent ?? request.target).split('?')[0] ?? '';
  if (!path.startsWith('/') || !path.endsWith(exchange.subpath)) return {};
  const said = (rawHeader(request.rawHeaders, 'x-forwarded-proto') ?? rawHeader(request.rawHeaders, ':scheme'))
    ?.split(',')[0]
    ?.trim()
    .toLowerCase();
  const scheme = request.secure === true || said === 'https' ? 'https' : 'http';
  return { root: `${scheme}://${host}${path.slice(0, path.length - exchange.subpath.length)}` };
}

function answered(engine: TwinEngine | null, exchange: Exchange): Maybe<Verdict | undefined> {
  if (engine === null) return undefined;
  const request = exchange.request;
  const q = request.target.indexOf('?');
  const bytes = exchange.wholeBody ?? request.body;
  return engine
    .handle({
      method: request.method === 'HEAD' ? 'GET' : request.method,
      path: exchange.subpath,
      query: q === -1 ? '' : request.target.slice(q + 1),
      body: decoder.decode(bytes),
      bytes,
      ...rootOf(exchange),
      header: (name) => rawHeader(request.rawHeaders, name),
    })
    .then((answer) => verdictOf(exchange, answer));
}

/** A twin's engine reads every body whole (a create's JSON past the journal's copy is still stored). */
const engineReads = (engine: TwinEngine | null): BodyReads => (engine === null ? 'first-bytes' : 'whole-body');

export const twinStep: Step = {
  name: 'twin',
  answers: 'http',
  passes: ({ twins }, name) => twins === undefined || twins.peek(name) === null,
  reads({ twins }, name) {
    if (twins === undefined) return 'first-bytes';
    const known = twins.peek(name);
    return known === undefined ? twins.engine(name).then(engineReads) : engineReads(known);
  },
  run(exchange) {
    const twins = exchange.parts.twins;
    if (twins === undefined) return undefined;
    const known = twins.peek(exchange.name);
    if (known === null) return undefined;
    if (known !== undefined) return answered(known, exchange);
    return after(twins.engine(exchange.name), answered, exchange);
  },
};
