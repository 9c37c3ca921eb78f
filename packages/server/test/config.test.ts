// resolveConfig(): defaults, flags, environment and `.env`, their precedence, and
// a ConfigError naming the setting for every bad value.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultText, SETTING_LIST } from '@mockpoint/core/defaults';
import { EXPECTED_DEFAULT_LIMITS } from '@mockpoint/testkit/expected-health';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, HELP, resolveConfig } from '../src/config.js';

let cwd: string; // no .env
let withEnvFile: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'mockpoint-config-'));
  withEnvFile = await mkdtemp(join(tmpdir(), 'mockpoint-config-env-'));
  await writeFile(
    join(withEnvFile, '.env'),
    [
      '# settings for tests',
      'MOCKPOINT_PORT=7001',
      'MOCKPOINT_HOST=127.0.0.2',
      'MOCKPOINT_MAX_DELAY_MS=1234',
      'MOCKPOINT_ADMIN_TOKEN="from file"',
      '',
    ].join('\n'),
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
  it('listen on the loopback addresses (host undefined), port 16540, with ./data resolved against the working directory', () => {
    expect(resolveConfig({ argv: [], env: {}, cwd })).toEqual({
      help: false,
      version: false,
      envFile: undefined,
      config: {
        port: 16540,
        host: undefined,
        dataDir: join(cwd, 'data'),
        memory: false,
        ...EXPECTED_DEFAULT_LIMITS,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        allowedHosts: [],
        hosts: {},
        serve: {},
        twin: {},
        https: false,
        httpsPort: 16541,
        tlsCert: undefined,
        tlsKey: undefined,
        allowedOrigins: [],
        deliveryAllowHosts: [],
        proxyAllowHosts: [],
        proxyPassThrough: false,
        adminToken: undefined,
        serverReportingDsn: undefined,
        clientReportingDsn: undefined,
        configFile: undefined,
        watchConfig: false,
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
        '--max-body-bytes=10',
        '--max-delay-ms',
        '20',
        '--journal-size',
        '3',
        '--journal-max-bytes=5',
        '--cache-max-bytes=0',
        '--max-routes',
        '9',
        '--max-connections=8',
        '--allowed-origins',
        'http://localhost:5173, HTTPS://Mocks.Example',
        '--max-streams=4',
      ]),
    ).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: join(cwd, 'store/here'),
      memory: false,
      maxBodyBytes: 10,
      maxDelayMs: 20,
      journalSize: 3,
      journalMaxBytes: 5,
      cacheMaxBytes: 0,
      maxRoutes: 9,
      maxConnections: 8,
      allowedOrigins: ['http://localhost:5173', 'https://mocks.example'],
      maxStreams: 4,
    });
  });

  it('reads --memory (a flag refused together with --data-dir)', () => {
    expect(config(['--memory'])).toMatchObject({ memory: true });
  });

  it('reads every environment variable, MOCKPOINT_PORT and MOCKPOINT_DATA_DIR included', () => {
    expect(
      config([], {
        MOCKPOINT_PORT: '8080',
        MOCKPOINT_HOST: '::1',
        MOCKPOINT_DATA_DIR: '/var/lib/mockpoint',
        MOCKPOINT_MEMORY: 'true',
        MOCKPOINT_MAX_BODY_BYTES: '100',
        MOCKPOINT_MAX_DELAY_MS: '200',
        MOCKPOINT_JOURNAL_SIZE: '3',
        MOCKPOINT_JOURNAL_MAX_BYTES: '7',
        MOCKPOINT_CACHE_MAX_BYTES: '400',
        MOCKPOINT_MAX_ROUTES: '11',
        MOCKPOINT_MAX_COLLECTION_ITEMS: '15',
        MOCKPOINT_MAX_COLLECTION_BYTES: '2048',
        MOCKPOINT_MAX_GRAPHQL_SCHEMA_BYTES: '4096',
        MOCKPOINT_MAX_GRPC_DEFINITIONS_BYTES: '8192',
        MOCKPOINT_MAX_GRPC_MESSAGE_BYTES: '2048',
        MOCKPOINT_MAX_GRPC_STREAM_MESSAGES: '18',
        MOCKPOINT_MAX_GRPC_STREAMS: '19',
        MOCKPOINT_MAX_STREAM_EVENTS: '13',
        MOCKPOINT_MAX_STREAM_MS: '14',
        MOCKPOINT_MAX_CONNECTIONS: '12',
        MOCKPOINT_MAX_STREAMS: '9',
        MOCKPOINT_MAX_NAMESPACES: '16',
        MOCKPOINT_MAX_ENDPOINTS_PER_NAMESPACE: '17',
        MOCKPOINT_MAX_SOCKET_FRAME_BYTES: '4096',
        MOCKPOINT_MAX_SOCKETS_PER_NAME: '5',
        MOCKPOINT_SOCKET_IDLE_TIMEOUT_MS: '60000',
        MOCKPOINT_SOCKET_MESSAGE_TIMEOUT_MS: '5000',
        MOCKPOINT_GRAPHQL_SUBSCRIPTION_EVENTS: '6',
        MOCKPOINT_GRAPHQL_SUBSCRIPTION_INTERVAL_MS: '70',
        MOCKPOINT_PROXY_PASS_THROUGH: 'yes',
        MOCKPOINT_HEADERS_TIMEOUT_MS: '2000',
        MOCKPOINT_REQUEST_TIMEOUT_MS: '4000',
        MOCKPOINT_ALLOWED_ORIGINS: 'http://127.0.0.1:3000',
        MOCKPOINT_ADMIN_TOKEN: 'secret',
        MOCKPOINT_ALLOWED_HOSTS: 'mocks.internal,.example.com',
        MOCKPOINT_HOSTS: 'API.github.com=github,*.stripe.com=stripe',
        MOCKPOINT_SERVE: 'github=8081, payments=0',
        MOCKPOINT_TWIN: 'stripe=0',
        MOCKPOINT_HTTPS: 'on',
        MOCKPOINT_HTTPS_PORT: '8443',
        MOCKPOINT_TLS_CERT: 'tls/cert.pem',
        MOCKPOINT_TLS_KEY: 'tls/key.pem',
        MOCKPOINT_DELIVERY_ALLOW_HOSTS: 'receiver.internal',
        MOCKPOINT_PROXY_ALLOW_HOSTS: 'api.example.com,127.0.0.1',
        MOCKPOINT_CONFIG: 'mocks/mockpoint.yaml',
        MOCKPOINT_WATCH: '1',
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
      maxRoutes: 11,
      maxCollectionItems: 15,
      maxCollectionBytes: 2048,
      maxGraphqlSchemaBytes: 4096,
      maxGrpcDefinitionsBytes: 8192,
      maxGrpcMessageBytes: 2048,
      maxGrpcStreamMessages: 18,
      maxGrpcStreams: 19,
      maxStreamEvents: 13,
      maxStreamMs: 14,
      maxConnections: 12,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      maxStreams: 9,
      maxNamespaces: 16,
      maxEndpointsPerNamespace: 17,
      maxSocketFrameBytes: 4096,
      maxSocketsPerName: 5,
      socketIdleTimeoutMs: 60000,
      socketMessageTimeoutMs: 5000,
      graphqlSubscriptionEvents: 6,
      graphqlSubscriptionIntervalMs: 70,
      adminToken: 'secret',
      allowedHosts: ['mocks.internal', '.example.com'],
      hosts: { 'api.github.com': 'github', '*.stripe.com': 'stripe' },
      serve: { github: 8081, payments: 0 },
      twin: { stripe: 0 },
      https: true,
      httpsPort: 8443,
      tlsCert: join(cwd, 'tls/cert.pem'),
      tlsKey: join(cwd, 'tls/key.pem'),
      allowedOrigins: ['http://127.0.0.1:3000'],
      deliveryAllowHosts: ['receiver.internal'],
      proxyAllowHosts: ['api.example.com', '127.0.0.1'],
      proxyPassThrough: true,
      configFile: join(cwd, 'mocks/mockpoint.yaml'),
      watchConfig: true,
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
    expect(config([], { MOCKPOINT_PORT: '7002', MOCKPOINT_ADMIN_TOKEN: 'env' }, withEnvFile)).toMatchObject({
      port: 7002,
      host: '127.0.0.2',
      adminToken: 'env',
    });
    expect(config(['--port', '7003'], { MOCKPOINT_PORT: '7002' }, withEnvFile)).toMatchObject({ port: 7003 });
  });

  it('a flag wins even over a bad environment value', () => {
    expect(config(['--port', '1'], { MOCKPOINT_PORT: 'abc' }).port).toBe(1);
  });
});

describe('only our own names', () => {
  const generic = {
    PORT: '3000',
    HOST: '0.0.0.0',
    DATA_DIR: '/srv/app',
    REDIS_URL: 'redis://cache:6379',
    ADMIN_TOKEN: 'app-token',
    ALLOWED_HOSTS: 'app.example',
    MAX_BODY_BYTES: '10',
    MAX_DELAY_MS: '1',
    JOURNAL_SIZE: '1',
    JOURNAL_MAX_BYTES: '1',
    CACHE_MAX_BYTES: '1',
    MAX_STREAMS: '1',
    MAX_ROUTES: '1',
  };

  it("generic names (PORT=3000, an app's own) are not read from the environment", () => {
    expect(config([], generic)).toEqual(config([], {}));
  });

  it('nor from .env', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-config-app-'));
    try {
      await writeFile(
        join(dir, '.env'),
        Object.entries(generic)
          .map(([key, value]) => `${key}=${value}\n`)
          .join(''),
      );
      const request = resolveConfig({ argv: [], env: {}, cwd: dir });
      expect(request.envFile).toBe(join(dir, '.env'));
      expect(request.config).toEqual({ ...config([], {}), dataDir: join(dir, 'data') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('every setting but the two seed DSNs is named MOCKPOINT_*', () => {
    const names = SETTING_LIST.map((spec) => spec.env);
    expect(names.filter((name) => !name.startsWith('MOCKPOINT_'))).toEqual([
      'SERVER_REPORTING_DSN',
      'CLIENT_REPORTING_DSN',
    ]);
  });
});

describe('--env-file', () => {
  it('reads the given file (relative to the working directory) instead of ./.env', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mockpoint-config-file-'));
    try {
      await writeFile(join(dir, 'mock.env'), 'MOCKPOINT_JOURNAL_SIZE=9\n');
      for (const argv of [['--env-file', 'mock.env'], [`--env-file=${join(dir, 'mock.env')}`]]) {
        const request = resolveConfig({ argv, env: {}, cwd: dir });
        expect(request.envFile).toBe(join(dir, 'mock.env'));
        expect(request.config.journalSize).toBe(9);
      }
      // ./.env of the working directory is then not read.
      const request = resolveConfig({ argv: ['--env-file', join(dir, 'mock.env')], env: {}, cwd: withEnvFile });
      expect(request.config.port).toBe(16540);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a missing file is a ConfigError naming --env-file', () => {
    const error = configError(['--env-file', 'missing.env']);
    expect(error.setting).toBe('--env-file');
    expect(error.message).toBe(`--env-file: ${join(cwd, 'missing.env')} does not exist`);
  });
});

describe('--help', () => {
  it('lists every setting of the table with its variable, flag and default', () => {
    // A row is its flag's line and the lines under its text, read as one line.
    const rows = HELP.replace(/\n {32}/g, ' ').split('\n');
    for (const spec of SETTING_LIST) {
      const line = rows.find((text) => text.includes(` ${spec.env}`));
      expect(line, spec.env).toBeDefined();
      if (spec.flag) expect(line).toContain(spec.flag);
      const fallback = defaultText(spec);
      if (fallback !== undefined) expect(line).toContain(`(default ${fallback})`);
    }
    expect(HELP).toContain('--env-file <path>');
  });
});

describe('empty values', () => {
  it('--watch without --config is a ConfigError naming --watch', () => {
    expect(configError(['--watch']).message).toBe('--watch: needs a file to watch: --config <file>');
    expect(config(['--watch', '--config', 'm.yaml'])).toMatchObject({
      watchConfig: true,
      configFile: join(cwd, 'm.yaml'),
    });
  });

  it('an empty optional string means off', () => {
    expect(config([], { MOCKPOINT_ADMIN_TOKEN: '', SERVER_REPORTING_DSN: '', CLIENT_REPORTING_DSN: '' })).toMatchObject(
      {
        adminToken: undefined,
        serverReportingDsn: undefined,
        clientReportingDsn: undefined,
      },
    );
  });

  it('an empty environment value counts as unset, so the value in .env applies', () => {
    const fromFile = config([], {}, withEnvFile);
    expect(fromFile.adminToken).toBeDefined();
    expect(config([], { MOCKPOINT_ADMIN_TOKEN: '', MOCKPOINT_PORT: '' }, withEnvFile)).toMatchObject({
      adminToken: fromFile.adminToken,
      port: fromFile.port,
    });
  });
});

describe('MOCKPOINT_REDIS_URL', () => {
  it('is off by default', () => {
    expect(config([], {}).redisUrl).toBeUndefined();
  });

  it('accepts redis://, rediss:// and unix socket paths, from the environment or --redis-url', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://:pw@redis.internal:6380/2', 'rediss://cache.example:6379']) {
      expect(config([], { MOCKPOINT_REDIS_URL: url }).redisUrl).toBe(url);
    }
    expect(config([], { MOCKPOINT_REDIS_URL: '/run/redis/redis.sock' }).redisUrl).toBe('/run/redis/redis.sock');
    expect(config([], { MOCKPOINT_REDIS_URL: 'unix:///run/redis.sock' }).redisUrl).toBe('unix:///run/redis.sock');
    expect(config(['--redis-url', 'redis://a:1'], { MOCKPOINT_REDIS_URL: 'redis://b:2' }).redisUrl).toBe('redis://a:1');
  });

  it('a value that is not a Redis URL stops start-up with one line naming it', () => {
    for (const bad of ['http://127.0.0.1:6379', 'localhost:6379', 'redis.sock', 'redis://']) {
      expect(() => config([], { MOCKPOINT_REDIS_URL: bad })).toThrow(/^MOCKPOINT_REDIS_URL: ".*" is not a Redis URL/);
    }
    expect(() =>
      resolveConfig({ argv: ['--help'], env: { MOCKPOINT_REDIS_URL: 'nope' }, cwd: withEnvFile }),
    ).not.toThrow();
  });

  it('together with --memory stops start-up: one store only', () => {
    expect(() => config(['--memory'], { MOCKPOINT_REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /^MOCKPOINT_REDIS_URL: cannot be combined/,
    );
  });
});

describe('bad values throw a ConfigError naming the setting', () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    ['port abc (env)', [], { MOCKPOINT_PORT: 'abc' }, 'MOCKPOINT_PORT'],
    ['port abc (flag)', ['--port', 'abc'], {}, '--port'],
    ['port 70000', [], { MOCKPOINT_PORT: '70000' }, 'MOCKPOINT_PORT'],
    ['negative port', ['--port=-1'], {}, '--port'],
    ['negative limit (flag)', ['--max-delay-ms', '-5'], {}, '--max-delay-ms'],
    ['negative limit (env)', [], { MOCKPOINT_JOURNAL_SIZE: '-1' }, 'MOCKPOINT_JOURNAL_SIZE'],
    [
      'journal of zero requests (every journal read would fail)',
      [],
      { MOCKPOINT_JOURNAL_SIZE: '0' },
      'MOCKPOINT_JOURNAL_SIZE',
    ],
    ['non-integer limit', [], { MOCKPOINT_MAX_BODY_BYTES: '1.5' }, 'MOCKPOINT_MAX_BODY_BYTES'],
    ['zero body limit', ['--max-body-bytes', '0'], {}, '--max-body-bytes'],
    ['limit with a unit', [], { MOCKPOINT_CACHE_MAX_BYTES: '64MB' }, 'MOCKPOINT_CACHE_MAX_BYTES'],
    ['delay limit above a day', [], { MOCKPOINT_MAX_DELAY_MS: String(24 * 3600 * 1000 + 1) }, 'MOCKPOINT_MAX_DELAY_MS'],
    ['unknown flag', ['--prot', '80'], {}, '--prot'],
    ['unknown flag with a value', ['--bogus=1'], {}, '--bogus'],
    ['positional argument', ['8080'], {}, '8080'],
    ['flag missing its value (last)', ['--port'], {}, '--port'],
    ['flag missing its value (before another flag)', ['--data-dir', '--memory'], {}, '--data-dir'],
    ['empty flag value', ['--host='], {}, '--host'],
    ['origin with a path', [], { MOCKPOINT_ALLOWED_ORIGINS: 'http://a.example/app' }, 'MOCKPOINT_ALLOWED_ORIGINS'],
    ['origin without a scheme', ['--allowed-origins', 'a.example'], {}, '--allowed-origins'],
    ['zero routes', [], { MOCKPOINT_MAX_ROUTES: '0' }, 'MOCKPOINT_MAX_ROUTES'],
    ['zero connections', ['--max-connections', '0'], {}, '--max-connections'],
    ['bad boolean', [], { MOCKPOINT_MEMORY: 'maybe' }, 'MOCKPOINT_MEMORY'],
    ['DSN that is not a URL', [], { SERVER_REPORTING_DSN: 'not a dsn' }, 'SERVER_REPORTING_DSN'],
    ['DSN without a public key', [], { CLIENT_REPORTING_DSN: 'https://sentry.example/1' }, 'CLIENT_REPORTING_DSN'],
    ['zero connections', [], { MOCKPOINT_MAX_CONNECTIONS: '0' }, 'MOCKPOINT_MAX_CONNECTIONS'],
    ['origin with a path', [], { MOCKPOINT_ALLOWED_ORIGINS: 'http://a.test/app' }, 'MOCKPOINT_ALLOWED_ORIGINS'],
    ['origin without a scheme', ['--allowed-origins', 'localhost:3000'], {}, '--allowed-origins'],
    ['DSN without a project', [], { SERVER_REPORTING_DSN: 'https://key@sentry.example/' }, 'SERVER_REPORTING_DSN'],
    ['host rule with a path', [], { MOCKPOINT_PROXY_ALLOW_HOSTS: 'api.example.com/v1' }, 'MOCKPOINT_PROXY_ALLOW_HOSTS'],
    ['host rule with a port of 0', [], { MOCKPOINT_ALLOWED_HOSTS: 'mocks.internal:0' }, 'MOCKPOINT_ALLOWED_HOSTS'],
    [
      'host rule with a port too big',
      [],
      { MOCKPOINT_PROXY_ALLOW_HOSTS: '127.0.0.1:65536' },
      'MOCKPOINT_PROXY_ALLOW_HOSTS',
    ],
    ['IPv6 rule that is none', [], { MOCKPOINT_DELIVERY_ALLOW_HOSTS: '[::g]' }, 'MOCKPOINT_DELIVERY_ALLOW_HOSTS'],
    ['host rule with a scheme', ['--delivery-allow-hosts', 'http://a.example'], {}, '--delivery-allow-hosts'],
    ['host map without a name', ['--hosts', 'api.github.com'], {}, '--hosts'],
    ['host map with an IP', [], { MOCKPOINT_HOSTS: '127.0.0.1=local' }, 'MOCKPOINT_HOSTS'],
    ['host mapped twice', [], { MOCKPOINT_HOSTS: 'a.test=x,A.test=y' }, 'MOCKPOINT_HOSTS'],
    ['serve without a port', ['--serve', 'github'], {}, '--serve'],
    ['serve with a port too big', [], { MOCKPOINT_SERVE: 'github=65536' }, 'MOCKPOINT_SERVE'],
    ['one endpoint served twice', ['--serve', 'a=1', '--serve', 'a=2'], {}, '--serve'],
    ['a certificate without its key', ['--cert', 'c.pem'], {}, '--cert'],
    ['a key without its certificate', [], { MOCKPOINT_TLS_KEY: 'k.pem' }, '--key'],
    ['an HTTPS port that is none', ['--https-port', 'x'], {}, '--https-port'],
  ];

  it.each(cases)('%s', (_label, argv, env, setting) => {
    const error = configError(argv, env);
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.setting).toBe(setting);
    expect(error.message.startsWith(`${setting}: `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('takes IPv6 addresses and host:port entries in the three host lists (one rule)', () => {
    const entries = '127.0.0.1:8080,::1,[::1]:9090,.example.com:8443,Mocks.Internal.';
    const { config: parsed } = resolveConfig({
      argv: [],
      env: {
        MOCKPOINT_ALLOWED_HOSTS: entries,
        MOCKPOINT_DELIVERY_ALLOW_HOSTS: entries,
        MOCKPOINT_PROXY_ALLOW_HOSTS: entries,
      },
      cwd,
    });
    const list = ['127.0.0.1:8080', '::1', '[::1]:9090', '.example.com:8443', 'Mocks.Internal.'];
    expect(parsed).toMatchObject({ allowedHosts: list, deliveryAllowHosts: list, proxyAllowHosts: list });
  });

  it('--help and --version still work with bad settings around them', () => {
    expect(resolveConfig({ argv: ['--bogus', '--help'], env: { MOCKPOINT_PORT: 'abc' }, cwd })).toMatchObject({
      help: true,
      config: { port: DEFAULTS.port },
    });
    expect(resolveConfig({ argv: ['-v'], env: { MOCKPOINT_MAX_DELAY_MS: '-1' }, cwd }).version).toBe(true);
  });
});
