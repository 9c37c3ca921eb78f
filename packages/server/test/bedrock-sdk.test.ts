// Bedrock `llm` answers on the built daemon as a real process, read by the official AWS SDK
// (`@aws-sdk/client-bedrock-runtime`) with its endpoint at http://127.0.0.1:<port>/endpoint/<name>,
// dummy credentials and us-east-1 (it signs with SigV4; the daemon ignores the signature), and an
// HTTP/1.1 handler (the client's default on Node speaks HTTP/2, which plain HTTP does not): Converse
// and ConverseStream parse (text, a tool call with its input, usage, metrics), the model id the SDK
// percent-encodes matches a route written with `:` or a parameter, and each error raises the SDK's
// own exception. The event stream frames are the core's own: the daemon loads no AWS package
// (`@smithy/*`, `@aws-sdk/*` are the tests' devDependencies, never installed by a user).

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  InternalServerException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { createClient, type RouteInput } from '@mockpoint/core';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type Daemon,
  killAll,
  makeTempDir,
  ON_BUN,
  removeTempDirs,
  requestJson,
  startDaemon,
} from './helpers/daemon.js';

let daemon: Daemon;

beforeAll(async () => {
  assertBuilt();
  daemon = await startDaemon({ args: ['--memory'] });
});
afterAll(async () => {
  await killAll();
  await removeTempDirs();
});

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const TEXT = 'Paris is the capital of France. It has about 2.1 million people!';
const CALL = { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius', days: [1, 2] } };
const MESSAGES = [{ role: 'user' as const, content: [{ text: 'What is the capital of France?' }] }];

/** A client of the routes set on a fresh endpoint name. */
async function bedrock(name: string, routes: RouteInput[], maxAttempts = 1): Promise<BedrockRuntimeClient> {
  await createClient({ baseUrl: daemon.url }).setRoutes(name, routes);
  return new BedrockRuntimeClient({
    endpoint: `${daemon.url}/endpoint/${name}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts,
  });
}

function route(path: string, llm: Record<string, unknown>): RouteInput {
  return { match: { method: 'POST', path }, answer: { llm: { provider: 'bedrock', ...llm } } } as RouteInput;
}

describe('Converse', () => {
  it('text with usage and metrics, on a route written with the model id as it is', async () => {
    const client = await bedrock('br-json', [
      route(`/model/${MODEL}/converse`, { api: 'converse', text: TEXT, usage: { inputTokens: 12, outputTokens: 20 } }),
    ]);
    const out = await client.send(new ConverseCommand({ modelId: MODEL, messages: MESSAGES }));
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(out.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.output?.message).toEqual({ role: 'assistant', content: [{ text: TEXT }] });
    expect(out.stopReason).toBe('end_turn');
    expect(out.usage).toEqual({ inputTokens: 12, outputTokens: 20, totalTokens: 32 });
    expect(out.metrics?.latencyMs).toBeGreaterThan(0);
    const journal = await createClient({ baseUrl: daemon.url }).requests('br-json');
    // The SDK's own path: the model id percent-encoded.
    expect(journal[0]?.path).toBe('/endpoint/br-json/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
  });

  it('a tool call: toolUse with its input as an object, stopReason tool_use (a route with the id encoded)', async () => {
    const client = await bedrock('br-tool', [
      route('/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse', {
        api: 'converse',
        toolCalls: [{ ...CALL, id: 'tooluse_abc' }],
      }),
    ]);
    const out = await client.send(new ConverseCommand({ modelId: MODEL, messages: MESSAGES }));
    expect(out.output?.message?.content).toEqual([
      { toolUse: { toolUseId: 'tooluse_abc', name: 'get_weather', input: CALL.arguments } },
    ]);
    expect(out.stopReason).toBe('tool_use');
  });
});

describe('ConverseStream', () => {
  async function events(client: BedrockRuntimeClient): Promise<ConverseStreamOutput[]> {
    const out = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: MESSAGES }));
    const all: ConverseStreamOutput[] = [];
    for await (const event of out.stream ?? []) all.push(event);
    return all;
  }

  it('text deltas that join into the text, messageStop, metadata with usage', async () => {
    const client = await bedrock('br-stream', [
      route('/model/:model/converse-stream', { api: 'converse-stream', text: TEXT, chunkDelayMs: 1 }),
    ]);
    const all = await events(client);
    expect(Object.keys(all[0] ?? {})).toEqual(['messageStart']);
    expect(all[0]?.messageStart?.role).toBe('assistant');
    const text = all.map((event) => event.contentBlockDelta?.delta?.text ?? '').join('');
    expect(text).toBe(TEXT);
    expect(all.filter((event) => event.contentBlockDelta !== undefined).length).toBeGreaterThan(10);
    expect(all.at(-2)?.messageStop?.stopReason).toBe('end_turn');
    expect(all.at(-1)?.metadata?.usage?.totalTokens).toBeGreaterThan(0);
    expect(all.at(-1)?.metadata?.metrics?.latencyMs).toBeGreaterThan(0);
  });

  it('a tool call: contentBlockStart with its id and name, input deltas that join into its JSON', async () => {
    const client = await bedrock('br-stream-tool', [
      route('/model/:model/converse-stream', { api: 'converse-stream', text: 'Let me look.', toolCalls: [CALL] }),
    ]);
    const all = await events(client);
    const start = all.find((event) => event.contentBlockStart !== undefined)?.contentBlockStart;
    expect(start?.contentBlockIndex).toBe(1);
    expect(start?.start?.toolUse?.name).toBe('get_weather');
    expect(start?.start?.toolUse?.toolUseId).toMatch(/^tooluse_[A-Za-z0-9_-]{22}$/);
    const input = all
      .filter((event) => event.contentBlockDelta?.contentBlockIndex === 1)
      .map((event) => event.contentBlockDelta?.delta?.toolUse?.input ?? '')
      .join('');
    expect(JSON.parse(input)).toEqual(CALL.arguments);
    expect(all.at(-2)?.messageStop?.stopReason).toBe('tool_use');
  });
});

describe('errors', () => {
  it('mid-stream: the text deltas, then the SDK raises the exception frame as ThrottlingException', async () => {
    const client = await bedrock('br-midstream', [
      route('/model/:model/converse-stream', { api: 'converse-stream', text: TEXT, error: 'rate_limit' }),
    ]);
    const out = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: MESSAGES }));
    let text = '';
    const error = await (async () => {
      for await (const event of out.stream ?? []) text += event.contentBlockDelta?.delta?.text ?? '';
    })().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(text).toBe(TEXT);
    expect(error).toBeInstanceOf(ThrottlingException);
    expect((error as Error).message).toBe('Too many requests, please wait before trying again.');
  });

  it.each([
    ['rate_limit', ThrottlingException, 429],
    ['overloaded', ServiceUnavailableException, 503],
    ['server', InternalServerException, 500],
    ['context_length', ValidationException, 400],
  ] as const)('%s raises %o with status %i', async (type, exception, status) => {
    const client = await bedrock(`br-${type.replace('_', '-')}`, [
      route('/model/:model/converse', { api: 'converse', error: type }),
      route('/model/:model/converse-stream', { api: 'converse-stream', error: type }),
    ]);
    for (const command of [
      new ConverseCommand({ modelId: MODEL, messages: MESSAGES }),
      new ConverseStreamCommand({ modelId: MODEL, messages: MESSAGES }),
    ]) {
      const error = await client.send(command as ConverseCommand).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(exception);
      expect((error as InstanceType<typeof exception>).$metadata.httpStatusCode).toBe(status);
      expect((error as Error).message.length).toBeGreaterThan(0);
    }
  });

  it('a throttled request is retried by the SDK, then answered', async () => {
    const client = await bedrock(
      'br-retry',
      [
        {
          match: { method: 'POST', path: '/model/:model/converse', state: 'started' },
          answer: { setState: 'limited', llm: { provider: 'bedrock', api: 'converse', error: 'rate_limit' } },
        } as RouteInput,
        route('/model/:model/converse', { api: 'converse', text: 'ok' }),
      ],
      2,
    );
    const out = await client.send(new ConverseCommand({ modelId: MODEL, messages: MESSAGES }));
    expect(out.output?.message?.content).toEqual([{ text: 'ok' }]);
    expect(out.$metadata.attempts).toBe(2);
  });
});

const PROBE = fileURLToPath(new URL('./fixtures/sentry-probe.mjs', import.meta.url));

// Not on Bun (docs/runtimes.md#tests-not-run-on-bun): the probe is a Node `--import` hook.
describe.skipIf(ON_BUN)('the event stream frames', () => {
  it("are the core's own: no AWS package is loaded at start, by a Converse nor by a ConverseStream answer", async () => {
    const dir = await makeTempDir('mockpoint-bedrock-lazy-');
    const probeFile = join(dir, 'resolved.txt');
    const resolved = async () =>
      existsSync(probeFile) ? [...new Set((await readFile(probeFile, 'utf8')).split('\n').filter(Boolean))] : [];
    const probed = await startDaemon({
      args: ['--memory'],
      nodeArgs: ['--import', PROBE],
      env: {
        MOCKPOINT_TEST_SENTRY_PROBE: probeFile,
        MOCKPOINT_TEST_PROBE_MATCH: '^@(?:smithy|aws-sdk|aws-crypto)/|^@mockpoint/core$',
      },
    });
    expect((await requestJson(`${probed.url}/api/health`)).status).toBe(200);
    await createClient({ baseUrl: probed.url }).setRoutes('lazy', [
      route('/model/:model/converse', { api: 'converse', text: 'a' }),
      route('/model/:model/converse-stream', { api: 'converse-stream', text: 'a' }),
    ]);
    const post = (path: string) => fetch(`${probed.url}/endpoint/lazy/model/m${path}`, { method: 'POST', body: '{}' });
    expect((await post('/converse')).status).toBe(200);
    // The probe sees the core (so it is listening) and no AWS package.
    expect(await resolved()).toEqual(['@mockpoint/core']);
    const streamed = await post('/converse-stream');
    expect(streamed.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    expect((await streamed.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await resolved()).toEqual(['@mockpoint/core']);
    expect((await probed.stop()).code).toBe(0);
  });
});
