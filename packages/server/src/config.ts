/**
 * Settings from flags, the environment and `.env` (the environment wins over the
 * file; flags win over both). The only module that reads `process.env`.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import {
  ALLOWED_HOST_RULE,
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_LIMITS,
  isOriginRule,
  type LimitOptions,
} from '@mockpoint/core/defaults';

/** The resolved daemon settings: core's limits plus the daemon's own. */
export interface ServerConfig extends Required<LimitOptions> {
  port: number;
  host: string;
  /** Absolute path of the LevelDB directory; unused with `memory`. */
  dataDir: string;
  /** Keep endpoints in memory only (`--memory`). */
  memory: boolean;
  /** Most connections held at once (the oldest idle ones make room for new ones). */
  maxConnections: number;
  /** How long a client may take to send its request headers. */
  headersTimeoutMs: number;
  /** How long a client may take to send its whole request, body included. */
  requestTimeoutMs: number;
  /** The shared Redis store (`redis://`, `rediss://` or a unix socket path); wins over `dataDir`. */
  redisUrl: string | undefined;
  adminToken: string | undefined;
  /** Host names the admin API and web page answer besides IP addresses and `localhost`. */
  allowedHosts: string[];
  /** Origins besides the daemon's own whose pages may write to `/api`. */
  allowedOrigins: string[];
  serverReportingDsn: string | undefined;
  clientReportingDsn: string | undefined;
}

/** A bad setting: stops start-up with one line naming it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'INVALID_CONFIG';
  /** The setting at fault, e.g. `PORT` or `--port`. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.setting = setting;
  }
}

/** What the command line asked for besides settings. */
export interface CliRequest {
  help: boolean;
  version: boolean;
  config: ServerConfig;
  /** Whether a `.env` file was read, for the start-up line. */
  envFile: string | undefined;
}

interface SettingSpec {
  env: string;
  flag?: string;
  /** The flag's value in the help, e.g. `<n>`. */
  arg?: string;
  kind: 'port' | 'int' | 'string' | 'bool' | 'dsn' | 'hosts' | 'origins' | 'redis';
  min?: number;
  max?: number;
  /** One line for `--help`; the default is appended when there is one. */
  help: string;
}

/** The daemon's defaults; the limits are core's own. */
export const DEFAULTS = {
  port: 16540,
  host: '0.0.0.0',
  dataDir: './data',
  memory: false,
  ...DEFAULT_LIMITS,
  ...DEFAULT_CONNECTION_LIMITS,
} as const;

/** Every setting, once: its flag, variable, kind, bounds and help line. */
const SETTINGS = {
  port: { env: 'PORT', flag: '--port', arg: '<n>', kind: 'port', help: 'listening port, 0 for any free one' },
  host: { env: 'HOST', flag: '--host', arg: '<addr>', kind: 'string', help: 'listening address' },
  dataDir: {
    env: 'DATA_DIR',
    flag: '--data-dir',
    arg: '<dir>',
    kind: 'string',
    help: 'LevelDB directory, created if missing',
  },
  memory: {
    env: 'MOCKPOINT_MEMORY',
    flag: '--memory',
    kind: 'bool',
    help: 'keep endpoints in memory only (nothing on disk)',
  },
  redisUrl: {
    env: 'REDIS_URL',
    flag: '--redis-url',
    arg: '<url>',
    kind: 'redis',
    help: 'share endpoints and the journal with other replicas through Redis (redis://, rediss:// or a socket path)',
  },
  maxBodyBytes: {
    env: 'MAX_BODY_BYTES',
    flag: '--max-body-bytes',
    arg: '<n>',
    kind: 'int',
    min: 1,
    max: 1024 ** 3,
    help: 'largest request body',
  },
  maxDelayMs: {
    env: 'MAX_DELAY_MS',
    flag: '--max-delay-ms',
    arg: '<n>',
    kind: 'int',
    min: 0,
    max: 24 * 3600 * 1000,
    help: 'largest endpoint delay',
  },
  journalSize: {
    env: 'JOURNAL_SIZE',
    flag: '--journal-size',
    arg: '<n>',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    help: 'requests kept per endpoint',
  },
  journalMaxBytes: {
    env: 'JOURNAL_MAX_BYTES',
    flag: '--journal-max-bytes',
    arg: '<n>',
    kind: 'int',
    min: 0,
    max: 64 * 1024 ** 3,
    help: 'memory all recorded requests may use',
  },
  cacheMaxBytes: {
    env: 'CACHE_MAX_BYTES',
    flag: '--cache-max-bytes',
    arg: '<n>',
    kind: 'int',
    min: 0,
    max: 64 * 1024 ** 3,
    help: 'response cache size',
  },
  maxStreams: {
    env: 'MAX_STREAMS',
    flag: '--max-streams',
    arg: '<n>',
    kind: 'int',
    min: 0,
    max: 1_000_000,
    help: 'journal streams (…/requests/stream) open at once',
  },
  maxConnections: {
    env: 'MOCKPOINT_MAX_CONNECTIONS',
    flag: '--max-connections',
    arg: '<n>',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    help: 'most connections held at once; above it the oldest idle ones are closed to make room',
  },
  headersTimeoutMs: {
    env: 'MOCKPOINT_HEADERS_TIMEOUT_MS',
    flag: '--headers-timeout-ms',
    arg: '<n>',
    kind: 'int',
    min: 100,
    max: 3_600_000,
    help: 'how long a client may take to send its request headers (then 408)',
  },
  requestTimeoutMs: {
    env: 'MOCKPOINT_REQUEST_TIMEOUT_MS',
    flag: '--request-timeout-ms',
    arg: '<n>',
    kind: 'int',
    min: 100,
    max: 3_600_000,
    help: "how long a client may take to send its whole request, body included (then 408; not the answer's time)",
  },
  maxRoutes: {
    env: 'MOCKPOINT_MAX_ROUTES',
    flag: '--max-routes',
    arg: '<n>',
    kind: 'int',
    min: 0,
    max: 1_000_000,
    help: 'routes one endpoint may have',
  },
  adminToken: { env: 'ADMIN_TOKEN', kind: 'string', help: 'require "Authorization: Bearer <token>" for /api writes' },
  allowedHosts: {
    env: 'ALLOWED_HOSTS',
    flag: '--allowed-hosts',
    arg: '<list>',
    kind: 'hosts',
    help: 'host names /api and the web page answer besides IPs and localhost (comma-separated; .example.com = its subdomains too; /endpoint answers any Host)',
  },
  allowedOrigins: {
    env: 'MOCKPOINT_ALLOWED_ORIGINS',
    flag: '--allowed-origins',
    arg: '<list>',
    kind: 'origins',
    help: "origins besides the daemon's own whose pages may write to /api (comma-separated, e.g. http://localhost:3000); other origins get 403 CROSS_ORIGIN",
  },
  serverReportingDsn: { env: 'SERVER_REPORTING_DSN', kind: 'dsn', help: 'report server errors to this Sentry DSN' },
  clientReportingDsn: { env: 'CLIENT_REPORTING_DSN', kind: 'dsn', help: 'report web page errors to this Sentry DSN' },
} as const satisfies Record<keyof ServerConfig, SettingSpec>;

