import type { DescMethodClientStreaming, DescMethodUnary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, createRouterTransport } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { compileProtos } from './compile-protos.js';
import { streamMessageLimit, tooManyMessages } from './stream-limit.js';

const TALLY = `syntax = "proto3";
package tally.v1;
service Tally {
  rpc Count(stream Item) returns (Total);
  rpc One(Item) returns (Total);
}
message Item { string id = 1; }
message Total { int32 count = 1; }
`;

/** A client of a Tally server whose Count reads every message, behind a limit of `max`. */
async function tallyClient(max: number) {
  const service = (await compileProtos({ 'tally.proto': TALLY })).getService('tally.v1.Tally');
  if (service === undefined) throw new Error('no service');
  const count = service.method.count as DescMethodClientStreaming;
  const one = service.method.one as DescMethodUnary;
  const transport = createRouterTransport(
    (router) => {
      router.rpc(count, async (items: AsyncIterable<unknown>) => {
        let n = 0;
        for await (const _ of items) n++;
        return { $typeName: 'tally.v1.Total', count: n } as never;
      });
      router.rpc(one, async () => ({ $typeName: 'tally.v1.Total', count: 1 }) as never);
    },
    { router: { interceptors: [streamMessageLimit(max)] } },
  );
  return createClient(service, transport) as unknown as {
    count(items: AsyncIterable<{ id: string }>): Promise<{ count: number }>;
    one(item: { id: string }): Promise<{ count: number }>;
  };
}

async function* items(n: number) {
  for (let i = 0; i < n; i++) yield { id: String(i) };
}

describe('streamMessageLimit', () => {
  it('lets a call send `max` messages, and ends one more with RESOURCE_EXHAUSTED naming the setting', async () => {
    const client = await tallyClient(3);
    expect((await client.count(items(3))).count).toBe(3);
    const error = await client.count(items(4)).catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.ResourceExhausted);
    expect((error as ConnectError).rawMessage).toBe(tooManyMessages(3));
  });

  it('does not count unary calls', async () => {
    const client = await tallyClient(1);
    expect((await client.one({ id: 'a' })).count).toBe(1);
  });
});
