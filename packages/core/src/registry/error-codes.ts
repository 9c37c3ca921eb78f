/**
 * The error registry: every stable error code of every mockpoint package, with the
 * HTTP status it answers with (error-status.ts, light enough for a browser), when
 * it happens and what a person can do about it (here). The OpenAPI error responses
 * and docs/errors.md are generated from it; adding a code is one line in
 * error-status.ts and one entry here (the compiler requires both), then `pnpm docs`.
 *
 * @module
 */
import { ERROR_STATUS, type ErrorCode } from './error-status.js';

export { ERROR_STATUS, type ErrorCode } from './error-status.js';

/** Who raises an error: the server answers it over HTTP; the others throw it in-process. */
export type ErrorSource = 'server' | 'client' | 'cli' | 'vitest';

/** One entry of {@link ERRORS}: what a person reads about a code. */
export interface ErrorProse {
  /** When it happens. */
  when: string;
  /** What to do about it. */
  fix: string;
  /** Who raises it. @default 'server' */
  from?: ErrorSource;
}

/** Every error code, in the order docs/errors.md lists them. */
export const ERRORS = {
  INVALID_JSON: { when: 'the body is empty or not JSON', fix: 'send a JSON object' },
  INVALID_BODY: {
    when: 'the body is JSON but not an object, or nests deeper than 512 levels',
    fix: 'send a JSON object, nested less deeply',
  },
  INVALID_NAME: {
    when: 'the name breaks the name rule ([api.md](api.md#the-seed-contract))',
    fix: 'use 1–64 characters of `A-Z a-z 0-9 _ -`',
  },
  MISSING_DATA: { when: '`data` is absent', fix: 'add `data` (any JSON, `null` included)' },
  INVALID_STATUS_CODE: { when: '`statusCode` is not an integer 200–599', fix: 'use 200–599' },
  INVALID_DELAY: {
    when: '`delay` is not an integer 0–`MOCKPOINT_MAX_DELAY_MS`',
    fix: 'use a whole number of milliseconds within the limit (`/api/health` `limits`)',
  },
  INVALID_LATENCY: {
    when: "a route's `latency` is not a distribution mockpoint draws (uniform min ≤ max; normal mean, stddev; lognormal median, sigma), or `delay` plus its largest draw is more than `MOCKPOINT_MAX_DELAY_MS`",
    fix: 'fix the distribution, or give `latency.max` so that `delay` + `max` stays within the limit (see docs/chaos.md)',
  },
  INVALID_CHAOS: {
    when: 'the chaos settings are not `{ rate: 0–1, faults: [reset | timeout | 500 | 503 | 429, …], latency?, bandwidth? (bytes/s, ≥ 1), seed? }` (each fault once, at least one)',
    fix: 'fix the field the message names (see docs/chaos.md)',
  },
  INVALID_TWIN: {
    when: 'the twin setting is not `{ provider }` of a known provider, or `{ document, profile }` whose document has no paths or whose profile breaks the profile format ([twins.md](twins.md#the-profile-format))',
    fix: 'fix the field the message names; `GET /api/twins` lists the providers',
  },
  INVALID_TRIGGER: {
    when: 'a trigger (`POST /api/endpoints/{name}/twin/trigger`, `mockpoint trigger`) is not `{ event, to?, secret?, repo? }`: an event type of dotted lowercase words, a `to` of at most 2048 characters, a `secret` of 1–256 printable ASCII characters, a `repo` as `owner/name`',
    fix: 'fix the field the message names ([twins.md](twins.md#trigger-an-event))',
  },
  UNKNOWN_TWIN_EVENT: {
    when: "the twin has no such event to trigger (the message lists the provider's), or it is a twin of a document, which sends no events",
    fix: 'pick an event the message lists; `GET /api/endpoints/{name}/twin` lists them all as `triggers`',
  },
  UNKNOWN_FIELD: {
    when: 'the body has a field the operation does not take (a misspelling, usually)',
    fix: 'remove or correct the field the message names',
  },
  INVALID_QUERY: {
    when: 'bad `limit`/`after`/`prefix`, `wait`/`count`/`match` or `unhandled` (deleting a namespace) query parameters',
    fix: 'correct the parameter the message names (see /api/openapi.json)',
  },
  INVALID_UTF8: {
    when: 'an add or replace body has bytes that are not UTF-8',
    fix: 'send UTF-8 text (binary goes in an answer as `bodyBase64`)',
  },
  DUPLICATE_KEY: {
    when: 'an object in the body holds the same key twice',
    fix: 'keep one of the two keys',
  },
  INVALID_ENCODING: {
    when: 'a `Content-Encoding: gzip`/`deflate` body is not valid gzip/deflate data',
    fix: 'compress the body with the encoding named, or send it uncompressed',
  },
  REQUEST_ABORTED: {
    when: "the client hung up before its body was complete (nobody sees it; nothing is logged), or before a proxy route's upstream answered (the journal entry says so, status 499; the upstream request is aborted)",
    fix: 'nothing: the request was not taken',
  },
  UPGRADE_BODY_UNSUPPORTED: {
    when: 'a request offering an `Upgrade` other than WebSocket (e.g. `h2c`, which `curl --http2` offers) sent its body chunked (`Transfer-Encoding`); such a request is answered over HTTP/1.1, and a body of declared length is read as usual',
    fix: 'send the body with a `Content-Length`, or without the `Upgrade` header',
  },
  INVALID_FAULT: {
    when: "a queued answer's `fault` is not `reset`, `close` or `hang`",
    fix: 'use `reset`, `close` or `hang`',
  },
  INVALID_TIMES: {
    when: "a queued answer's `times` is not an integer 1–10000",
    fix: 'use a whole number 1–10000',
  },
  UNKNOWN_SIGNATURE_SCHEME: {
    when: 'a webhook signature scheme that is not registered: neither a generic one nor one of a provider loaded so far ([webhooks.md](webhooks.md))',
    fix: 'use one that `GET /api/signature-schemes` lists (the message names them)',
  },
  INVALID_SIGNATURE_SECRET: {
    when: 'a webhook signing secret that is empty, or a `standard` secret that is not `whsec_` + base64; a signature check with neither (or both of) `secret` and `secrets`',
    fix: 'give one `secret` (or `secrets`) in the form the scheme takes',
  },
  INVALID_SIGNATURE_OPTIONS: {
    when: 'an `hmac` scheme without a valid header name, algorithm (`sha256`, `sha1`, `sha512`) or encoding (`hex`, `base64`); a timestamp or tolerance that is not a whole number of seconds ≥ 0',
    fix: 'correct the option the message names',
  },
  SETTING_NOT_FOR_KIND: {
    when: 'a setting that cannot mean anything for a kind of answer the name holds: an enforced signature check (a signature over the body) on a name whose gRPC definitions have client-streaming or bidirectional methods, saved either way round (the message names the method, [grpc.md](grpc.md)); `delay` beside an `mcp`, `resource` or `proxy` answer, `setState` beside a `proxy` answer ([routes.md](routes.md)); the message names the setting and the kind',
    fix: 'move the streaming methods to another name, or check signatures without `enforce` there; slow an answer that takes no `delay` with the name’s chaos latency, and move the state with a queued answer or another route',
  },
  INVALID_ROUTE: {
    when: 'a route is not an object or has no `answer` ([routes.md](routes.md)); `error.details.index` is the route at fault',
    fix: 'give each route `{ method?, path, match?, answer }`',
  },
  INVALID_ROUTE_ID: {
    when: "a route's `id` is not 1–64 characters of the name rule",
    fix: 'use a valid id',
  },
  DUPLICATE_ROUTE_ID: { when: 'two routes of one name share an `id`', fix: 'give each route its own id' },
  INVALID_ROUTE_PATTERN: {
    when: "a route's `path` is not a valid pattern (e.g. a repeated `:param`)",
    fix: 'correct the pattern ([routes.md](routes.md))',
  },
  INVALID_MATCH: {
    when: 'a `match` request filter is malformed',
    fix: 'correct the filter ([routes.md](routes.md))',
  },
  INVALID_ANSWER: {
    when: 'an answer with two body forms, bad base64, or a body with `reset`/`hang`',
    fix: 'give one of `data`, `body`, `bodyBase64`, and none with a fault',
  },
  INVALID_HEADER: {
    when: 'an answer or delivery header with a refused name, or a value with a character past visible ASCII (a control character, DEL, `é`, `€`, U+2028)',
    fix: 'remove the header, or percent-encode the text: a value holds tab, space and visible ASCII ([routes.md](routes.md#a-route))',
  },
  INVALID_TEMPLATE: {
    when: 'a template placeholder that does not parse or names nothing known',
    fix: 'correct the placeholder the message names ([routes.md](routes.md))',
  },
  INVALID_PROXY: {
    when: 'a proxy answer with other answer fields beside it, a URL that is not absolute http(s) or has a query, user or fragment, or a bad header name in `redact`/`matchHeaders`',
    fix: 'give `{ "proxy": { "url": "https://host/base" } }` alone ([files.md](files.md#record-and-replay))',
  },
  PROXY_PATH_OUTSIDE_BASE: {
    when: "a request to a proxy route whose path would leave the upstream URL's base path once decoded and resolved: `..` segments (also as `%2e%2e`), or `/` and `\\` given as `%2f`/`%5c` (or a raw `\\`)",
    fix: 'send the path without them; a proxy route forwards only below its URL (give the route a URL with a shorter path to reach more)',
  },
  INVALID_VALIDATION: {
    when: "a route's `validate` is not `{ mode: off | report | enforce, body?, bodyRequired?, query?, params?, headers? }` with JSON Schemas (objects or booleans), or one of its schemas has a `#/…` `$ref` that points at nothing in it, a `pattern` RE2 cannot run (lookaround, backreferences), or a `$ref` cycle that stays on one value",
    fix: 'correct the field the message names ([files.md](files.md#request-validation))',
  },
  INVALID_RATE_LIMIT: {
    when: 'a route\'s `rateLimit` is not `{ limit, per, style?, bucket? }`: `limit` a whole number from 1 to 1,000,000, `per` a duration (`"1m"`, `"1h30m"`, `"500ms"`) or whole milliseconds from 1 ms to 31 days, `style` a registered style (ietf, openai or one a provider registers, docs/rate-limits.md), `bucket` a name',
    fix: 'correct the field the message names ([rate-limits.md](rate-limits.md))',
  },
  INVALID_HOSTS: {
    when: 'a `hosts` list holds something that is not a host pattern (a name, or `*.` and a name; not an IP address or `localhost`, no port), or more than 100 hosts for one endpoint (the admin API, a mock file: `details` has `{ limit, count }`); nothing is written',
    fix: 'give host names such as `api.example.com` or `*.example.com` ([https.md](https.md#hosts-map-to-endpoints))',
  },
  REQUEST_INVALID: {
    when: "a request to `/endpoint/{name}` does not fit the schemas of the route that matched it, and the route's `validate.mode` is `enforce`; `error.details.errors` lists what did not fit (`in`, `path`, `message`); the request is still journaled",
    fix: 'send what the schemas ask for (or set the mode to `report` to answer anyway and see the errors in the journal)',
  },
  INVALID_DELIVERY: {
    when: "a delivery's `method` is not POST, PUT or PATCH, or `sign` is not `{ scheme, secret }` ([webhooks.md](webhooks.md#send-signed-deliveries))",
    fix: 'correct the field the message names ([webhooks.md](webhooks.md))',
  },
  INVALID_DELIVERY_URL: {
    when: "a delivery's `url` is not an absolute http(s) URL",
    fix: 'give the full URL of the receiver',
  },
  DELIVERY_HOST_NOT_ALLOWED: {
    when: "a delivery's host is not a loopback address and not in `MOCKPOINT_DELIVERY_ALLOW_HOSTS`",
    fix: 'add the host to `MOCKPOINT_DELIVERY_ALLOW_HOSTS`',
  },
  INVALID_RETRY: {
    when: '`retry` is not `"standard"` or `{ delaysMs }` with at most 20 delays of 48 h together',
    fix: 'shorten the retry schedule as the message says',
  },
  INVALID_TAMPER: {
    when: 'an unknown `tamper`, a tamper without `sign`, `stale` with a scheme that has no timestamp, or a tamper with `retry`',
    fix: 'correct `tamper` as the message says',
  },
  INVALID_DELIVERY_TIMEOUT: {
    when: '`timeoutMs` is not a whole number 1–300000',
    fix: 'use the range the message gives',
  },
  INVALID_STREAM: {
    when: 'a streamed answer (`stream`) with a bad format, event or `end`',
    fix: 'correct the stream as the message says ([routes.md](routes.md))',
  },
  STREAM_TOO_LONG: {
    when: 'a streamed answer with more events than `MOCKPOINT_MAX_STREAM_EVENTS`, or delays adding up to more than `MOCKPOINT_MAX_STREAM_MS`',
    fix: 'shorten the stream, or raise the limit',
  },
  INVALID_WEBSOCKET: {
    when: 'a WebSocket answer (`websocket`) with a bad frame, delay, close code or `match`, or a frame larger than `MOCKPOINT_MAX_SOCKET_FRAME_BYTES` ([websocket.md](websocket.md))',
    fix: 'correct the script as the message says',
  },
  INVALID_LLM: {
    when: 'an LLM API answer (`llm`) with an api its provider does not have, a bad tool call (name, id, arguments not a JSON object), or an error answer with text ([llm.md](llm.md))',
    fix: 'correct the answer as the message says',
  },
  INVALID_MCP: {
    when: 'a fake MCP server answer (`mcp`) with two tools, prompts or resources of one name, a tool with both or neither of `result` and `error`, or an `inputSchema` that is not an object schema ([mcp.md](mcp.md))',
    fix: 'correct the answer as the message says',
  },
  WEBSOCKET_REQUIRED: {
    when: 'a request without `Upgrade: websocket` selected a route whose answer is a WebSocket script',
    fix: 'open the URL with a WebSocket client (`ws://…`), or match the route to upgrade requests only',
  },
  WEBSOCKET_UNSUPPORTED: {
    when: "a WebSocket upgrade reached a listener that cannot accept one (a bare request listener without the server's upgrade handler)",
    fix: 'serve with `serve()` of `@mockpoint/core/node` (the daemon and `createMockServer()` do), or a runtime adapter that upgrades',
  },
  SOCKET_NOT_FOUND: {
    when: 'the sockets API names a connection id that is not open on this daemon ([websocket.md](websocket.md))',
    fix: 'list the open connections (`GET /api/endpoints/{name}/sockets`); a socket lives in the daemon that accepted it',
  },
  INVALID_COLLECTION: {
    when: 'a collection name breaks the name rule, or a collection is not a JSON array of objects ([state.md](state.md)); `error.details` names the collection and the item',
    fix: 'name collections with 1–64 of `A-Z a-z 0-9 _ -`, and give each a list of JSON objects',
  },
  INVALID_STATE: {
    when: 'a state (`match.state`, `answer.setState`, the body of `PUT …/state`) is not a value or an object of scenario → value, each 1–64 of `A-Z a-z 0-9 _ -`, or names more than 64 scenarios ([state.md](state.md))',
    fix: 'give `"paid"` (the `default` scenario) or `{ "checkout": "paid" }`',
  },
  INVALID_CLOCK: {
    when: 'the body of `PUT /api/clock` is not an object of `freeze` (a boolean), `set` (an ISO 8601 time from 1970 to 9999, on a day the calendar has) and `advance` (a duration: ms, or `"30s"`, `"5m"`, `"2h"`, `"1d"`, at most 366 days), at least one of them, or moves the clock past the year 9999 ([clock.md](clock.md))',
    fix: 'give e.g. `{ "freeze": true, "set": "2030-01-01T00:00:00Z" }` or `{ "advance": "30s" }`',
  },
  INVALID_OPENAPI: {
    when: 'the `openapi` of `POST /api/verify` (or the file of `mockpoint verify --openapi`) is not an OpenAPI 3.0 or 3.1 document: not an object or JSON/YAML text, no `openapi: 3.0.x`/`3.1.x` field, no `paths` object, or schemas the validator cannot read ([verify.md](verify.md))',
    fix: 'give the document itself (a Swagger 2.0 one converted to OpenAPI 3 first), as an object or as its JSON or YAML text',
  },
  INVALID_COVERAGE_QUERY: {
    when: 'a query parameter of `GET /api/coverage` (or an option of `mockpoint coverage`) is wrong: `since`/`until` not an ISO 8601 time with its zone, `since` not before `until`, a name in `names` that is not a name, or an unknown parameter ([coverage.md](coverage.md))',
    fix: 'give e.g. `?names=orders,users&since=2030-01-01T00:00:00Z`',
  },
  INVALID_VERIFY_UPSTREAM: {
    when: 'the `upstream` of `POST /api/verify` (or `mockpoint verify --upstream`, `--ignore`, `--header`, `--har`) is not usable: the URL is not absolute http(s) or has a query, fragment or credentials; an `ignore` path, a header or a bound is not valid; or a field is unknown ([verify.md](verify.md#against-the-live-api---upstream))',
    fix: 'give `{ url: "https://api.example.com/v1", ignore?: ["body.updatedAt"], headers?: { authorization: "Bearer …" }, concurrency?: 1–16, timeoutMs?: 1–60000, totalMs?: 1–240000 }`',
  },
  INVALID_GRAPHQL_SCHEMA: {
    when: "the schema put with `PUT /api/endpoints/{name}/graphql` (or a mock file's `graphql:`) is not valid GraphQL SDL, or not a valid schema (no `Query` type, an unknown type, …); the message gives the line and column ([graphql.md](graphql.md))",
    fix: "correct the SDL at the line and column the message names (`graphql`'s `buildSchema` accepts it then)",
  },
  INVALID_PROTO: {
    when: 'the protobuf definitions put with `PUT /api/endpoints/{name}/grpc` are not valid: a `.proto` file that does not parse, an unknown type, an import that is neither one of the files given nor a well-known type, or a `descriptorSet` that is no valid `FileDescriptorSet`; the message (and `error.details`) names the file, line and column ([grpc.md](grpc.md))',
    fix: 'correct the file at the line and column the message names',
  },
  INVALID_GRPC_ANSWER: {
    when: "a route's `grpc` answer that cannot be sent ([grpc.md](grpc.md#routes)): a message (or one of `messages`, a reply's `send`) that is no message of the method's output type (when the route's `match.grpc` names the service and method of the name's definitions), a status code that is no gRPC status, a status message with a control character or over 1024 characters, metadata or trailers with a name the protocol sends itself (`grpc-*`, `connect-*`, `content-type`), a connection-specific name HTTP/2 forbids (`connection`, `keep-alive`, `upgrade`, `transfer-encoding`, `host`) or a value HTTP cannot carry, details that are not a type name and base64, `message` beside `messages` or `on`, a fault other than `reset`; the message names the route and the field",
    fix: 'correct the field the message names; a message is written in proto3 JSON (field names in lowerCamelCase or as declared, 64-bit integers as strings, enums by name)',
  },
  GRAPHQL_SCHEMA_TOO_COMPLEX: {
    when: 'a GraphQL schema that would take too long to build ([graphql.md](graphql.md#bounds)): more than 100,000 tokens, 30,000 types, fields, arguments, enum values and union members, or 20,000 steps of interface checks (types implementing interfaces that implement many others); the message names which, `error.details` the counts; nothing is changed. Also the answer to a GraphQL request to a name whose schema was stored by an older version and is over these bounds (it is not served; the log says so once)',
    fix: "split the schema, or have types implement fewer interfaces (a large public API's schema of thousands of types is well within every bound)",
  },
  INVALID_ITEM: {
    when: 'an item written to a collection (`POST`, `PUT`, `PATCH` of a resource route or of `…/collections/{collection}/items`) is not a JSON object',
    fix: 'send one JSON object',
  },
  MOCK_FILE_UNREADABLE: {
    from: 'cli',
    when: 'a mock file ([files.md](files.md)) cannot be read; the message starts with `file:line:column: path:`',
    fix: 'check the path and its permissions',
  },
  MOCK_FILE_SYNTAX: {
    from: 'cli',
    when: 'a mock file is not YAML or JSON, or holds a key twice',
    fix: 'correct the file at the line and column the message names',
  },
  MOCK_FILE_INVALID: {
    from: 'cli',
    when: "a mock file does not describe valid endpoints; `error.details.reason` is the API's own code for the field (e.g. `INVALID_STATUS_CODE`, `INVALID_DATA`, `NAME_TAKEN`, `FILE_OUTSIDE`)",
    fix: 'correct the field at the path the message names',
  },
  MOCK_FILE_ALIAS_LIMIT: {
    from: 'cli',
    when: 'YAML aliases in a mock file expand past 100,000 nodes or 16 MiB of text (a "billion laughs" document), or an alias is inside the node it names; `error.details.alias` is the alias',
    fix: 'write the repeated part out, nest fewer aliases, or read big values with `$file`',
  },
  INVALID_HAR: {
    from: 'cli',
    when: '`mockpoint import --from har` was given a file that is not JSON, has no `log.entries` list, or would make more routes than a name holds ([har.md](har.md))',
    fix: 'export the HAR again from the browser or tool (a HAR 1.2 file), or import one host at a time with `--host`',
  },
  INVALID_PACT: {
    from: 'cli',
    when: '`mockpoint import --from pact` was given a file that is not JSON, has no `interactions` list, or would make more routes than a name holds ([pact.md](pact.md))',
    fix: 'give a Pact file (V2, V3 or V4) as the consumer tests write it, or split it',
  },
  INVALID_MOCKOON: {
    from: 'cli',
    when: '`mockpoint import --from mockoon` was given a file that is not JSON or not a Mockoon environment (an object with a `routes` list), or one that would make more routes than a name holds ([import.md](import.md))',
    fix: 'export the environment again from Mockoon (File → the environment file Mockoon saves), or point at that file; split a very large one into several',
  },
  INVALID_POSTMAN: {
    from: 'cli',
    when: '`mockpoint import --from postman` was given a file that is not JSON or not a Postman collection v2.1 (an object with `info` and an `item` list), or one that would make more routes than a name holds ([import.md](import.md))',
    fix: 'export the collection again from Postman as "Collection v2.1"; import a very large one folder by folder',
  },
  INVALID_WIREMOCK: {
    from: 'cli',
    when: '`mockpoint import --from wiremock` was given a file that is not a WireMock mapping or `{ "mappings": [...] }`, a folder without `mappings/`, or more mappings than a name holds as routes ([import.md](import.md))',
    fix: 'give a mapping file, a `{ "mappings": [...] }` file or the folder WireMock was started with (`--root-dir`), or split it into several names',
  },
  OPENAPI_UNREADABLE: {
    from: 'cli',
    when: '`mockpoint import` was given a file that cannot be read, is not YAML/JSON, is not OpenAPI 2.0/3.0/3.1, or has a `$ref` that points at nothing',
    fix: 'correct the file as the message says ([files.md](files.md))',
  },
  UNAUTHORIZED: {
    when: '`MOCKPOINT_ADMIN_TOKEN` is set and a write lacks the right bearer token',
    fix: 'send `Authorization: Bearer <MOCKPOINT_ADMIN_TOKEN>`',
  },
  FORBIDDEN_NAMESPACE: {
    when: "a namespace's token was sent to another namespace's API or to the default namespace's (`/api/*`, `/api/namespaces` included) ([sessions.md](sessions.md#namespaces-and-tokens))",
    fix: 'send it only to its own namespace (`/ns/{ns}/api/…` or `mockpoint-session: {ns}`); manage namespaces with the admin token',
  },
  CHAOS_RATE_LIMITED: {
    when: "the endpoint's chaos injected a 429 into this request (with `Retry-After: 1`)",
    fix: 'nothing: the client is being tested; clear it with DELETE /api/endpoints/{name}/chaos (see docs/chaos.md)',
  },
  SIGNATURE_INVALID: {
    when: 'a request to `/endpoint/{name}` whose signature check has `enforce: true` is not signed validly (`missing`, `invalid`, `stale` or `replayed`); the message gives the reason; the request is still journaled ([webhooks.md](webhooks.md#check-what-arrives))',
    fix: 'sign the request with the secret the check has (or turn `enforce` off)',
  },
  HOST_NOT_ALLOWED: {
    when: '`/api/*` or the page with a `Host` that is not an IP, `localhost` or in `MOCKPOINT_ALLOWED_HOSTS`',
    fix: 'add the host name to `MOCKPOINT_ALLOWED_HOSTS`',
  },
  HOST_NOT_MOCKED: {
    when: 'a request through the forward proxy (an absolute-form target) for a host that is mapped to no endpoint; `error.details.mapped` lists the mapped hosts',
    fix: "map the host to an endpoint (`MOCKPOINT_HOSTS`, a mock file's `hosts:`, `PUT /api/endpoints/{name}/hosts`; [https.md](https.md#hosts-map-to-endpoints)), or pass it through to the network (`MOCKPOINT_PROXY_PASS_THROUGH` with the host in `MOCKPOINT_PROXY_ALLOW_HOSTS`)",
  },
  HTTPS_NOT_ENABLED: {
    when: 'a `CONNECT` through the forward proxy for TLS (port 443, or a mapped host whose client then spoke TLS) to a daemon started without `--https`: it has no certificate to answer a TLS client with ([https.md](https.md#the-daemon-as-an-https-proxy-https_proxy))',
    fix: 'start the daemon with `--https` (`MOCKPOINT_HTTPS=1`) and trust its CA, or send `http://` URLs through the proxy',
  },
  CROSS_ORIGIN: {
    when: 'an `/api` write from a page on another origin not in `MOCKPOINT_ALLOWED_ORIGINS` ([safety.md](safety.md))',
    fix: 'add the origin to `MOCKPOINT_ALLOWED_ORIGINS`',
  },
  PROXY_HOST_NOT_ALLOWED: {
    when: "a proxy answer's host (or, with `MOCKPOINT_PROXY_PASS_THROUGH`, an unmapped host through the forward proxy) is not in `MOCKPOINT_PROXY_ALLOW_HOSTS` (proxying is off without it), or it resolves to a loopback, private or link-local address that is not listed itself",
    fix: 'list the host in `MOCKPOINT_PROXY_ALLOW_HOSTS`; for a loopback or private address list the address itself (`127.0.0.1`)',
  },
  NOT_FOUND: { when: 'no endpoint with that name', fix: 'create it first (`PUT /api/endpoint/add`)' },
  ROUTE_NOT_FOUND: {
    when: 'no such route (or static asset)',
    fix: 'check the path against /api/openapi.json',
  },
  DELIVERY_NOT_FOUND: {
    when: 'no delivery with that id (`/api/deliveries/{id}`)',
    fix: '`GET /api/deliveries` lists them',
  },
  COLLECTION_NOT_FOUND: {
    when: 'the endpoint has no collection of that name (`/api/endpoints/{name}/collections/{collection}`)',
    fix: '`GET /api/endpoints/{name}/collections` lists them; `PUT` one to create it',
  },
  TWIN_NOT_FOUND: {
    when: 'the name has no twin',
    fix: 'make one with `PUT /api/endpoints/{name}/twin` ([twins.md](twins.md))',
  },
  ITEM_NOT_FOUND: {
    when: 'a resource route, or `…/collections/{collection}/items/{id}`, has no item with that id in its collection ([state.md](state.md))',
    fix: 'list the items (`GET` the collection), or create the item (`POST`)',
  },
  NO_ROUTE_MATCHED: {
    when: 'the endpoint has routes and none matches the request; `error.details` names the nearest',
    fix: 'add a route, or correct the request ([routes.md](routes.md))',
  },
  METHOD_NOT_ALLOWED: {
    when: 'a known path with another method; the `Allow` header lists the right ones',
    fix: 'use a method from `Allow`',
  },
  NAME_TAKEN: {
    when: '`PUT /api/endpoint/add` with a name that exists; nothing changes',
    fix: 'replace it (`PUT /api/endpoints/{name}`) or pick another name',
  },
  HOST_TAKEN: {
    when: '`PUT /api/endpoints/{name}/hosts` with a host mapped to another endpoint (by the API without `?move=true`, or by `MOCKPOINT_HOSTS`, which the API cannot change); or a mock file (`--config`, a `--watch` reload, `mockpoint apply`) mapping a host `MOCKPOINT_HOSTS` maps to another endpoint: nothing of the file is written (at start, the daemon does not start)',
    fix: 'remove the host from the other endpoint first, take it with `?move=true`, or pick another host; for a file, map the host in the file or in `MOCKPOINT_HOSTS`, not both',
  },
  TWIN_EVENT_NOT_MADE: {
    when: 'the fixture of a trigger (`mockpoint trigger`) ran its calls through the twin but they did not make the event asked for: one was refused by what the twin holds (its `rateLimit` spent, a collection at its limit, an object changed by hand); nothing is sent about it',
    fix: "the message lists each call with the status it got: read what the refused one was about through the twin, reset the twin's collections or fix that object, and trigger again",
  },
  SERVICE_TAKEN: {
    when: 'the protobuf definitions put for a name declare a service (by its full name, `shop.v1.Orders`) that another name already holds: a gRPC call to `/{package.Service}/{Method}` must reach one endpoint ([grpc.md](grpc.md))',
    fix: "remove the service from the other name's definitions (`DELETE /api/endpoints/{other}/grpc`), or give it another package",
  },
  QUEUE_FULL: {
    when: 'queuing would pass 100 answers for the name (or 64 MiB of queued answers in all, across replicas with Redis); nothing is queued',
    fix: 'let queued answers be used, or clear the queue',
  },
  TOO_MANY_ROUTES: {
    when: 'an endpoint would have more than `MOCKPOINT_MAX_ROUTES` routes',
    fix: 'remove routes, or raise `MOCKPOINT_MAX_ROUTES`',
  },
  ID_TAKEN: {
    when: 'a `POST` to a resource route or to `…/collections/{collection}/items` gives an id that an item of the collection has; nothing changes',
    fix: 'leave the id out (one is given) or pick another',
  },
  COLLECTION_TOO_LARGE: {
    when: 'a collection would hold more than `MOCKPOINT_MAX_COLLECTION_ITEMS` items or `MOCKPOINT_MAX_COLLECTION_BYTES` of JSON; nothing changes',
    fix: 'remove items (or reset the endpoint), or raise the limit',
  },
  DELIVERY_FINISHED: {
    when: '`DELETE /api/deliveries/{id}` of a delivery that is no longer pending',
    fix: 'nothing: it has ended (see its `state`)',
  },
  GRPC_DEFINITIONS_TOO_COMPLEX: {
    when: "`.proto` sources that would take the parser too long ([grpc.md](grpc.md#definitions-per-endpoint)): counted before parsing, each message's fields (with the fields `extend` blocks add to it) squared plus its fields times its `reserved` ranges, more than 16,000,000 in all (one message of 4,000 fields); or a parse that took more than 30 s in the daemon's parsing thread. The message names the count and the widest message, `error.details` has `{ work, widest }`; nothing is changed",
    fix: 'split the large messages, or send the same definitions as a descriptor set (`protoc --include_imports -o set.bin`, `buf build -o set.bin`), which needs no parsing',
  },
  GRPC_DEFINITIONS_TOO_LARGE: {
    when: "an endpoint's protobuf definitions (the `.proto` sources, or the descriptor set's bytes) are longer than `MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES`",
    fix: 'send fewer or smaller files, or raise `MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES`',
  },
  GRAPHQL_SCHEMA_TOO_LARGE: {
    when: 'a GraphQL schema is longer than `MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES` of UTF-8',
    fix: 'send a smaller schema, or raise `MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES`',
  },
  BODY_TOO_LARGE: {
    when: "the body is over `MOCKPOINT_MAX_BODY_BYTES` (checked while streaming, not only from Content-Length; after decoding too), on every route: the API, `/api/mcp` (a JSON-RPC error), and `/endpoint/{name}` whatever answers it (a twin in its provider's error JSON, an `mcp` route as a JSON-RPC error), nothing of it kept; an admin API body is read and dropped to its end (up to 64 MiB past the limit, for at most 2 s) before the 413, so the client reads it; past that bound the 413 is sent and the connection closed, and a client that reads only once it has sent (Node's `http`) may see the connection reset (EPIPE) instead",
    fix: 'send less, or raise `MOCKPOINT_MAX_BODY_BYTES`',
  },
  URI_TOO_LONG: {
    when: 'the request line (the URL) is past the 16 KiB the server reads of a request head',
    fix: 'send a shorter URL: the query in a POST body',
  },
  UNSUPPORTED_ENCODING: {
    when: 'an add or replace body with a `Content-Encoding` other than gzip or deflate',
    fix: 'send gzip, deflate or no encoding (`Accept-Encoding` lists them)',
  },
  ANSWER_TOO_LARGE: {
    when: "a resource route's answer with `_embed`/`_expand` would be more than `MOCKPOINT_MAX_COLLECTION_BYTES` of JSON (each listed item carries its own copy of what it embeds); refused before it is built ([state.md](state.md#bounds))",
    fix: 'page the list (`_limit`, `_page`), or ask for fewer relations; or raise `MOCKPOINT_MAX_COLLECTION_BYTES`',
  },
  HEADERS_TOO_LARGE: {
    when: 'the request headers are past the 16 KiB the server reads of a request head',
    fix: 'send fewer or shorter headers',
  },
  CHAOS_INTERNAL_ERROR: {
    when: "the endpoint's chaos injected a 500 into this request",
    fix: 'nothing: the client is being tested; clear it with DELETE /api/endpoints/{name}/chaos (see docs/chaos.md)',
  },
  CHAOS_UNAVAILABLE: {
    when: "the endpoint's chaos injected a 503 into this request",
    fix: 'nothing: the client is being tested; clear it with DELETE /api/endpoints/{name}/chaos (see docs/chaos.md)',
  },
  INTERNAL: {
    when: 'a bug; reported to `SERVER_REPORTING_DSN` when set',
    fix: 'report it, with the server log',
  },
  TEMPLATE_TOO_LARGE: {
    when: 'a templated answer would render more than `MOCKPOINT_MAX_BODY_BYTES` for this request (headers, body and stream events together), e.g. `{{body}}` repeated over a large body; rendering stops at the limit',
    fix: 'render less of the request (`{{body.id}}` rather than `{{body}}`, fewer repeats), send a smaller request, or raise `MOCKPOINT_MAX_BODY_BYTES` ([routes.md](routes.md#templates))',
  },
  ANSWER_NOT_SENDABLE: {
    when: 'a route or queued answer kept by an earlier version has a header HTTP cannot carry (a value with a control character or a character past U+00FF); `INVALID_HEADER` refuses such values now',
    fix: 'save the answer again with values HTTP can carry (percent-encode other text) ([routes.md](routes.md))',
  },
  GRAPHQL_WORKER_FAILED: {
    when: 'the thread that builds GraphQL schemas and answers schema-mode operations ([graphql.md](graphql.md#where-it-runs)) stopped (out of its memory, or an internal error) or gave no answer within 30 s, while this operation was waiting; the daemon starts a new one for the next operation, and the log says why',
    fix: 'send the operation again; if the same operation fails again, answer it with a route and report the operation and schema',
  },
  PROTO_WORKER_FAILED: {
    when: 'the thread that parses `.proto` sources ([grpc.md](grpc.md#definitions-per-endpoint)) stopped (out of its memory, or an internal error, or the server closing) while these sources were being parsed; the next sources start a new one',
    fix: 'send the definitions again; if they fail again, send them as a descriptor set and report the sources',
  },
  STORE_UNAVAILABLE: {
    when: 'the store failed or is closed; after a failed write, until it has reopened; damaged data (the message names no file-system path: the server log and `/api/health` say where)',
    fix: 'retry; see `/api/health` `reason` and the server log',
  },
  TOO_MANY_WAITERS: {
    when: '20,000 journal long-polls are already held',
    fix: 'retry, or read without `wait`',
  },
  NAMESPACE_NOT_FOUND: {
    when: 'the request names a namespace (`/ns/{ns}/…`, `mockpoint-session` or its `baggage` entry) that does not exist: never made, deleted (also while the request was under way), or idle past its `ttlMs`; also a request it held (a `delay`, a chaos `timeout`) when it is deleted ([sessions.md](sessions.md))',
    fix: 'make it with `POST /api/namespaces`, or check the name',
  },
  NAMESPACE_EXISTS: {
    when: '`POST /api/namespaces` names a namespace that exists already',
    fix: 'pick another name, omit `name` for a random one, or delete the old one first',
  },
  TOO_MANY_NAMESPACES: {
    when: '`MOCKPOINT_MAX_NAMESPACES` namespaces exist already',
    fix: 'delete some (`DELETE /api/namespaces/{ns}`; test sessions delete theirs after each test), give them a `ttlMs`, or raise the limit',
  },
  TOO_MANY_ENDPOINTS: {
    when: 'a namespace holds `MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE` names already (records, or names with only routes, GraphQL, gRPC, chaos, a signature check, hosts, collections, state or queued answers) and the request adds one; nothing is written',
    fix: 'delete some (`DELETE /api/endpoints/{name}`; removing one part of a name keeps it counted), or raise the limit',
  },
  RATE_LIMITED: {
    when: "a request to `/endpoint/{name}` matched a route whose `rateLimit` bucket is empty (style `ietf`; the other styles answer the 429 with their API's own body), or a resource route's `_embed`/`_expand` or a twin's large answer or list, or the model of a large document's twin (`PUT …/twin` or its first request; nothing kept), waited 1 s for the daemon's budget of expensive work, which other requests held (a twin's answer or list is refused in its profile's `busy` style, the provider's own rate-limit answer; the message says so); `Retry-After` says in how many seconds a token is back; the request is journaled with `rateLimited: true`",
    fix: "wait `Retry-After` seconds, or raise the route's `rateLimit` ([rate-limits.md](rate-limits.md)); for the budget, ask for less at once (a smaller page, fewer relations or expansions)",
  },
  TOO_MANY_STREAMS: {
    when: '`MOCKPOINT_MAX_STREAMS` journal streams are already open ([live.md](live.md))',
    fix: 'close one, or read the journal without streaming',
  },
  TURN_BUSY: {
    when: 'a change of a twin waited 30 s for its turn while changes of the same twin on other replicas of one Redis held it ([twins.md](twins.md))',
    fix: 'retry, or send fewer changes to one twin at once; a replica that died holding the turn frees it within 5 s',
  },
  TOO_MANY_SOCKETS: {
    when: 'the name holds `MOCKPOINT_MAX_SOCKETS_PER_NAME` WebSocket connections open already, or all names together nine tenths of `MOCKPOINT_MAX_CONNECTIONS` (the rest is kept for the API)',
    fix: 'close some (`POST /api/endpoints/{name}/sockets/close`), or raise the limit',
  },
  TOO_MANY_DELIVERIES: {
    when: "1000 deliveries are pending already (a twin's webhooks: 500, their share, so the rest stays the user's; [twins.md](twins.md#webhooks-after-the-answer))",
    fix: 'wait for some to finish, or cancel them (`DELETE /api/deliveries/{id}`)',
  },
  TWIN_EVENT_GONE: {
    when: "a twin's webhook delivery a daemon killed meanwhile never handed to the delivery engine, whose event left the twin's events before the restart could (the newest 10000 are kept; a reset or delete empties them): counted as refused at `GET /api/endpoints/{name}/twin` ([twins.md](twins.md#webhooks-after-the-answer))",
    fix: 'send the event again (`mockpoint trigger`); stop the daemon with SIGTERM, which hands every delivery off first',
  },
  TOO_MANY_TIMERS: {
    when: 'a route or queued answer with a timed `setState` (`{ "after": "30s", "to": … }`) answered while 10000 timed state moves wait already in this namespace of the process ([clock.md](clock.md))',
    fix: 'advance the clock past them (`PUT /api/clock`), reset the endpoints (`POST /api/reset`), or move the state with fewer requests',
  },
  TOO_MANY_GRAPHQL_REQUESTS: {
    when: '128 schema-mode GraphQL operations are waiting for the thread that answers them ([graphql.md](graphql.md#where-it-runs))',
    fix: 'send fewer operations at once (wait for answers before sending more)',
  },
  TOO_MANY_PROTO_COMPILES: {
    when: '16 sets of `.proto` sources are already waiting for the thread that parses them ([grpc.md](grpc.md#definitions-per-endpoint))',
    fix: 'send fewer definitions at once (wait for answers before sending more)',
  },
  CONNECTION_FAILED: {
    from: 'client',
    when: 'the server could not be reached at all (`ConnectionError`, with the `url`)',
    fix: 'start the server, or correct the base URL',
  },
  WAIT_TIMEOUT: {
    from: 'client',
    when: 'nothing (or too little) arrived in time; the message lists what did arrive',
    fix: 'check what sends the request, or wait longer (`timeout`)',
  },
  UNEXPECTED_REQUEST: {
    from: 'client',
    when: '`expectNoRequests` saw a request, named in the message',
    fix: 'find what sent it',
  },
  UNEXPECTED_RESPONSE: {
    from: 'client',
    when: 'an answer without a mockpoint error body (e.g. from a proxy in between)',
    fix: 'check the base URL points at mockpoint',
  },
  UPSTREAM_FAILED: {
    when: "a proxy route's upstream could not be reached or broke off before its headers (the reason is in the message)",
    fix: 'check that the upstream in `proxy.url` is up and reachable from the server',
  },
  UPSTREAM_TIMEOUT: {
    when: "a proxy route's upstream sent no status and headers within `proxy.timeoutMs` (30 s by default)",
    fix: 'check the upstream, or raise `proxy.timeoutMs`',
  },
  INVALID_CONFIG: {
    from: 'cli',
    when: 'a bad setting; start-up stops with one line naming it',
    fix: 'correct the setting ([settings.md](settings.md))',
  },
  INVALID_ARGUMENT: { from: 'cli', when: 'a bad argument to a subcommand (`mockpoint tail`)', fix: 'see `--help`' },
  PORT_IN_USE: {
    from: 'cli',
    when: 'the port is taken by another process',
    fix: 'stop it, or pick another port (`--port 0` takes any free one)',
  },
  LISTEN_FAILED: {
    from: 'cli',
    when: 'the server (or the Vitest mock server) could not listen on the address',
    fix: 'use a local address the machine has',
  },
  DATA_DIR_UNUSABLE: {
    from: 'cli',
    when: 'the data directory cannot be created or written',
    fix: 'fix its permissions, or set `MOCKPOINT_DATA_DIR`',
  },
  LOCAL_CA_UNUSABLE: {
    from: 'cli',
    when: "`--https`: the local CA's files in the data directory (`mockpoint-ca.pem`, `mockpoint-ca-key.pem`) cannot be used: a file that is not PEM, or a key that does not match its certificate (the message names them)",
    fix: 'delete both files to make a new CA at the next start, then trust the new `mockpoint-ca.pem`',
  },
  TLS_CERT_UNUSABLE: {
    from: 'cli',
    when: "`--cert`/`--key` (`MOCKPOINT_TLS_CERT`, `MOCKPOINT_TLS_KEY`): a file that cannot be read, is not PEM, or a key that is not the certificate's (the message names the flag and the file)",
    fix: 'give a readable PEM certificate chain and its unencrypted key',
  },
  LEVELDB_UNAVAILABLE: {
    from: 'cli',
    when: "the LevelDB store's native addon cannot be loaded: in a single executable, the temporary directory Bun unpacks it into (`$TMPDIR`, else `/tmp`) is not writable or is mounted `noexec`; on Node, `classic-level` has no build for this platform",
    fix: 'set `TMPDIR` to a writable directory that allows running files (a container started with `--read-only`: `--tmpfs /tmp:exec`), or start with `--memory` or `MOCKPOINT_REDIS_URL` ([runtimes.md](runtimes.md#single-executables))',
  },
  DATA_DIR_LOCKED: {
    from: 'cli',
    when: 'the data directory is in use by another mockpoint process (the message names its pid and where it listens, when it runs from this machine)',
    fix: 'use the running one, stop it, or start this one with `--memory` or another `--data-dir`',
  },
  DATA_DIR_DAMAGED: {
    from: 'cli',
    when: 'the data directory is damaged; it is never silently replaced',
    fix: 'run `mockpoint repair` ([reliability.md](reliability.md))',
  },
  REDIS_UNREACHABLE: {
    from: 'cli',
    when: '`MOCKPOINT_REDIS_URL` cannot be reached at start-up within the bound',
    fix: 'start Redis, or correct the URL',
  },
  REDIS_CLIENT_MISSING: {
    from: 'cli',
    when: '`MOCKPOINT_REDIS_URL` (`--redis-url`) is set but `@redis/client` (an optional peer dependency, not installed with the npm package) is not installed',
    fix: 'install it next to mockpoint as the message says (`npm install -g @redis/client@6`), or use the container image or the single executable, which carry it',
  },
  REPORTING_UNAVAILABLE: {
    from: 'cli',
    when: '`SERVER_REPORTING_DSN` is set but the Sentry package is not installed',
    fix: 'install it as the message says, or unset the DSN',
  },
  FORWARD_FAILED: {
    from: 'cli',
    when: '`mockpoint tail --forward` could not pass a request on',
    fix: 'start the receiver, or correct the forward URL',
  },
  SERVER_CLOSED: {
    from: 'vitest',
    when: 'a mock server method was called after `close()`',
    fix: 'use the server only within its lifetime',
  },
  NOT_STARTED: {
    from: 'vitest',
    when: "`useMockServer()`'s handle was used before its `beforeAll` hook ran",
    fix: 'use it inside tests or later hooks',
  },
  NO_SESSION: {
    from: 'vitest',
    when: "a test session was asked for outside a test, without `mockpoint({ sessions: true })`, or by an intercepted request (or one to the daemon's plain URL) that lost its test's context while several tests ran at once",
    fix: "use `session`/`currentSession()` inside a test or its hooks, turn `sessions` on, or give such code the session's URL ([sessions.md](sessions.md))",
  },
  UNHANDLED_REQUEST: {
    from: 'vitest',
    when: "requests in a test's session reached no endpoint or route (`onUnhandledRequest: 'error'`); that test fails, naming each and its nearest miss",
    fix: "add the endpoint or route, or set `onUnhandledRequest` to `'warn'` or `'off'` ([sessions.md](sessions.md#onunhandledrequest))",
  },
  DEAD_MOCKS: {
    from: 'vitest',
    when: "routes no test's request hit during the run (`mockpoint({ coverage: { failOnDead: true } })`); the run fails, naming each",
    fix: 'remove the routes no test needs, or add the tests that use them; `failOnDead: false` only prints them ([coverage.md](coverage.md#after-a-vitest-run))',
  },
  NOT_AN_ENDPOINT: {
    from: 'vitest',
    when: 'a matcher received something that is not an endpoint handle',
    fix: 'pass the handle from `mock.endpoint()`',
  },
  MATCHER_NOT_AWAITED: {
    from: 'vitest',
    when: 'a request matcher (`toHaveBeenRequested…`) was called without `await`; the test that did it fails',
    fix: 'write `await expect(handle).toHaveBeenRequested…(…)`',
  },
  INVALID_SETUP: {
    from: 'vitest',
    when: 'the global setup ran without a project to provide the URL to (Vitest < 4.1), or `sessions` was asked for with `server: false`',
    fix: "use Vitest ≥ 4.1, or `useMockServer()`; sessions need the run's instance or `MOCKPOINT_URL`",
  },
  MISSING_DEPENDENCY: {
    from: 'vitest',
    when: "an optional package the feature needs is not installed (`level` for `store: 'level'`)",
    fix: 'install the package the message names',
  },
  INVALID_INTERCEPT: {
    from: 'vitest',
    when: '`createMockServer({ intercept })` with an entry that is not an origin (`https://api.example.com`, `https://*.example.com`; no path, no port), or while another server intercepts in this process',
    fix: 'give origins only, and close the other intercepting server first ([intercept.md](intercept.md))',
  },
} as const satisfies Record<ErrorCode, ErrorProse>;

/** One code of the registry: its status (from {@link ERROR_STATUS}) and its prose. */
export interface ErrorSpec extends ErrorProse {
  /** The HTTP status of the answer (a server error), or the one the client reports; absent for a process that never answers. */
  status?: number;
}

/** Every code with its entry, in registry order. */
export const ERROR_LIST: readonly (ErrorSpec & { code: ErrorCode })[] = (Object.keys(ERROR_STATUS) as ErrorCode[]).map(
  (code) => {
    const status = ERROR_STATUS[code];
    return status === null ? { code, ...ERRORS[code] } : { code, status, ...ERRORS[code] };
  },
);
