import { describe, expect, it } from 'vitest';
import { checkUpstreamAddress, nonPublicKind } from './upstream-address.js';

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['::', 'reserved'],
    ['224.0.0.1', 'private'],
    ['ff02::1', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(nonPublicKind(address)).toBeUndefined();
  });
});

describe('checkUpstreamAddress', () => {
  it('lets a non-public address through only when the address itself is listed', () => {
    expect(() => checkUpstreamAddress('api.internal', '10.0.0.5', 443, ['api.internal'])).toThrow(
      /api\.internal resolves to 10\.0\.0\.5, a private address/,
    );
    expect(() => checkUpstreamAddress('api.internal', '10.0.0.5', 443, ['api.internal', '10.0.0.5'])).not.toThrow();
    expect(() => checkUpstreamAddress('localhost', '::1', 80, ['0:0:0:0:0:0:0:1'])).not.toThrow();
    expect(() => checkUpstreamAddress('api.example.com', '93.184.216.34', 443, [])).not.toThrow();
  });

  it('with a port listed, lets the address through at that port only', () => {
    expect(() => checkUpstreamAddress('localhost', '127.0.0.1', 8080, ['127.0.0.1:8080'])).not.toThrow();
    expect(() => checkUpstreamAddress('localhost', '127.0.0.1', 6379, ['127.0.0.1:8080'])).toThrow(
      /listed in MOCKPOINT_PROXY_ALLOW_HOSTS \(e\.g\. 127\.0\.0\.1:6379 for this port only/,
    );
    expect(() => checkUpstreamAddress('localhost', '::1', 8080, ['[::1]:8080'])).not.toThrow();
  });
});
