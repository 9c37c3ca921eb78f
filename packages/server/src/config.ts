/**
 * Settings from flags, the environment and a `.env` file (the environment wins over
 * the file; flags win over both). The only module that reads `process.env`. Every
 * setting is defined once, in core's settings table (`SETTINGS`); this module
 * parses it and writes `--help` from it.
 *
 * Only our own `MOCKPOINT_*` names (and the seed's two `*_REPORTING_DSN`) are read:
 * an application's `.env` with `PORT=3000` must not move the daemon.
 *
 * @module
 */

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import {
  DEFAULT_LIMITS,
  defaultText,
  HOST_RULE_FORMS,
  isHostRule,
  isOriginRule,
  isValidName,
  type LimitOptions,
  parseHostMappings,
  SETTING_LIST,
  SETTINGS,
  type SettingName,
  type SettingSpec,
} from '@mockpoint/core/defaults';
import { MockpointError } from '@mockpoint/core/internal';
import { closestWord, FLAG_PREFIX } from './commands/closest-word.js';
import { usageBlock } from './commands/command-list.js';
import { type HelpRow, helpColumns } from './commands/help-columns.js';

/** The resolved daemon settings: core's limits plus the daemon's own. */
export interface ServerConfig extends Required<LimitOptions> {
  port: number;
  /** The listening address; `undefined` = the loopback addresses (127.0.0.1, and ::1 where the machine has it). */
  host: string | undefined;
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
  /** A mock file loaded at start (`--config`), resolved against the working directory. */
  configFile: string | undefined;
  /** Reapply {@link configFile} when it changes (`--watch`). */
  watchConfig: boolean;
  /** The shared Redis store (`redis://`, `rediss://` or a unix socket path); wins over `dataDir`. */
  redisUrl: string | undefined;
  adminToken: string | undefined;
  /** Host names the admin API and web page answer besides IP addresses and `localhost`. */
  allowedHosts: string[];
  /** Hosts that pick an endpoint (`MOCKPOINT_HOSTS`): host pattern → endpoint name. */
  hosts: Record<string, string>;
  /** Endpoints served at the root of a port of their own (`--serve github=8081`): name → port. */
  serve: Record<string, number>;
  /** Providers' twins made at start, each under the provider's name and served at its own port (`--twin stripe=12111`). */
  twin: Record<string, number>;
  /** Also serve HTTPS (`--https`). */
  https: boolean;
  /** The HTTPS port. */
  httpsPort: number;
  /** A certificate chain file instead of the local CA's (`--cert`), resolved against the working directory. */
  tlsCert: string | undefined;
  /** Its key file (`--key`). */
  tlsKey: string | undefined;
  /** Origins allowed to write to `/api` besides the daemon's own. */
  allowedOrigins: string[];
  /** Hosts deliveries may target besides loopback addresses. */
  deliveryAllowHosts: string[];
  /** Hosts proxy routes may forward to; empty: proxying is off. */
  proxyAllowHosts: string[];
  /** Pass unmapped hosts through the forward proxy to the network (as the allow list allows). */
  proxyPassThrough: boolean;
  serverReportingDsn: string | undefined;
  clientReportingDsn: string | undefined;
}

// ServerConfig has exactly the settings of the table (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const configMatchesSettings: Same<keyof ServerConfig, SettingName> = true;
void configMatchesSettings;

/** A bad setting: stops start-up with one line naming it. */
export class ConfigError extends MockpointError {
  override readonly name = 'ConfigError';
  declare readonly code: 'INVALID_CONFIG';
  /** The setting at fault, e.g. `MOCKPOINT_PORT` or `--port`. */
  readonly setting: string;

  constructor(setting: string, message: string) {
    super('INVALID_CONFIG', `${setting}: ${message}`);
    this.setting = setting;
  }
}

/**
 * `--twin`: each not also in `--serve`. That each is a provider this daemon ships is checked at
 * start (twin-catalog.ts): the providers are their package's list, imported only then.
 */
function checkTwins(twin: Record<string, number>, serve: Record<string, number>): void {
  const setting = SETTINGS.twin.flag ?? SETTINGS.twin.env;
  for (const provider of Object.keys(twin)) {
    if (Object.hasOwn(serve, provider)) {
      throw new ConfigError(setting, `"${provider}" is also in --serve; --twin serves it at its own port already`);
    }
  }
}

