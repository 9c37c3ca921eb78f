/**
 * The twin (docs/twins.md): after the name's own routes (so a route still
 * answers first), a request to a name with a twin is answered by its stateful
 * engine over the provider's OpenAPI document; a name without one passes on.
 *
 * @module
 */
import { type EndpointAnswer, prepareAnswers } from '../../answer/endpoint-answer.js';
import { rawHeader } from '../../codec/raw-headers.js';
import { BY_TWIN } from '../../journal/journal-entry.js';
import type { TwinAnswer, TwinEngine } from '../../twin/twin-engine.js';
import type { Exchange } from './exchange.js';
import { after, type BodyReads, type Maybe, type Step, type Verdict } from './step.js';

const decoder = new TextDecoder();

function verdictOf(exchange: Exchange, answer: TwinAnswer): Verdict {
  const prepared = prepareAnswers(answer.body, answer.status, 0);
  const chosen: EndpointAnswer = exchange.head ? prepared.head : prepared.full;
  const extra = { ...answer.headers };
  // JSON's is the prepared answer's; another (GitHub's `POST /markdown` HTML) is the twin's.
  if (extra['content-type']?.startsWith('application/json') === true) delete extra['content-type'];
  if (Object.keys(extra).length === 0) return { answer: chosen, mark: BY_TWIN };
  return { answer: { ...chosen, headers: { ...chosen.headers, ...extra } } as EndpointAnswer, mark: BY_TWIN };
}

function answered(engine: TwinEngine | null, exchange: Exchange): Maybe<Verdict | undefined> {
  if (engine === null) return undefined;
  const request = exchange.request;
  const q = request.target.indexOf('?');
  return engine
    .handle({
      method: request.method === 'HEAD' ? 'GET' : request.method,
      path: exchange.subpath,
      query: q === -1 ? '' : request.target.slice(q + 1),
      body: decoder.decode(exchange.wholeBody ?? request.body),
      header: (name) => rawHeader(request.rawHeaders, name),
    })
    .then((answer) => verdictOf(exchange, answer));
}

/** A twin's engine reads every body whole (a create's JSON past the journal's copy is still stored). */
const engineReads = (engine: TwinEngine | null): BodyReads => (engine === null ? 'first-bytes' : 'whole-body');

export const twinStep: Step = {
  name: 'twin',
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
