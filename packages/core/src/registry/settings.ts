/**
 * Every setting of mockpoint, defined once: its name, environment variable, flag,
 * type, default, bounds and help. The daemon's config parser and `--help`, the
 * limits' defaults, the `limits` of `/api/health` and `docs/settings.md` are all
 * generated from {@link SETTINGS}. No imports: `--help` loads nothing else.
 *
 * @module
 */
import { DEFAULT_MAX_DELAY_MS } from './record-defaults.js';

/** How a setting's text value is checked and turned into a value. */
export type SettingType =
  /** 0–65535; 0 picks a free port. */
  | 'port'
  /** A whole number within `min`–`max`. */
  | 'integer'
  /** Any non-empty text. */
  | 'string'
  /** Any non-empty text that is never printed. */
  | 'secret'
  /** `1 true yes on` / `0 false no off`; the flag alone means true. */
  | 'boolean'
  /** A Sentry DSN (`https://<key>@<host>/<project>`). */
  | 'dsn'
  /** A comma list of host names or `.suffix` rules. */
  | 'hosts'
  /** A comma list of origins (`scheme://host[:port]`). */
  | 'origins'
  /** A comma list of `host=endpoint` (`api.example.com=api,*.example.com=web`). */
  | 'hostMap'
  /** A comma list of `endpoint=port` (`api=8081`); the flag may be repeated. */
  | 'serveMap'
  /** `redis://`, `rediss://` or an absolute unix socket path. */
  | 'redis';

/** One setting. */
export interface SettingSpec {
  /** The environment variable (also read from `.env`). */
  env: string;
  /** The command-line flag, if it has one (secrets have none: a command line is visible to every user). */
  flag?: string;
  /** The flag's value in `--help`, e.g. `<n>`. */
  arg?: string;
  type: SettingType;
  /** The value when the setting is not given; absent = off / none. */
  default?: number | string | boolean;
  /** How the default reads in `--help` and the docs, when the bare value does not say it well. */
  defaultText?: string;
  /** Smallest accepted value (`integer`). */
  min?: number;
  /** Largest accepted value (`integer`). */
  max?: number;
  /** One line: what it sets. */
  help: string;
  /**
   * A limit of one instance: part of core's `LimitOptions` (so `createApp` and
   * `createMockServer` take it too) and listed in `/api/health` `limits`.
   */
  limit?: true;
}

const MiB = 1024 * 1024;

/** The bounds and default of a whole-number setting (`type: 'integer'`). */
interface WholeNumber {
  default: number;
  min: number;
  max: number;
  /** The flag's value in `--help`: `<n>` unless given. */
  arg?: '<n>' | '<ms>';
  /** How the default reads, when the bare number does not say it well. */
  defaultText?: string;
}

/**
 * A whole-number setting `flag <n>` within `min`–`max`. The config parser
 * refuses any other value with one line naming `env` and the bounds.
 */
function wholeNumber<E extends string, F extends string>(env: E, flag: F, number: WholeNumber, help: string) {
  const { arg = '<n>', ...bounds } = number;
  return { env, flag, arg, type: 'integer', ...bounds, help } as const;
}

/** A whole-number limit of one instance ({@link SettingSpec.limit}). */
function limitSetting<E extends string, F extends string>(env: E, flag: F, number: WholeNumber, help: string) {
  return { ...wholeNumber(env, flag, number, help), limit: true } as const;
}

/** A limit in bytes whose default is whole MiB: the default reads `5242880 (5 MiB)`. */
function sizeSetting<E extends string, F extends string>(
  env: E,
  flag: F,
  bounds: Omit<WholeNumber, 'arg' | 'defaultText'>,
  help: string,
) {
  return limitSetting(env, flag, { ...bounds, defaultText: `${bounds.default} (${bounds.default / MiB} MiB)` }, help);
}

/** A limit on memory in bytes: 0 to 64 GiB, 64 MiB unless set. */
function memoryBudget<E extends string, F extends string>(env: E, flag: F, help: string) {
  return sizeSetting(env, flag, { default: 64 * MiB, min: 0, max: 64 * 1024 * MiB }, help);
}

