// resolveConfig(): defaults, flags, environment and `.env`, their precedence, and
// a ConfigError naming the setting for every bad value.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, resolveConfig } from '../src/config.js';

let cwd: string; // no .env
let withEnvFile: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'mockpoint-config-'));
  withEnvFile = await mkdtemp(join(tmpdir(), 'mockpoint-config-env-'));
  await writeFile(
    join(withEnvFile, '.env'),
    ['# settings for tests', 'PORT=7001', 'HOST=127.0.0.2', 'MAX_DELAY_MS=1234', 'ADMIN_TOKEN="from file"', ''].join(
      '\n',
    ),
  );
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
  await rm(withEnvFile, { recursive: true, force: true });
});

function config(argv: string[] = [], env: Record<string, string> = {}, dir = cwd) {
  return resolveConfig({ argv, env, cwd: dir }).config;
}

/** The ConfigError thrown for these inputs. */
function configError(argv: string[], env: Record<string, string> = {}): ConfigError {
  try {
    resolveConfig({ argv, env, cwd });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify({ argv, env })}`);
}

describe('defaults', () => {
  it('listen on 0.0.0.0:16540 with ./data resolved against the working directory', () => {
    expect(resolveConfig({ argv: [], env: {}, cwd })).toEqual({
      help: false,
      version: false,
      envFile: undefined,
      config: {
        port: 16540,
        host: '0.0.0.0',
        dataDir: join(cwd, 'data'),
        memory: false,
        maxBodyBytes: 5 * 1024 * 1024,
        maxDelayMs: 60_000,
        journalSize: 100,
        journalMaxBytes: 64 * 1024 * 1024,
        cacheMaxBytes: 64 * 1024 * 1024,
        maxStreams: 1000,
        maxConnections: 10_000,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        maxRoutes: 10_000,
        allowedHosts: [],
        allowedOrigins: [],
        adminToken: undefined,
        serverReportingDsn: undefined,
        clientReportingDsn: undefined,
      },
    });
    expect(DEFAULTS.port).toBe(16540);
  });
});

describe('sources', () => {
  it('reads every flag, in both --flag value and --flag=value form', () => {
    expect(
      config([
        '--port',
        '0',
        '--host=127.0.0.1',
        '--data-dir',
        'store/here',
        '--memory',
        '--max-body-bytes=10',
        '--max-delay-ms',
        '20',
        '--journal-size',
        '3',
        '--journal-max-bytes=5',
        '--cache-max-bytes=0',
        '--max-streams=4',
      ]),
    ).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: join(cwd, 'store/here'),
      memory: true,
      maxBodyBytes: 10,
      maxDelayMs: 20,
      journalSize: 3,
      journalMaxBytes: 5,
      cacheMaxBytes: 0,
      maxStreams: 4,
    });
  });

  it('reads every environment variable, PORT and DATA_DIR included', () => {
    expect(
      config([], {
        PORT: '8080',
        HOST: '::1',
        DATA_DIR: '/var/lib/mockpoint',
        MOCKPOINT_MEMORY: 'true',
        MAX_BODY_BYTES: '100',
        MAX_DELAY_MS: '200',
        JOURNAL_SIZE: '3',
        JOURNAL_MAX_BYTES: '7',
        CACHE_MAX_BYTES: '400',
        MAX_STREAMS: '9',
        MOCKPOINT_MAX_ROUTES: '12',
        ADMIN_TOKEN: 'secret',
        ALLOWED_HOSTS: 'mocks.internal,.example.com',
        MOCKPOINT_MAX_CONNECTIONS: '50',
        MOCKPOINT_HEADERS_TIMEOUT_MS: '2000',
        MOCKPOINT_REQUEST_TIMEOUT_MS: '4000',
        MOCKPOINT_ALLOWED_ORIGINS: 'http://localhost:3000, https://app.example.com',
        SERVER_REPORTING_DSN: 'http://key@127.0.0.1:9/1',
        CLIENT_REPORTING_DSN: 'https://key@sentry.example/42',
      }),
    ).toEqual({
      port: 8080,
      host: '::1',
      dataDir: '/var/lib/mockpoint',
      memory: true,
      maxBodyBytes: 100,
      maxDelayMs: 200,
      journalSize: 3,
      journalMaxBytes: 7,
      cacheMaxBytes: 400,
      maxStreams: 9,
      maxRoutes: 12,
      adminToken: 'secret',
      allowedHosts: ['mocks.internal', '.example.com'],
      allowedOrigins: ['http://localhost:3000', 'https://app.example.com'],
      maxConnections: 50,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      serverReportingDsn: 'http://key@127.0.0.1:9/1',
      clientReportingDsn: 'https://key@sentry.example/42',
    });
  });

  it('reads .env in the working directory and reports that it did', () => {
    const request = resolveConfig({ argv: [], env: {}, cwd: withEnvFile });
    expect(request.envFile).toBe(join(withEnvFile, '.env'));
    expect(request.config).toMatchObject({ port: 7001, host: '127.0.0.2', maxDelayMs: 1234, adminToken: 'from file' });
  });

  it('the environment wins over .env, and flags win over both', () => {
    expect(config([], { PORT: '7002', ADMIN_TOKEN: 'env' }, withEnvFile)).toMatchObject({
      port: 7002,
      host: '127.0.0.2',
      adminToken: 'env',
    });
    expect(config(['--port', '7003'], { PORT: '7002' }, withEnvFile)).toMatchObject({ port: 7003 });
  });

  it('a flag wins even over a bad environment value', () => {
    expect(config(['--port', '1'], { PORT: 'abc' }).port).toBe(1);
  });
});

describe('empty values', () => {
  it('an empty optional string means off', () => {
    expect(config([], { ADMIN_TOKEN: '', SERVER_REPORTING_DSN: '', CLIENT_REPORTING_DSN: '' })).toMatchObject({
      adminToken: undefined,
      serverReportingDsn: undefined,
      clientReportingDsn: undefined,
    });
  });

  it('an empty environment value counts as unset, so the value in .env applies', () => {
    const fromFile = config([], {}, withEnvFile);
    expect(fromFile.adminToken).toBeDefined();
    expect(config([], { ADMIN_TOKEN: '', PORT: '' }, withEnvFile)).toMatchObject({
      adminToken: fromFile.adminToken,
      port: fromFile.port,
    });
  });
});

describe('REDIS_URL', () => {
  it('is off by default', () => {
    expect(config([], {}).redisUrl).toBeUndefined();
  });

  it('accepts redis://, rediss:// and unix socket paths, from the environment or --redis-url', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://:pw@redis.internal:6380/2', 'rediss://cache.example:6379']) {
      expect(config([], { REDIS_URL: url }).redisUrl).toBe(url);
    }
    expect(config([], { REDIS_URL: '/run/redis/redis.sock' }).redisUrl).toBe('/run/redis/redis.sock');
    expect(config([], { REDIS_URL: 'unix:///run/redis.sock' }).redisUrl).toBe('unix:///run/redis.sock');
    expect(config(['--redis-url', 'redis://a:1'], { REDIS_URL: 'redis://b:2' }).redisUrl).toBe('redis://a:1');
  });

  it('a value that is not a Redis URL stops start-up with one line naming it', () => {
    for (const bad of ['http://127.0.0.1:6379', 'localhost:6379', 'redis.sock', 'redis://']) {
      expect(() => config([], { REDIS_URL: bad })).toThrow(/^REDIS_URL: ".*" is not a Redis URL/);
    }
    expect(() => resolveConfig({ argv: ['--help'], env: { REDIS_URL: 'nope' }, cwd: withEnvFile })).not.toThrow();
  });

  it('together with --memory stops start-up: one store only', () => {
    expect(() => config(['--memory'], { REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /^REDIS_URL: cannot be combined/,
    );
  });
});

describe('bad values throw a ConfigError naming the setting', () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    ['port abc (env)', [], { PORT: 'abc' }, 'PORT'],
    ['port abc (flag)', ['--port', 'abc'], {}, '--port'],
    ['port 70000', [], { PORT: '70000' }, 'PORT'],
    ['negative port', ['--port=-1'], {}, '--port'],
    ['negative limit (flag)', ['--max-delay-ms', '-5'], {}, '--max-delay-ms'],
    ['negative limit (env)', [], { JOURNAL_SIZE: '-1' }, 'JOURNAL_SIZE'],
    ['journal of zero requests (every journal read would fail)', [], { JOURNAL_SIZE: '0' }, 'JOURNAL_SIZE'],
    ['non-integer limit', [], { MAX_BODY_BYTES: '1.5' }, 'MAX_BODY_BYTES'],
    ['zero body limit', ['--max-body-bytes', '0'], {}, '--max-body-bytes'],
    ['limit with a unit', [], { CACHE_MAX_BYTES: '64MB' }, 'CACHE_MAX_BYTES'],
    ['delay limit above a day', [], { MAX_DELAY_MS: String(24 * 3600 * 1000 + 1) }, 'MAX_DELAY_MS'],
    ['unknown flag', ['--prot', '80'], {}, '--prot'],
    ['unknown flag with a value', ['--bogus=1'], {}, '--bogus'],
    ['positional argument', ['8080'], {}, '8080'],
    ['flag missing its value (last)', ['--port'], {}, '--port'],
    ['flag missing its value (before another flag)', ['--data-dir', '--memory'], {}, '--data-dir'],
    ['empty flag value', ['--host='], {}, '--host'],
    ['bad boolean', [], { MOCKPOINT_MEMORY: 'maybe' }, 'MOCKPOINT_MEMORY'],
    ['DSN that is not a URL', [], { SERVER_REPORTING_DSN: 'not a dsn' }, 'SERVER_REPORTING_DSN'],
    ['DSN without a public key', [], { CLIENT_REPORTING_DSN: 'https://sentry.example/1' }, 'CLIENT_REPORTING_DSN'],
    ['zero connections', [], { MOCKPOINT_MAX_CONNECTIONS: '0' }, 'MOCKPOINT_MAX_CONNECTIONS'],
    ['origin with a path', [], { MOCKPOINT_ALLOWED_ORIGINS: 'http://a.test/app' }, 'MOCKPOINT_ALLOWED_ORIGINS'],
    ['origin without a scheme', ['--allowed-origins', 'localhost:3000'], {}, '--allowed-origins'],
    ['DSN without a project', [], { SERVER_REPORTING_DSN: 'https://key@sentry.example/' }, 'SERVER_REPORTING_DSN'],
  ];

  it.each(cases)('%s', (_label, argv, env, setting) => {
    const error = configError(argv, env);
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.setting).toBe(setting);
    expect(error.message.startsWith(`${setting}: `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('--help and --version still work with bad settings around them', () => {
    expect(resolveConfig({ argv: ['--bogus', '--help'], env: { PORT: 'abc' }, cwd })).toMatchObject({
      help: true,
      config: { port: DEFAULTS.port },
    });
    expect(resolveConfig({ argv: ['-v'], env: { MAX_DELAY_MS: '-1' }, cwd }).version).toBe(true);
  });
});
