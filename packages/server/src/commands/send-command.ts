/**
 * `mockpoint send URL`: one signed webhook delivery to a receiver under test,
 * with retries and tampering, printing each attempt as it is made. Sent from
 * this process (no daemon needed), or through a daemon with `--url URL` (alias `--daemon`)
 * (its retries then survive this command). Exits 0 when the delivery did what
 * was asked: delivered, or — with `--tamper` — rejected by the receiver.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import {
  type CreateAppOptions,
  createApp,
  createClient,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryInput,
  JsonText,
  type MockpointApp,
  maskCredentials,
} from '@mockpoint/core';
import { SETTINGS } from '@mockpoint/core/defaults';
import { signatureSchemes } from '@mockpoint/core/internal';
import { optionsHelp, UsageError } from './command-args.js';

/** The schemes `--sign` takes, from the one list (built in: this process loads no provider). */
const SCHEMES = signatureSchemes().map((scheme) => scheme.name);

export const SEND_HELP = `Usage: mockpoint send <url> [options]

Sends one webhook delivery to <url> (a receiver on this machine, or on a host
listed in ${SETTINGS.deliveryAllowHosts.env}), signed afresh on every attempt, and
prints each attempt. Exits 0 when it was delivered (with
--tamper: when the receiver rejected it), 1 otherwise, 2 for a bad argument.

${optionsHelp(`
--data <json|@file>    | body: JSON, sent as its exact text (application/json)
--body <text|@file>    | body: text, sent as is
--file <path>          | body: the file's bytes (application/octet-stream)
--sign <scheme>        | ${SCHEMES.slice(0, -1).join(', ')} or ${SCHEMES.at(-1)}
--secret <secret>      | the signing secret (standard: whsec_<base64>)
--hmac-header <name>   | the header of the hmac scheme (sha256, hex)
--tamper <mode>        | send a bad delivery: body, signature, secret, stale, duplicate
-H, --header <Name: v> | a request header (repeatable)
--method <m>           | POST (default), PUT or PATCH
--retry <schedule>     | "standard", or delays in ms before each retry, e.g. 100,1000
--timeout <ms>         | per attempt (default 15000)
--url <url>            | send through this mockpoint daemon instead of from here
                       | (--daemon <url> is the same; MOCKPOINT_URL is not read:
                       | without --url, send needs no daemon)
--token <token>        | ${SETTINGS.adminToken.env} | the daemon's admin token, when it needs one
--json                 | print the finished delivery as JSON
                       | ${SETTINGS.deliveryAllowHosts.env} | sent from here: the hosts it may reach besides loopback (as the daemon)
`)}`;

/** What the arguments ask for. */
export interface SendOptions {
  input: DeliveryInput;
  /** The daemon to send through (`--url`, or its alias `--daemon`); sent from this process when undefined. */
  url: string | undefined;
  token: string | undefined;
  json: boolean;
}

/** Where `send` writes: a line at a time. */
export interface SendIo {
  out(line: string): void;
  err(line: string): void;
  readFile(path: string): Buffer;
}

const NODE_IO: Pick<SendIo, 'readFile'> = { readFile: (path) => readFileSync(path) };