/** Every setting, in the order `--help` and the docs list them. */
export const SETTINGS = {
  port: {
    env: 'MOCKPOINT_PORT',
    flag: '--port',
    arg: '<n>',
    type: 'port',
    default: 16540,
    help: 'listening port, 0 for any free one',
  },
  host: {
    env: 'MOCKPOINT_HOST',
    flag: '--host',
    arg: '<addr>',
    type: 'string',
    defaultText: '127.0.0.1 and ::1 (loopback: this machine only)',
    help: 'listening address; 0.0.0.0 shares the daemon with every network this machine is on',
  },
  dataDir: {
    env: 'MOCKPOINT_DATA_DIR',
    flag: '--data-dir',
    arg: '<dir>',
    type: 'string',
    default: './data',
    help: 'LevelDB directory, created if missing',
  },
  memory: {
    env: 'MOCKPOINT_MEMORY',
    flag: '--memory',
    type: 'boolean',
    default: false,
    help: 'keep endpoints in memory only (nothing on disk)',
  },
  redisUrl: {
    env: 'MOCKPOINT_REDIS_URL',
    flag: '--redis-url',
    arg: '<url>',
    type: 'redis',
    help: 'share endpoints, the journal and queued answers with other replicas through Redis (redis://, rediss:// or a socket path)',
  },
  configFile: {
    env: 'MOCKPOINT_CONFIG',
    flag: '--config',
    arg: '<file>',
    type: 'string',
    help: 'load endpoints from this mock file (mockpoint.yaml or .json) at start; it wins for the names it defines (see docs/files.md)',
  },
  watchConfig: {
    env: 'MOCKPOINT_WATCH',
    flag: '--watch',
    type: 'boolean',
    default: false,
    help: 'reapply the --config file when it changes; a file with errors is reported and not applied',
  },
  maxBodyBytes: sizeSetting(
    'MOCKPOINT_MAX_BODY_BYTES',
    '--max-body-bytes',
    { default: 5 * MiB, min: 1, max: 1024 * MiB },
    "largest request body, in bytes, and the most bytes of a client-streaming gRPC call's messages",
  ),
  maxDelayMs: limitSetting(
    'MOCKPOINT_MAX_DELAY_MS',
    '--max-delay-ms',
    { default: DEFAULT_MAX_DELAY_MS, min: 0, max: 24 * 3600 * 1000 },
    'largest endpoint delay, in milliseconds',
  ),
  journalSize: limitSetting(
    'MOCKPOINT_JOURNAL_SIZE',
    '--journal-size',
    { default: 100, min: 1, max: 1_000_000 },
    'requests kept per endpoint',
  ),
  journalMaxBytes: memoryBudget(
    'MOCKPOINT_JOURNAL_MAX_BYTES',
    '--journal-max-bytes',
    'memory all recorded requests may use, in bytes',
  ),
  cacheMaxBytes: memoryBudget('MOCKPOINT_CACHE_MAX_BYTES', '--cache-max-bytes', 'response cache size, in bytes'),
  maxNamespaces: limitSetting(
    'MOCKPOINT_MAX_NAMESPACES',
    '--max-namespaces',
    { default: 10_000, min: 0, max: 10_000 },
    'namespaces (test sessions) that may exist at once; 0 turns namespaces off',
  ),
  maxEndpointsPerNamespace: limitSetting(
    'MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE',
    '--max-endpoints-per-namespace',
    { default: 10_000, min: 1, max: 1_000_000 },
    'names one namespace may hold: a name counts from the first write that makes it hold anything (a record, routes, GraphQL, gRPC, chaos, a signature check, hosts, collections, state, queued answers) until it is deleted; checked atomically, across replicas too (the default namespace is not bounded)',
  ),
  maxStreams: limitSetting(
    'MOCKPOINT_MAX_STREAMS',
    '--max-streams',
    { default: 1000, min: 0, max: 1_000_000 },
    'journal streams (…/requests/stream) open at once',
  ),
  maxStreamEvents: limitSetting(
    'MOCKPOINT_MAX_STREAM_EVENTS',
    '--max-stream-events',
    { default: 10_000, min: 1, max: 1_000_000 },
    'events one streamed answer may have (more is refused with STREAM_TOO_LONG)',
  ),
  maxStreamMs: limitSetting(
    'MOCKPOINT_MAX_STREAM_MS',
    '--max-stream-ms',
    { default: 600_000, min: 0, max: 24 * 3600 * 1000, defaultText: '600000 (10 minutes)' },
    "longest streamed answer: the sum of its delays, in milliseconds (a hang's open end does not count)",
  ),
  maxRoutes: limitSetting(
    'MOCKPOINT_MAX_ROUTES',
    '--max-routes',
    { default: 10_000, min: 1, max: 1_000_000 },
    'routes one endpoint name may have (more is refused with TOO_MANY_ROUTES)',
  ),
  maxCollectionItems: limitSetting(
    'MOCKPOINT_MAX_COLLECTION_ITEMS',
    '--max-collection-items',
    { default: 10_000, min: 1, max: 10_000_000 },
    'items one collection may hold (more is refused with COLLECTION_TOO_LARGE)',
  ),
  maxCollectionBytes: sizeSetting(
    'MOCKPOINT_MAX_COLLECTION_BYTES',
    '--max-collection-bytes',
    { default: 16 * 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024 },
    "JSON text one collection's items may add up to, in bytes (more is refused with COLLECTION_TOO_LARGE)",
  ),
  maxSocketFrameBytes: sizeSetting(
    'MOCKPOINT_MAX_SOCKET_FRAME_BYTES',
    '--max-socket-frame-bytes',
    { default: 1024 * 1024, min: 125, max: 256 * 1024 * 1024 },
    'largest WebSocket message, either way: a scripted frame past it is refused at save, a client that sends one is closed with 1009',
  ),
  maxSocketsPerName: limitSetting(
    'MOCKPOINT_MAX_SOCKETS_PER_NAME',
    '--max-sockets-per-name',
    { default: 1000, min: 1, max: 1_000_000 },
    'WebSocket connections one endpoint name may hold open; one more handshake is refused with 503 TOO_MANY_SOCKETS',
  ),
  socketIdleTimeoutMs: limitSetting(
    'MOCKPOINT_SOCKET_IDLE_TIMEOUT_MS',
    '--socket-idle-timeout-ms',
    { default: 300_000, min: 100, max: 86_400_000, arg: '<ms>', defaultText: '300000 (5 minutes)' },
    'a WebSocket connection with no message, ping or pong either way for this long is closed with 1001',
  ),
  socketMessageTimeoutMs: limitSetting(
    'MOCKPOINT_SOCKET_MESSAGE_TIMEOUT_MS',
    '--socket-message-timeout-ms',
    { default: 30_000, min: 100, max: 3_600_000, arg: '<ms>' },
    'how long a WebSocket client may take to send the whole of one message (all its fragments); then it is closed with 1008',
  ),
  maxGraphqlSchemaBytes: sizeSetting(
    'MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES',
    '--max-graphql-schema-bytes',
    { default: 4 * 1024 * 1024, min: 1024, max: 256 * 1024 * 1024 },
    "UTF-8 bytes of one endpoint's GraphQL schema (SDL); more is refused with GRAPHQL_SCHEMA_TOO_LARGE",
  ),
  maxGrpcDefinitionsBytes: sizeSetting(
    'MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES',
    '--max-grpc-definitions-bytes',
    { default: 4 * 1024 * 1024, min: 1024, max: 256 * 1024 * 1024 },
    "bytes of one endpoint's protobuf definitions (the .proto sources' UTF-8, or the descriptor set's bytes); more is refused with GRPC_DEFINITIONS_TOO_LARGE",
  ),
  maxGrpcMessageBytes: sizeSetting(
    'MOCKPOINT_MAX_GRPC_MESSAGE_BYTES',
    '--max-grpc-message-bytes',
    { default: 4 * 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024 },
    'largest gRPC, gRPC-Web or Connect request message, in bytes; a larger one is answered RESOURCE_EXHAUSTED',
  ),
  maxGrpcStreamMessages: limitSetting(
    'MOCKPOINT_MAX_GRPC_STREAM_MESSAGES',
    '--max-grpc-stream-messages',
    { default: 10_000, min: 1, max: 10_000_000 },
    'messages a client may send on one gRPC-family call; one more is answered RESOURCE_EXHAUSTED',
  ),
  maxGrpcStreams: limitSetting(
    'MOCKPOINT_MAX_GRPC_STREAMS',
    '--max-grpc-streams',
    { default: 100, min: 1, max: 10_000 },
    'native gRPC calls one HTTP/2 connection may have open at once; one more is answered RESOURCE_EXHAUSTED',
  ),
  graphqlSubscriptionEvents: limitSetting(
    'MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS',
    '--graphql-subscription-events',
    { default: 3, min: 0, max: 10_000 },
    'events a GraphQL subscription over graphql-ws gets from the schema before complete (0: none, it stays open for events the API pushes)',
  ),
  graphqlSubscriptionIntervalMs: limitSetting(
    'MOCKPOINT_GRAPHQL_SUBSCRIPTION_INTERVAL_MS',
    '--graphql-subscription-interval-ms',
    { default: 1000, min: 0, max: 3_600_000, arg: '<ms>' },
    "milliseconds before each of a GraphQL subscription's events from the schema",
  ),
  maxConnections: limitSetting(
    'MOCKPOINT_MAX_CONNECTIONS',
    '--max-connections',
    { default: 10_000, min: 1, max: 1_000_000 },
    'most connections held at once per listening address; above it the oldest idle ones are closed to make room. Open WebSockets take at most nine tenths of it (one more handshake: 503 TOO_MANY_SOCKETS): the rest stays for the API',
  ),
  headersTimeoutMs: wholeNumber(
    'MOCKPOINT_HEADERS_TIMEOUT_MS',
    '--headers-timeout-ms',
    { default: 10_000, min: 100, max: 3_600_000 },
    'how long a client may take to send its request headers (then 408)',
  ),
  requestTimeoutMs: wholeNumber(
    'MOCKPOINT_REQUEST_TIMEOUT_MS',
    '--request-timeout-ms',
    { default: 30_000, min: 100, max: 3_600_000 },
    "how long a client may take to send its whole request, body included (then 408; not the answer's time); an HTTP/2 connection that opens no stream for this long (from its start or its last stream's end) is closed, whatever other frames it sends",
  ),
  adminToken: {
    env: 'MOCKPOINT_ADMIN_TOKEN',
    type: 'secret',
    help: 'require "Authorization: Bearer <token>" for /api writes',
  },
  allowedHosts: {
    env: 'MOCKPOINT_ALLOWED_HOSTS',
    flag: '--allowed-hosts',
    arg: '<list>',
    type: 'hosts',
    defaultText: 'none (IP addresses and localhost only)',
    help: 'hosts /api and the web page answer besides IPs and localhost (comma-separated host rules, see docs/safety.md#host-allow-lists: name, .example.com = its subdomains too, IP, each with an optional :port; /endpoint answers any Host)',
  },
  hosts: {
    env: 'MOCKPOINT_HOSTS',
    flag: '--hosts',
    arg: '<list>',
    type: 'hostMap',
    defaultText: 'none',
    help: 'hosts that pick an endpoint: a request with that Host (or, through the forward proxy, that target) is answered by the endpoint, its whole path the subpath (comma-separated host=name, *.example.com for every name below it; see docs/https.md)',
  },
  serve: {
    env: 'MOCKPOINT_SERVE',
    flag: '--serve',
    arg: '<name=port>',
    type: 'serveMap',
    defaultText: 'none',
    help: 'also serve an endpoint at the root of a port of its own, every path its subpath (api=8081; repeat the flag or give a comma list; port 0 picks a free one; see docs/https.md)',
  },
  twin: {
    env: 'MOCKPOINT_TWIN',
    flag: '--twin',
    arg: '<provider=port>',
    type: 'serveMap',
    defaultText: 'none',
    help: 'make a twin of a provider (GET /api/twins lists those shipped) under its name and serve it at the root of a port of its own, as --serve does (provider=12111; repeat the flag or give a comma list; port 0 picks a free one; see docs/twins.md)',
  },
  https: {
    env: 'MOCKPOINT_HTTPS',
    flag: '--https',
    type: 'boolean',
    default: false,
    help: 'also serve HTTPS (HTTP/2 and HTTP/1.1) on --https-port, with a certificate from a local CA made on first use in the data directory (with --memory in a temporary folder removed on stop; or --cert/--key); see docs/https.md',
  },
  httpsPort: {
    env: 'MOCKPOINT_HTTPS_PORT',
    flag: '--https-port',
    arg: '<n>',
    type: 'port',
    default: 16541,
    help: 'HTTPS port with --https, 0 for any free one',
  },
  tlsCert: {
    env: 'MOCKPOINT_TLS_CERT',
    flag: '--cert',
    arg: '<file>',
    type: 'string',
    defaultText: 'one signed by the local CA',
    help: "the HTTPS certificate chain (PEM file) instead of the local CA's; needs --key",
  },
  tlsKey: {
    env: 'MOCKPOINT_TLS_KEY',
    flag: '--key',
    arg: '<file>',
    type: 'string',
    defaultText: 'the local CA’s',
    help: 'the private key (PEM file) of --cert',
  },
  allowedOrigins: {
    env: 'MOCKPOINT_ALLOWED_ORIGINS',
    flag: '--allowed-origins',
    arg: '<list>',
    type: 'origins',
    defaultText: "none (the daemon's own origin)",
    help: "origins besides the daemon's own whose pages may write to /api (comma-separated, e.g. http://localhost:5173); other origins get 403 CROSS_ORIGIN",
  },
  deliveryAllowHosts: {
    env: 'MOCKPOINT_DELIVERY_ALLOW_HOSTS',
    flag: '--delivery-allow-hosts',
    arg: '<list>',
    type: 'hosts',
    defaultText: 'none (loopback addresses only)',
    help: 'hosts that webhook deliveries (POST /api/deliveries, mockpoint send) may target besides loopback addresses (comma-separated host rules, see docs/safety.md#host-allow-lists: name, .example.com = its subdomains too, IP such as ::1 or [::1], each with an optional :port that then is the only one allowed)',
  },
  proxyAllowHosts: {
    env: 'MOCKPOINT_PROXY_ALLOW_HOSTS',
    flag: '--proxy-allow-hosts',
    arg: '<list>',
    type: 'hosts',
    defaultText: 'none (proxying off)',
    help: 'hosts that proxy routes may forward to (comma-separated host rules, see docs/safety.md#host-allow-lists: name, .example.com = its subdomains too, IP, each with an optional :port that then is the only one allowed); a loopback, private or link-local address is reached only when the address itself is listed (127.0.0.1:8080 for one port)',
  },
  proxyPassThrough: {
    env: 'MOCKPOINT_PROXY_PASS_THROUGH',
    flag: '--proxy-pass-through',
    type: 'boolean',
    default: false,
    help: 'through the forward proxy (HTTP_PROXY, and CONNECT with --https), pass a host mapped to no endpoint on to the network instead of refusing it with HOST_NOT_MOCKED: only hosts MOCKPOINT_PROXY_ALLOW_HOSTS allows, with its rules for private addresses; a CONNECT is tunnelled as bytes',
  },
  serverReportingDsn: {
    env: 'SERVER_REPORTING_DSN',
    type: 'dsn',
    help: 'report server errors to this Sentry DSN',
  },
  clientReportingDsn: {
    env: 'CLIENT_REPORTING_DSN',
    type: 'dsn',
    help: 'report web page errors to this Sentry DSN',
  },
} as const satisfies Record<string, SettingSpec>;

/** The name of a setting, e.g. `maxBodyBytes`. */
export type SettingName = keyof typeof SETTINGS;

/** The settings that are limits of one instance (see {@link SettingSpec.limit}). */
export type LimitName = {
  [K in SettingName]: (typeof SETTINGS)[K] extends { limit: true } ? K : never;
}[SettingName];

/** Every setting with its name, in table order. */
export const SETTING_LIST: ReadonlyArray<SettingSpec & { name: SettingName }> = (
  Object.keys(SETTINGS) as SettingName[]
).map((name) => ({ name, ...(SETTINGS[name] as SettingSpec) }));

/** The names of the limits, in table order. */
export const LIMIT_NAMES = SETTING_LIST.filter((spec) => spec.limit).map((spec) => spec.name) as readonly LimitName[];

/** How a setting's default reads for a person (`--help`, the docs); `undefined` when it is simply off. */
export function defaultText(spec: SettingSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (spec.default === undefined || typeof spec.default === 'boolean') return undefined;
  return String(spec.default);
}
