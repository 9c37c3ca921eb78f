import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../src/api.js';
import { grpcRows } from '../src/grpc-view.js';

describe('grpcRows', () => {
  it("lists a call's service, method, protocol and status; nothing for a request that is no call", () => {
    const grpc = {
      service: 'shop.v1.Orders',
      method: 'GetOrder',
      protocol: 'grpc',
      message: { id: '7' },
      code: 'not_found',
      statusMessage: 'no order 7',
    };
    expect(grpcRows({ grpc } as unknown as JournalEntry)).toEqual([
      ['grpc service', 'shop.v1.Orders'],
      ['grpc method', 'GetOrder'],
      ['grpc protocol', 'grpc'],
      ['grpc code', 'not_found'],
      ['grpc statusMessage', 'no order 7'],
    ]);
    expect(grpcRows({} as JournalEntry)).toEqual([]);
  });
});
