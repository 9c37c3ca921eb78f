/**
 * The journal as a Pact V4 consumer contract: what the code under test sent
 * (the consumer) and what the mock answered (standing in for the provider),
 * one `Synchronous/HTTP` interaction per distinct request and answer, in the
 * order they first came. The request's path is the one the provider sees (the
 * subpath below `/endpoint/{name}`, as it was sent); its query, its headers
 * (less the connection's, Host, Content-Length and the secrets a recording
 * never writes, unless `secrets` is asked for) and its body; the answer's
 * status, headers (less framing, `Date` and the CORS headers the daemon adds
 * to every answer) and body. JSON bodies go as their exact JSON (big integers
 * kept), other text as text, bytes as base64 (`encoded: "base64"`).
 *
 * What no provider could be asked to answer is left out, each with why: a
 * request nothing answered, a fault, a WebSocket message, a gRPC call, a body
 * longer than the journal keeps (docs/pact.md).
 *
 * @module
 */

import type { JournalEntry } from '../api/journal-json.js';
import { ALWAYS_REDACTED } from '../api/proxy-answer.js';
import { DEFAULT_SCENARIO } from '../api/state-json.js';
import { CONNECTION_HEADERS } from '../codec/hop-by-hop.js';
import { JsonText, scanJson, stringifyExact } from '../codec/json-text.js';
import type { NamedEntry } from './journal.js';

/** The Pact specification version written. */
export const PACT_SPECIFICATION = '4.0';

/** Options of {@link pactContract}. */
export interface PactContractOptions {
  /** The consumer's name (the code under test). */
  consumer: string;
  /** The provider's name (the API the mocks stand for). */
  provider: string;
  /** Keep the secrets (Authorization, Cookie, Set-Cookie, API-key headers): left out by default. */
  secrets?: boolean;
  /**
   * Check JSON answers by type, not value: a Pact `type` matcher on each JSON
   * answer's whole body (`$`), which Pact applies to every field and item below it.
   */
  types?: boolean;
  /** mockpoint's version, written in the contract's metadata. */
  version: string;
}

/** A body as Pact V4 writes it. */
export interface PactBody {
  content: unknown;
  contentType: string;
  encoded: false | 'base64';
}

/** One `Synchronous/HTTP` interaction. */
export interface PactInteraction {
  type: 'Synchronous/HTTP';
  description: string;
  providerStates?: { name: string; params: Record<string, string> }[];
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: PactBody;
  };
  response: {
    status: number;
    headers?: Record<string, string[]>;
    body?: PactBody;
    matchingRules?: { body: Record<string, { combine: 'AND'; matchers: { match: 'type' }[] }> };
  };
}

/** What {@link pactContract} made. */
export interface PactContract {
  /** The contract as JSON text (2-space indented, JSON bodies exact). */
  text: string;
  /** Interactions written. */
  interactions: number;
  /** Journal entries read. */
  entries: number;
  /** What was left out, each with why (also in the contract's `metadata.mockpoint.leftOut`). */
  leftOut: { what: string; why: string }[];
}

/** Request headers that describe the connection or the daemon, not the request a provider is sent. */
const NOT_REQUEST = new Set([...CONNECTION_HEADERS, 'host', 'content-length', 'transfer-encoding', 'expect']);
/** Answer headers that describe the wire or the daemon (its CORS headers on every answer), not the answer. */
const NOT_RESPONSE = new Set([...CONNECTION_HEADERS, 'content-length', 'transfer-encoding', 'date']);

/** The JSON media types: `application/json`, `application/problem+json`, … */
function isJsonType(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether every string of a JSON value (keys too) is well-formed UTF-16: no lone surrogate. */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([key, one]) => !LONE_SURROGATE.test(key) && wellFormed(one));
  }
  return true;
}

/**
 * A body as Pact V4 writes it: exact JSON, text, or base64 bytes; `undefined`
 * when there is none; why not, for JSON holding a lone surrogate (`"\ud800"`),
 * which Pact's JSON reader refuses.
 */
function pactBody(body: string, base64: boolean, contentType: string | undefined): PactBody | undefined | string {
  if (body === '') return undefined;
  if (base64) return { content: body, contentType: contentType ?? 'application/octet-stream', encoded: 'base64' };
  // An answer's text as the journal holds it may have a lone surrogate: the wire carried U+FFFD for it.
  const sent = body.replace(LONE_SURROGATES, '\uFFFD');
  if (contentType !== undefined && isJsonType(contentType)) {
    let text: string | undefined;
    try {
      text = scanJson(sent).text;
    } catch {
      // not JSON after all: kept as text
    }
    if (text !== undefined) {
      if (!wellFormed(JSON.parse(text)))
        return 'JSON holding a lone surrogate (an escape such as \\ud800), which Pact cannot read';
      return { content: new JsonText(text), contentType, encoded: false };
    }
  }
  return { content: sent, contentType: contentType ?? 'text/plain', encoded: false };
}

/** Headers as Pact lists them (a list of values per name), less those `dropped` says; `undefined` when none are left. */
function pactHeaders(
  headers: Record<string, string | string[]>,
  dropped: (name: string) => boolean,
): Record<string, string[]> | undefined {
  const kept: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!dropped(name)) kept[name] = Array.isArray(value) ? [...value] : [value];
  }
  return Object.keys(kept).length === 0 ? undefined : kept;
}

