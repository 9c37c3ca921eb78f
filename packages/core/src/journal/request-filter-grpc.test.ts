// The filter's grpc field over a journal entry's grpc mark (a route's call is the same subject).
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../api/journal-json.js';
import { firstMismatch, matchesRequest } from './request-filter.js';

function call(grpc?: JournalEntry['grpc']): JournalEntry {
  return {
    id: 1,
    method: 'POST',
    path: '/endpoint/shop/shop.v1.Orders/GetOrder',
    subpath: '/shop.v1.Orders/GetOrder',
    params: {},
    answeredBy: 'grpc',
    query: {},
    headers: {},
    body: '',
    bodyTruncated: false,
    receivedAt: new Date(0).toISOString(),
    statusCode: 200,
    ...(grpc === undefined ? {} : { grpc }),
  };
}

const GET = call({
  service: 'shop.v1.Orders',
  method: 'GetOrder',
  protocol: 'connect',
  code: 'ok',
  message: { id: '7', lines: [{ sku: 'a' }], extra: true },
});

describe('the grpc filter', () => {
  it('matches the service, the method and a JSON subset of the message', () => {
    expect(matchesRequest(GET, { grpc: {} })).toBe(true);
    expect(matchesRequest(GET, { grpc: { service: 'shop.v1.Orders', method: 'GetOrder' } })).toBe(true);
    expect(matchesRequest(GET, { grpc: { message: { id: '7', lines: [{ sku: 'a' }] } } })).toBe(true);
    expect(matchesRequest(GET, { grpc: { service: 'shop.v1.Other' } })).toBe(false);
    expect(matchesRequest(GET, { grpc: { method: 'Watch' } })).toBe(false);
    expect(matchesRequest(GET, { grpc: { message: { id: 7 } } })).toBe(false);
    expect(matchesRequest(GET, { grpc: { message: { lines: [] } } })).toBe(false);
  });

  it('never matches a request that is no call, and says why', () => {
    expect(matchesRequest(call(), { grpc: {} })).toBe(false);
    expect(firstMismatch(call(), { grpc: {} }, { explain: true })).toBe('not a gRPC call');
    expect(firstMismatch(GET, { grpc: { method: 'Watch' } }, { explain: true })).toBe(
      'grpc method is "GetOrder", route wants "Watch"',
    );
    expect(firstMismatch(GET, { grpc: { message: { id: '8' } } }, { explain: true })).toBe(
      'grpc message.id is "7", route wants "8"',
    );
  });
});