/** The option lines of `--help`, generated from {@link SETTINGS}. */
function settingLines(): string[] {
  const rows = (Object.entries(SETTINGS) as [keyof ServerConfig, SettingSpec][]).map(([key, spec]) => {
    const flag = spec.flag ? `${spec.flag}${spec.arg ? ` ${spec.arg}` : ''}` : '';
    const env = spec.kind === 'bool' ? `${spec.env}=1` : spec.env;
    const fallback = (DEFAULTS as Record<string, unknown>)[key];
    const shown = fallback === undefined || typeof fallback === 'boolean' ? '' : ` (default ${fallback})`;
    return [flag, env, `${spec.help}${shown}`] as const;
  });
  rows.push(['-h, --help', '', 'show this help'], ['-v, --version', '', 'show the version']);
  const flagWidth = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const envWidth = Math.max(...rows.map(([, env]) => env.length)) + 2;
  return rows.map(([flag, env, text]) => `  ${flag.padEnd(flagWidth)}${env.padEnd(envWidth)}${text}`);
}

export const HELP = `mockpoint - self-hosted mock endpoints

Usage: mockpoint [options]
       mockpoint tail [name] [--json] [--forward <url>]   print requests as they arrive (see tail --help)

Options (each also settable by environment variable or .env):
${settingLines().join('\n')}

Values come from flags, then the environment, then ./.env (the environment wins over .env).
An empty environment value (e.g. ADMIN_TOKEN=) counts as unset: a value in .env then applies.
`;

function parseValue(setting: string, spec: SettingSpec, raw: string): number | string | boolean | string[] {
  switch (spec.kind) {
    case 'port': {
      if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
        throw new ConfigError(setting, `"${raw}" is not a port number (0-65535)`);
      }
      return Number(raw);
    }
    case 'int': {
      const min = spec.min ?? 0;
      const max = spec.max ?? Number.MAX_SAFE_INTEGER;
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        throw new ConfigError(setting, `"${raw}" must be a whole number from ${min} to ${max}`);
      }
      return Number(raw);
    }
    case 'bool': {
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off|)$/i.test(raw)) return false;
      throw new ConfigError(setting, `"${raw}" must be true or false`);
    }
    case 'dsn': {
      // Sentry ignores a malformed DSN silently; refuse it here so reporting is never off by accident.
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || !/^https?:$/.test(url.protocol) || !url.username || !/^\/(?:.*\/)?[^/]+$/.test(url.pathname)) {
        throw new ConfigError(
          setting,
          `"${raw}" is not a Sentry DSN (expected https://<public key>@<host>/<project id>)`,
        );
      }
      return raw;
    }
    case 'hosts': {
      const names = raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const bad = names.find((name) => !ALLOWED_HOST_RULE.test(name));
      if (bad !== undefined) {
        throw new ConfigError(
          setting,
          `"${bad}" is not a host name (e.g. mocks.example.com, or .example.com for its subdomains)`,
        );
      }
      return names;
    }
    case 'origins': {
      const origins = raw
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      const bad = origins.find((origin) => !isOriginRule(origin));
      if (bad !== undefined) {
        throw new ConfigError(
          setting,
          `"${bad}" is not an origin (e.g. http://localhost:3000: scheme, host and port only)`,
        );
      }
      return origins;
    }
    case 'redis': {
      if (raw.startsWith('/') || /^unix:\/\/\/./.test(raw)) return raw;
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || !/^rediss?:$/.test(url.protocol) || url.hostname === '') {
        throw new ConfigError(
          setting,
          `"${raw}" is not a Redis URL (expected redis://host:port/db, rediss://host:port/db or an absolute unix socket path)`,
        );
      }
      return raw;
    }
    default:
      if (raw.trim() === '') throw new ConfigError(setting, 'must not be empty');
      return raw;
  }
}