/** Why an entry cannot be an interaction, or `undefined` when it can. */
function leftOutWhy(entry: JournalEntry): string | undefined {
  if (entry.websocket !== undefined) return 'a WebSocket message, which a Pact HTTP interaction cannot hold';
  if (entry.grpc !== undefined) return 'a gRPC call, which a Pact HTTP interaction cannot hold';
  if (entry.answeredBy === 'none') return `no mock answered it (${entry.statusCode}): nothing to ask of the provider`;
  if (entry.fault !== undefined) return `it was answered with a fault (${entry.fault}), not an answer`;
  if (entry.response === undefined) return 'nothing was sent back';
  if (entry.bodyTruncated) return 'its request body was longer than the journal keeps (64 KiB)';
  if (entry.response.bodyTruncated) return "its answer's body was longer than the journal keeps (64 KiB)";
  return undefined;
}

/** The provider states of an entry that read the state: each scenario as it was before the answer. */
function providerStates(name: string, entry: JournalEntry): PactInteraction['providerStates'] {
  const before = entry.state?.before;
  if (before === undefined || Object.keys(before).length === 0) return undefined;
  return Object.entries(before).map(([scenario, state]) => ({
    name: scenario === DEFAULT_SCENARIO ? `${name} is ${state}` : `${name} ${scenario} is ${state}`,
    params: { endpoint: name, scenario, state },
  }));
}

/** One journal entry as an interaction (its description made unique later), or why it cannot be one. */
function interactionOf(
  name: string,
  entry: JournalEntry,
  { secrets, types }: Pick<PactContractOptions, 'secrets' | 'types'>,
): PactInteraction | string {
  const secret = (header: string) => secrets !== true && ALWAYS_REDACTED.includes(header);
  const requestType = entry.headers['content-type'];
  const request: PactInteraction['request'] = { method: entry.method, path: entry.subpath };
  const query: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(entry.query)) query[key] = Array.isArray(value) ? [...value] : [value];
  if (Object.keys(query).length > 0) request.query = query;
  const headers = pactHeaders(
    entry.headers,
    (header) => NOT_REQUEST.has(header) || header.startsWith('mockpoint-') || secret(header),
  );
  if (headers !== undefined) request.headers = headers;
  const body = pactBody(entry.body, entry.bodyEncoding === 'base64', requestType);
  if (typeof body === 'string') return `its request body is ${body}`;
  if (body !== undefined) request.body = body;
  const sent = entry.response as NonNullable<JournalEntry['response']>;
  const response: PactInteraction['response'] = { status: entry.statusCode };
  const answerHeaders = pactHeaders(
    sent.headers,
    (header) => NOT_RESPONSE.has(header) || header.startsWith('access-control-') || secret(header),
  );
  if (answerHeaders !== undefined) response.headers = answerHeaders;
  const type = sent.headers['content-type'];
  const answerBody = pactBody(sent.body, sent.bodyEncoding === 'base64', Array.isArray(type) ? type[0] : type);
  if (typeof answerBody === 'string') return `its answer's body is ${answerBody}`;
  if (answerBody !== undefined) response.body = answerBody;
  if (types === true && answerBody?.content instanceof JsonText) {
    response.matchingRules = { body: { $: { combine: 'AND', matchers: [{ match: 'type' }] } } };
  }
  const interaction: PactInteraction = { type: 'Synchronous/HTTP', description: '', request, response };
  const states = providerStates(name, entry);
  if (states !== undefined) interaction.providerStates = states;
  return interaction;
}

/** What a person reads as the request: `GET /users/1?page=2`, at most 200 characters. */
function requestLine(entry: JournalEntry): string {
  const search = new URLSearchParams(
    Object.entries(entry.query).flatMap(([key, value]) =>
      (Array.isArray(value) ? value : [value]).map((one): [string, string] => [key, one]),
    ),
  ).toString();
  return `${entry.method} ${entry.subpath}${search === '' ? '' : `?${search}`}`.slice(0, 200);
}

/**
 * The Pact V4 contract of journal entries (oldest first): identical
 * interactions once, each description unique (`users: GET /users/1 → 200`,
 * then ` (2)`, ` (3)` for the same request answered otherwise).
 */
export function pactContract(named: Iterable<NamedEntry>, options: PactContractOptions): PactContract {
  const interactions: PactInteraction[] = [];
  const seen = new Set<string>();
  const descriptions = new Set<string>();
  const leftOut: PactContract['leftOut'] = [];
  let entries = 0;
  for (const { name, entry } of named) {
    entries++;
    const interaction = leftOutWhy(entry) ?? interactionOf(name, entry, options);
    if (typeof interaction === 'string') {
      leftOut.push({ what: `${name}: ${requestLine(entry)} (#${entry.id})`, why: interaction });
      continue;
    }
    const key = stringifyExact(interaction);
    if (seen.has(key)) continue;
    seen.add(key);
    const base = `${name}: ${requestLine(entry)} → ${entry.statusCode}`;
    let description = base;
    for (let n = 2; descriptions.has(description); n++) description = `${base} (${n})`;
    descriptions.add(description);
    interaction.description = description;
    interactions.push(interaction);
  }
  const document = {
    consumer: { name: options.consumer },
    provider: { name: options.provider },
    interactions,
    metadata: {
      pactSpecification: { version: PACT_SPECIFICATION },
      mockpoint: { version: options.version, leftOut },
    },
  };
  return { text: `${stringifyExact(document, 2)}\n`, interactions: interactions.length, entries, leftOut };
}