/** What the command line asked for besides settings. */
export interface CliRequest {
  help: boolean;
  version: boolean;
  config: ServerConfig;
  /** The env file that was read (absolute path), for the start-up line; `undefined` when none was. */
  envFile: string | undefined;
}

/** The daemon's defaults, from the settings table. */
export const DEFAULTS = {
  port: SETTINGS.port.default,
  host: undefined,
  dataDir: SETTINGS.dataDir.default,
  memory: SETTINGS.memory.default,
  httpsPort: SETTINGS.httpsPort.default,
  ...DEFAULT_LIMITS,
  headersTimeoutMs: SETTINGS.headersTimeoutMs.default,
  requestTimeoutMs: SETTINGS.requestTimeoutMs.default,
} as const;

/** The flag that picks the env file; not a setting itself. */
const ENV_FILE_FLAG = '--env-file';

/** The option lines of `--help`, generated from the settings table. */
function settingLines(): string[] {
  const rows: HelpRow[] = SETTING_LIST.map((spec) => {
    const flag = spec.flag ? `${spec.flag}${spec.arg ? ` ${spec.arg}` : ''}` : '';
    const env = spec.type === 'boolean' ? `${spec.env}=1` : spec.env;
    const fallback = defaultText(spec);
    return { flag, env, text: [`${spec.help}${fallback === undefined ? '' : ` (default ${fallback})`}`] };
  });
  rows.push(
    { flag: `${ENV_FILE_FLAG} <path>`, env: '', text: ['read settings from this file instead of ./.env'] },
    { flag: '-h, --help', env: '', text: ['show this help'] },
    { flag: '-v, --version', env: '', text: ['show the version'] },
  );
  return helpColumns(rows);
}

export const HELP = `mockpoint - self-hosted mock endpoints

${usageBlock({ usage: '[options]', summary: 'run the daemon' })}

Each command has its own --help (mockpoint tail --help).

Options (each also settable by environment variable, or in ./.env or --env-file):
${settingLines().join('\n')}

Values come from flags, then the environment, then the env file (the environment wins over it).
Only these names are read: an application's own PORT, HOST or REDIS_URL does not apply.
An empty environment value (e.g. MOCKPOINT_ADMIN_TOKEN=) counts as unset: a value in the env file then applies.
`;

type SettingValue = number | string | boolean | string[] | Record<string, string> | Record<string, number>;