/** Parses `argv` (without node and script) into flag values keyed by setting. */
function parseFlags(argv: string[]): {
  values: Map<keyof ServerConfig, string>;
  help: boolean;
  version: boolean;
  error: ConfigError | undefined;
} {
  const byFlag = new Map<string, keyof ServerConfig>();
  for (const [key, spec] of Object.entries(SETTINGS) as [keyof ServerConfig, SettingSpec][]) {
    if (spec.flag) byFlag.set(spec.flag, key);
  }
  const values = new Map<keyof ServerConfig, string>();
  let help = false;
  let version = false;
  let error: ConfigError | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '-v' || arg === '--version') version = true;
    else {
      const [flag, inline] = arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
      const key = byFlag.get(flag);
      if (key === undefined) {
        error ??= new ConfigError(flag, 'unknown option; see mockpoint --help');
      } else if (SETTINGS[key].kind === 'bool') {
        values.set(key, inline ?? 'true');
      } else if (inline !== undefined) {
        values.set(key, inline);
      } else {
        // `--port --memory` is a missing value, not the port "--memory"; `-5` is a (bad) value.
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) {
          error ??= new ConfigError(flag, 'needs a value');
        } else {
          values.set(key, next);
          i++;
        }
      }
    }
  }
  return { values, help, version, error };
}

/** Reads `.env` in `cwd`, if present; never overrides `env`. */
function readEnvFile(cwd: string): { path: string | undefined; values: Record<string, string> } {
  const path = resolve(cwd, '.env');
  if (!existsSync(path)) return { path: undefined, values: {} };
  try {
    return { path, values: parseEnv(readFileSync(path, 'utf8')) as Record<string, string> };
  } catch (error) {
    throw new ConfigError('.env', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * Resolves the settings. Throws {@link ConfigError} naming the first bad setting,
 * unless `--help` or `--version` was asked for (those always work; `config` is then
 * resolved from whatever is valid, defaults otherwise).
 * @example resolveConfig({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() })
 */
export function resolveConfig(
  input: { argv?: string[]; env?: Record<string, string | undefined>; cwd?: string } = {},
): CliRequest {
  const cwd = input.cwd ?? process.cwd();
  const env = input.env ?? process.env;
  const flags = parseFlags(input.argv ?? []);
  const lenient = flags.help || flags.version;
  if (flags.error && !lenient) throw flags.error;
  let file: ReturnType<typeof readEnvFile> = { path: undefined, values: {} };
  try {
    file = readEnvFile(cwd);
  } catch (error) {
    if (!lenient) throw error;
  }
  const config: Record<string, unknown> = {
    ...DEFAULTS,
    adminToken: undefined,
    allowedHosts: [],
    allowedOrigins: [],
    redisUrl: undefined,
    serverReportingDsn: undefined,
    clientReportingDsn: undefined,
  };
  for (const [key, spec] of Object.entries(SETTINGS) as [keyof ServerConfig, SettingSpec][]) {
    const fromFlag = flags.values.get(key);
    // The environment wins over .env. An empty value means unset, so an unset
    // `${ADMIN_TOKEN}` in a compose file cannot switch off a token kept in .env.
    const envValue = env[spec.env];
    const fromEnv = envValue !== undefined && envValue !== '' ? envValue : file.values[spec.env];
    try {
      if (fromFlag !== undefined) config[key] = parseValue(spec.flag ?? spec.env, spec, fromFlag);
      else if (fromEnv !== undefined && fromEnv !== '') config[key] = parseValue(spec.env, spec, fromEnv);
    } catch (error) {
      if (!lenient) throw error;
    }
  }
  if (config.redisUrl !== undefined && config.memory === true && !lenient) {
    throw new ConfigError('REDIS_URL', 'cannot be combined with --memory / MOCKPOINT_MEMORY; choose one store');
  }
  config.dataDir = resolve(cwd, config.dataDir as string);
  return { help: flags.help, version: flags.version, config: config as unknown as ServerConfig, envFile: file.path };
}
