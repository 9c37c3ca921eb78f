/**
 * `node --import @mockpoint/server/proxy-env app.js`: routes an unchanged Node
 * application's HTTP through the proxy that `HTTPS_PROXY` / `HTTP_PROXY` name (the
 * mockpoint daemon, docs/https.md), which Node 20 ignores by itself (Node's
 * built-in proxy support, `NODE_USE_ENV_PROXY=1`, came with Node 24.5 and 22.21):
 *
 * - `fetch()` (Node's own) and undici's `fetch`/`request`: undici's
 *   `EnvHttpProxyAgent` as the global dispatcher (`setGlobalDispatcher`);
 * - `node:http` and `node:https` (`http.get`, `https.request`, and every library
 *   built on their global agents, such as axios and got): agents that send
 *   `http://` requests to the proxy in absolute form and open a `CONNECT` tunnel
 *   for `https://` ones (TLS to the target inside it, trusting what Node trusts:
 *   `NODE_EXTRA_CA_CERTS` for the daemon's local CA).
 *
 * The variables are read once, at start: `https_proxy`/`HTTPS_PROXY` for
 * `https://` URLs (else the HTTP proxy, as undici does), `http_proxy`/`HTTP_PROXY`
 * for `http://` ones (the lower-case name wins, as in Node and undici), and
 * `no_proxy`/`NO_PROXY` (a comma list of names, each also covering the names
 * below it, `.example.com` and `*.example.com` alike, a `:port` narrowing it, `*`
 * for every name) for hosts reached directly. Without a proxy variable it does
 * nothing. An agent an application passes itself (`{ agent }`, `{ dispatcher }`)
 * is left alone.
 *
 * @module
 */
import http from 'node:http';
import https from 'node:https';
import { connect as connectTcp, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';

/** The proxy settings read from the environment. */
interface ProxyEnv {
  http: URL | undefined;
  https: URL | undefined;
  noProxy: readonly { host: string; port: string }[];
}

/** A proxy URL from the variable's value, or `undefined` when it is empty or not a URL. */
function proxyUrl(value: string | undefined): URL | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return new URL(value.includes('://') ? value : `http://${value}`);
  } catch {
    process.stderr.write(`mockpoint proxy-env: ignoring a proxy variable that is not a URL: ${value.slice(0, 100)}\n`);
    return undefined;
  }
}

function readEnv(env: NodeJS.ProcessEnv): ProxyEnv {
  const httpProxy = proxyUrl(env.http_proxy ?? env.HTTP_PROXY);
  const noProxy = (env.no_proxy ?? env.NO_PROXY ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((entry) => {
      const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase()) as RegExpExecArray;
      return { host: (match[1] as string).replace(/^\*?\./, '').replace(/^\[|\]$/g, ''), port: match[2] ?? '' };
    });
  return { http: httpProxy, https: proxyUrl(env.https_proxy ?? env.HTTPS_PROXY) ?? httpProxy, noProxy };
}

/** The proxy for a request to `host`:`port` over `protocol`, or `undefined` to go directly. */
function proxyFor(settings: ProxyEnv, protocol: 'http:' | 'https:', host: string, port: number): URL | undefined {
  const proxy = protocol === 'https:' ? settings.https : settings.http;
  if (proxy === undefined) return undefined;
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  const bypassed = settings.noProxy.some(
    (entry) =>
      (entry.host === '*' || name === entry.host || name.endsWith(`.${entry.host}`)) &&
      (entry.port === '' || entry.port === String(port)),
  );
  return bypassed ? undefined : proxy;
}

/** `Proxy-Authorization` for a proxy URL with a user name, else nothing. */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '') return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

function proxyPort(proxy: URL): number {
  return Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
}

/** A connection to the proxy itself (TLS for an `https://` proxy). */
function connectProxy(proxy: URL): Socket {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  return proxy.protocol === 'https:'
    ? connectTls({ host, port: proxyPort(proxy), servername: host })
    : connectTcp({ host, port: proxyPort(proxy) });
}

/** The bounded text of a refusal, for the error: status line and the start of its body. */
function refusalText(answer: string): string {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return `${head.split('\r\n')[0]}${body === '' ? '' : `: ${body.slice(0, 300)}`}`;
}

/**
 * Opens a `CONNECT` tunnel to `host`:`port` through `proxy`; calls back with the
 * tunnel's socket once the proxy answered 200, or with an error naming its answer.
 */