/** A comma list, trimmed, without empty entries. */
function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function parseValue(setting: string, spec: SettingSpec, raw: string): SettingValue {
  switch (spec.type) {
    case 'port': {
      if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
        throw new ConfigError(setting, `"${raw}" is not a port number (0-65535)`);
      }
      return Number(raw);
    }
    case 'integer': {
      const min = spec.min ?? 0;
      const max = spec.max ?? Number.MAX_SAFE_INTEGER;
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        throw new ConfigError(setting, `"${raw}" must be a whole number from ${min} to ${max}`);
      }
      return Number(raw);
    }
    case 'boolean': {
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off|)$/i.test(raw)) return false;
      throw new ConfigError(setting, `"${raw}" must be true or false`);
    }
    case 'dsn': {
      // Sentry ignores a malformed DSN silently; refuse it here so reporting is never off by accident.
      const url = URL.canParse(raw) ? new URL(raw) : undefined;
      if (!url || !/^https?:$/.test(url.protocol) || !url.username || !/^\/(?:.*\/)?[^/]+$/.test(url.pathname)) {
        throw new ConfigError(
          setting,
          `"${raw}" is not a Sentry DSN (expected https://<public key>@<host>/<project id>)`,
        );
      }
      return raw;
    }
    case 'hosts': {
      const names = commaList(raw);
      const bad = names.find((name) => !isHostRule(name));
      if (bad !== undefined) {
        throw new ConfigError(setting, `"${bad}" is not a host rule: give ${HOST_RULE_FORMS}`);
      }
      return names;
    }
    case 'origins': {
      const origins = commaList(raw);
      const bad = origins.find((origin) => !isOriginRule(origin));
      if (bad !== undefined) {
        throw new ConfigError(
          setting,
          `"${bad}" is not an origin (e.g. http://localhost:3000: scheme, host and port only)`,
        );
      }
      return origins.map((origin) => new URL(origin).origin);
    }
    case 'hostMap': {
      const mappings = parseHostMappings(raw);
      if ('problem' in mappings) throw new ConfigError(setting, mappings.problem);
      return Object.fromEntries(mappings.map(({ host, name }) => [host, name]));
    }
    case 'serveMap': {
      const ports: Record<string, number> = {};
      for (const entry of commaList(raw)) {
        const eq = entry.indexOf('=');
        const name = entry.slice(0, Math.max(0, eq)).trim();
        const port = entry.slice(eq + 1).trim();
        if (eq === -1 || !isValidName(name) || !/^\d{1,5}$/.test(port) || Number(port) > 65535) {
          throw new ConfigError(
            setting,
            `"${entry}" is not name=port (a name of 1-64 characters of A-Z a-z 0-9 _ -, a port 0-65535)`,
          );
        }
        if (Object.hasOwn(ports, name))
          throw new ConfigError(setting, `"${name}" is served twice; give each endpoint one port`);
        ports[name] = Number(port);
      }
      return ports;
    }
    case 'redis': {
      if (raw.startsWith('/') || /^unix:\/\/\/./.test(raw)) return raw;
      const url = URL.canParse(raw) ? new URL(raw) : undefined;
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

/** What the command line holds: setting values keyed by setting, and the rest. */
interface ParsedFlags {
  values: Map<SettingName, string>;
  envFile: string | undefined;
  help: boolean;
  version: boolean;
  error: ConfigError | undefined;
}

/** Setting types whose flag may be given more than once, each adding to the list. */
const REPEATABLE = new Set<SettingSpec['type']>(['hostMap', 'serveMap']);

/** Parses `argv` (without node and script) into flag values keyed by setting. */
function parseFlags(argv: string[]): ParsedFlags {
  const byFlag = new Map<string, SettingName>();
  for (const spec of SETTING_LIST) if (spec.flag) byFlag.set(spec.flag, spec.name);
  const parsed: ParsedFlags = { values: new Map(), envFile: undefined, help: false, version: false, error: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      parsed.help = true;
      continue;
    }
    if (arg === '-v' || arg === '--version') {
      parsed.version = true;
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const key = byFlag.get(flag);
    if (key === undefined && flag !== ENV_FILE_FLAG) {
      const near = closestWord(flag, [...byFlag.keys(), ENV_FILE_FLAG, '--help', '--version'], FLAG_PREFIX);
      parsed.error ??= new ConfigError(
        flag,
        `unknown option${near === undefined ? '' : `; did you mean ${near}?`} (see mockpoint --help)`,
      );
      continue;
    }
    let value = inline;
    if (key !== undefined && SETTINGS[key].type === 'boolean') value ??= 'true';
    if (value === undefined) {
      // `--port --memory` is a missing value, not the port "--memory"; `-5` is a (bad) value.
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        parsed.error ??= new ConfigError(flag, 'needs a value');
        continue;
      }
      value = next;
      i++;
    }
    if (key === undefined) parsed.envFile = value;
    else if (REPEATABLE.has(SETTINGS[key].type) && parsed.values.has(key)) {
      // `--serve a=8081 --serve b=8082` is one list.
      parsed.values.set(key, `${parsed.values.get(key)},${value}`);
    } else parsed.values.set(key, value);
  }
  return parsed;
}

/**
 * Reads the env file: `explicit` (from `--env-file`; must exist), else `.env` in
 * `cwd` when there is one. Never overrides the environment.
 */