/** The options from the arguments after `send`; `undefined` for `--help`. */
export function parseSendArgs(
  argv: readonly string[],
  io: Pick<SendIo, 'readFile'> = NODE_IO,
  env: Record<string, string | undefined> = {},
): SendOptions | undefined {
  const args = [...argv];
  const input: Partial<DeliveryInput> = {};
  const headers: Record<string, string> = {};
  let scheme: string | undefined;
  let secret: string | undefined;
  let hmacHeader: string | undefined;
  let url: string | undefined;
  let token: string | undefined;
  let json = false;
  const read = (flag: string, text: string): Buffer => {
    try {
      return io.readFile(text);
    } catch (error) {
      throw new UsageError(`${flag}: cannot read ${text}: ${(error as Error).message}`);
    }
  };
  const textOrFile = (flag: string, text: string) =>
    text.startsWith('@') ? read(flag, text.slice(1)).toString('utf8') : text;
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-h' || arg === '--help') return undefined;
    if (arg === '--json') {
      json = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const value = () => {
      const given = flag !== arg ? arg.slice(eq + 1) : args.shift();
      if (given === undefined || given === '') throw new UsageError(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--data': {
        const text = textOrFile(flag, value());
        try {
          input.data = JsonText.parse(text);
        } catch (error) {
          throw new UsageError(`--data is not JSON: ${(error as Error).message}`);
        }
        break;
      }
      case '--body':
        input.body = textOrFile(flag, value());
        break;
      case '--file':
        input.bodyBase64 = read(flag, value()).toString('base64');
        break;
      case '-H':
      case '--header': {
        const text = value();
        const colon = text.indexOf(':');
        if (colon <= 0) throw new UsageError(`${flag} must be 'Name: value'; received ${text}`);
        headers[text.slice(0, colon).trim()] = text.slice(colon + 1).trim();
        break;
      }
      case '--method':
        input.method = value().toUpperCase() as DeliveryInput['method'];
        break;
      case '--sign':
        scheme = value();
        break;
      case '--secret':
        secret = value();
        break;
      case '--hmac-header':
        hmacHeader = value();
        break;
      case '--tamper':
        input.tamper = value() as DeliveryInput['tamper'];
        break;
      case '--retry': {
        const text = value();
        if (text === 'standard') input.retry = 'standard';
        else {
          const delays = text.split(',').map((part) => Number(part.trim()));
          if (delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
            throw new UsageError(
              `--retry must be "standard" or milliseconds separated by commas, e.g. 100,1000; received ${text}`,
            );
          }
          input.retry = { delaysMs: delays };
        }
        break;
      }
      case '--timeout':
        input.timeoutMs = Number(value());
        break;
      case '--url':
      case '--daemon': {
        const text = value();
        if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
          throw new UsageError(`${flag} must be an http(s) URL, e.g. http://localhost:16540; received ${text}`);
        }
        url = text.replace(/\/+$/, '');
        break;
      }
      case '--token':
        token = value();
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg} (see mockpoint send --help)`);
        if (input.url !== undefined)
          throw new UsageError(`one URL at most; received ${maskCredentials(input.url)} and ${maskCredentials(arg)}`);
        input.url = arg;
    }
  }
  if (input.url === undefined) throw new UsageError('give the receiver URL: mockpoint send <url> (see --help)');
  if ((scheme === undefined) !== (secret === undefined)) throw new UsageError('--sign and --secret go together');
  if (scheme !== undefined && secret !== undefined) {
    input.sign = { scheme: scheme as NonNullable<DeliveryInput['sign']>['scheme'], secret };
    if (hmacHeader !== undefined) input.sign.hmac = { header: hmacHeader };
  }
  if (Object.keys(headers).length > 0) input.headers = headers;
  token ??= url === undefined ? undefined : env[SETTINGS.adminToken.env] || undefined;
  return { input: input as DeliveryInput, url, token, json };
}

/** One attempt as a line: `#1 503 in 12 ms` or `#2 TIMEOUT in 15001 ms: …`. */
export function attemptLine(attempt: DeliveryAttempt): string {
  const what = attempt.error
    ? `${attempt.error.code}${attempt.status ? ` (${attempt.status})` : ''}: ${attempt.error.message}`
    : String(attempt.status);
  const tamper = attempt.tamper ? ` [tamper ${attempt.tamper}]` : '';
  return `#${attempt.n} ${what} in ${attempt.durationMs} ms${tamper}`;
}

/** Whether the delivery did what was asked: delivered, or with a tamper rejected by the receiver with an HTTP answer. */
export function succeeded(delivery: Delivery): boolean {
  if (delivery.tamper === undefined) return delivery.state === 'delivered';
  const last = delivery.attempts.at(-1);
  return last?.status !== undefined && last.error === undefined && (last.status < 200 || last.status >= 300);
}

/** What a delivery sent from this process (no `--url`) obeys: the daemon's own settings. */
export type LocalSendSettings = Pick<CreateAppOptions, 'deliveryAllowHosts' | 'deliverySend'>;

/**
 * Sends, prints each attempt, and resolves the exit code. Errors from the server (a refusal) reject.
 * Without `--url` the delivery is made here, under `local` (MOCKPOINT_DELIVERY_ALLOW_HOSTS, as a daemon would).
 */
export async function runSend(
  options: SendOptions,
  io: Pick<SendIo, 'out' | 'err'>,
  local: LocalSendSettings = {},
): Promise<number> {
  let app: MockpointApp | undefined;
  if (options.url === undefined) app = createApp(local);
  const client = createClient({ baseUrl: options.url ?? 'http://mockpoint.local', token: options.token, app });
  try {
    const sent = await client.deliver(options.input);
    io.err(`mockpoint send: delivery ${sent.id} to ${sent.url}${sent.webhookId ? ` (id ${sent.webhookId})` : ''}`);
    let printed = 0;
    let delivery = sent;
    for (;;) {
      try {
        delivery = await client.waitForDelivery(sent.id, { timeout: 1000 });
      } catch (error) {
        if ((error as { code?: string }).code !== 'WAIT_TIMEOUT') throw error;
        delivery = await client.delivery(sent.id);
      }
      for (const attempt of delivery.attempts.slice(printed)) io.out(attemptLine(attempt));
      printed = delivery.attempts.length;
      if (delivery.state !== 'pending') break;
    }
    const ok = succeeded(delivery);
    if (options.json) io.out(JSON.stringify(delivery));
    const verdict = delivery.tamper
      ? ok
        ? `rejected by the receiver, as a tampered (${delivery.tamper}) delivery should be`
        : `NOT rejected: the receiver accepted a tampered (${delivery.tamper}) delivery or did not answer`
      : `${delivery.state}: ${delivery.outcome?.message ?? ''}`;
    io.err(`mockpoint send: ${verdict}`);
    return ok ? 0 : 1;
  } finally {
    await app?.mockpoint.deliveries.close();
  }
}