function tunnel(proxy: URL, host: string, port: number, done: (error: Error | null, socket?: Socket) => void): void {
  const socket = connectProxy(proxy);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const auth = proxyAuthorization(proxy);
  let answer = '';
  const fail = (error: Error): void => {
    socket.destroy();
    done(error);
  };
  const onData = (chunk: Buffer): void => {
    answer += chunk.toString('latin1');
    const end = answer.indexOf('\r\n\r\n');
    if (end === -1) {
      if (answer.length > 16_384) fail(new Error(`the proxy ${proxy.host} sent no end to its answer to CONNECT`));
      return;
    }
    socket.off('data', onData).off('error', fail);
    if (!/^HTTP\/1\.[01] 200/.test(answer)) {
      fail(new Error(`the proxy ${proxy.host} refused CONNECT ${authority}: ${refusalText(answer)}`));
      return;
    }
    const rest = Buffer.from(answer.slice(end + 4), 'latin1');
    if (rest.byteLength > 0) socket.unshift(rest);
    done(null, socket);
  };
  socket.on('data', onData).on('error', fail);
  socket.write(
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth === undefined ? '' : `Proxy-Authorization: ${auth}\r\n`}\r\n`,
  );
}

type AgentOptions = http.AgentOptions & { host?: string; port?: number | string; servername?: string };

/** `node:http`'s agent through the HTTP proxy: each request sent to the proxy in absolute form. */
class ProxyHttpAgent extends http.Agent {
  readonly #settings: ProxyEnv;
  constructor(settings: ProxyEnv) {
    super({ keepAlive: true });
    this.#settings = settings;
  }
  // Node's Agent calls addRequest for each request (its typings leave it out).
  addRequest(req: http.ClientRequest, options: AgentOptions): void {
    const host = String(options.host ?? 'localhost');
    const port = Number(options.port ?? 80);
    const proxy = proxyFor(this.#settings, 'http:', host, port);
    if (proxy === undefined || proxy.protocol !== 'http:') {
      // An https:// proxy for http:// requests is left to fetch (undici); node:http goes directly.
      (http.Agent.prototype as unknown as { addRequest: (r: unknown, o: unknown) => void }).addRequest.call(
        this,
        req,
        options,
      );
      return;
    }
    const authority = `${host.includes(':') ? `[${host}]` : host}${port === 80 ? '' : `:${port}`}`;
    const request = req as http.ClientRequest & { _header?: string | null };
    const target = `http://${authority}${req.path}`;
    request.path = target;
    const auth = proxyAuthorization(proxy);
    if (request._header) {
      // A head already rendered (headers given as an array): its request line and proxy credentials, in place.
      const [line, ...rest] = request._header.split('\r\n');
      const head = [(line as string).replace(/^(\S+) \S+/, `$1 ${target}`), ...rest].join('\r\n');
      request._header =
        auth === undefined ? head : head.replace(/\r\n\r\n$/, `\r\nProxy-Authorization: ${auth}\r\n\r\n`);
    } else if (auth !== undefined) req.setHeader('proxy-authorization', auth);
    (http.Agent.prototype as unknown as { addRequest: (r: unknown, o: unknown) => void }).addRequest.call(this, req, {
      ...options,
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxyPort(proxy),
    });
  }
}

/** `node:https`'s agent through the HTTPS proxy: TLS to the target inside a `CONNECT` tunnel. */
class ProxyHttpsAgent extends https.Agent {
  readonly #settings: ProxyEnv;
  constructor(settings: ProxyEnv) {
    super({ keepAlive: true });
    this.#settings = settings;
  }
  override createConnection(
    given: http.RequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const options = given as AgentOptions & ConnectionOptions;
    const host = String(options.host ?? 'localhost');
    const port = Number(options.port ?? 443);
    const proxy = proxyFor(this.#settings, 'https:', host, port);
    const direct = https.Agent.prototype as unknown as {
      createConnection: (o: unknown, c?: unknown) => Socket | undefined;
    };
    if (proxy === undefined || callback === undefined) return direct.createConnection.call(this, options, callback);
    tunnel(proxy, host, port, (error, socket) => {
      if (error !== null || socket === undefined) {
        callback(error ?? new Error('no tunnel'), undefined as unknown as Duplex);
        return;
      }
      const servername = options.servername ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
      callback(null, connectTls({ ...options, socket, servername }));
    });
    return undefined;
  }
}

const settings = readEnv(process.env);
if (settings.http !== undefined || settings.https !== undefined) {
  // Node's own fetch and the undici package share this one global dispatcher.
  setGlobalDispatcher(new EnvHttpProxyAgent());
  http.globalAgent = new ProxyHttpAgent(settings);
  https.globalAgent = new ProxyHttpsAgent(settings);
}