function readEnvFile(
  cwd: string,
  explicit: string | undefined,
): { path: string | undefined; values: Record<string, string> } {
  const setting = explicit === undefined ? '.env' : ENV_FILE_FLAG;
  if (explicit !== undefined && explicit.trim() === '') throw new ConfigError(setting, 'must not be empty');
  const path = resolve(cwd, explicit ?? '.env');
  if (!existsSync(path)) {
    if (explicit === undefined) return { path: undefined, values: {} };
    throw new ConfigError(setting, `${path} does not exist`);
  }
  try {
    return { path, values: parseEnv(readFileSync(path, 'utf8')) as Record<string, string> };
  } catch (error) {
    throw new ConfigError(setting, `cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * Refuses a flag that means something only with another setting which is not on: given on the
 * command line it was meant, and silently ignoring it would leave the person wondering (`--https-port`
 * without `--https` served no HTTPS). From the environment such a value stays quiet: a shared env
 * file may set the HTTPS port for the runs that turn HTTPS on.
 */
function checkFlagsNeedingAnother(flags: ParsedFlags, config: Record<string, unknown>): void {
  const flag = (name: SettingName) => (SETTINGS[name] as SettingSpec).flag ?? SETTINGS[name].env;
  const https = `${flag('https')} / ${SETTINGS.https.env}=1`;
  for (const name of ['httpsPort', 'tlsCert', 'tlsKey'] as const) {
    if (flags.values.has(name) && config.https !== true) {
      throw new ConfigError(flag(name), `means something only with ${https}, which is off; add ${flag('https')}`);
    }
  }
  if (flags.values.has('dataDir') && config.memory === true) {
    throw new ConfigError(
      flag('dataDir'),
      `is not used with ${flag('memory')} (nothing is kept on disk); give one of them`,
    );
  }
  if (
    config.proxyPassThrough === true &&
    flags.values.has('proxyPassThrough') &&
    (config.proxyAllowHosts as string[]).length === 0
  ) {
    throw new ConfigError(
      flag('proxyPassThrough'),
      `passes nothing on while no host is allowed: add ${flag('proxyAllowHosts')} <list> (or ${SETTINGS.proxyAllowHosts.env})`,
    );
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
    file = readEnvFile(cwd, flags.envFile);
  } catch (error) {
    if (!lenient) throw error;
  }
  const config: Record<string, unknown> = {};
  for (const spec of SETTING_LIST) {
    config[spec.name] =
      spec.type === 'hosts' || spec.type === 'origins'
        ? []
        : spec.type === 'hostMap' || spec.type === 'serveMap'
          ? {}
          : spec.default;
    const fromFlag = flags.values.get(spec.name);
    // The environment wins over the file. An empty value means unset, so an unset
    // `${MOCKPOINT_ADMIN_TOKEN}` in a compose file cannot switch off a token kept in .env.
    const envValue = env[spec.env];
    const fromEnv = envValue !== undefined && envValue !== '' ? envValue : file.values[spec.env];
    try {
      if (fromFlag !== undefined) config[spec.name] = parseValue(spec.flag ?? spec.env, spec, fromFlag);
      else if (fromEnv !== undefined && fromEnv !== '') config[spec.name] = parseValue(spec.env, spec, fromEnv);
    } catch (error) {
      if (!lenient) throw error;
    }
  }
  if (config.redisUrl !== undefined && config.memory === true && !lenient) {
    throw new ConfigError(
      SETTINGS.redisUrl.env,
      `cannot be combined with --memory / ${SETTINGS.memory.env}; choose one store`,
    );
  }
  if ((config.tlsCert === undefined) !== (config.tlsKey === undefined) && !lenient) {
    const [given, missing] = config.tlsCert === undefined ? ['--key', '--cert'] : ['--cert', '--key'];
    throw new ConfigError(given, `needs ${missing} too (a certificate and its key)`);
  }
  if (!lenient) checkFlagsNeedingAnother(flags, config);
  if (!lenient) checkTwins(config.twin as Record<string, number>, config.serve as Record<string, number>);
  if (typeof config.tlsCert === 'string') config.tlsCert = resolve(cwd, config.tlsCert);
  if (typeof config.tlsKey === 'string') config.tlsKey = resolve(cwd, config.tlsKey);
  config.dataDir = resolve(cwd, config.dataDir as string);
  if (typeof config.configFile === 'string') config.configFile = resolve(cwd, config.configFile);
  if (config.watchConfig === true && config.configFile === undefined && !lenient) {
    throw new ConfigError(
      SETTINGS.watchConfig.flag ?? SETTINGS.watchConfig.env,
      'needs a file to watch: --config <file>',
    );
  }
  return { help: flags.help, version: flags.version, config: config as unknown as ServerConfig, envFile: file.path };
}
