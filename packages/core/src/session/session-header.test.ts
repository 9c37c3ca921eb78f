import { describe, expect, it } from 'vitest';
import { SESSION_HEADER, sessionOf } from './session-header.js';

describe('sessionOf', () => {
  it('reads the header from Headers, a Node header record, raw headers and a record in any case', () => {
    expect(SESSION_HEADER).toBe('mockpoint-session');
    expect(sessionOf(new Headers({ 'Mockpoint-Session': 'ns-1' }))).toBe('ns-1');
    expect(sessionOf({ 'mockpoint-session': 'ns_2', host: 'x' })).toBe('ns_2');
    expect(sessionOf(['Host', 'x', 'MOCKPOINT-SESSION', 'Ns3'])).toBe('Ns3');
    expect(sessionOf({ 'MockPoint-Session': 'n4' })).toBe('n4');
    expect(sessionOf({ 'mockpoint-session': ['n5'] })).toBe('n5');
  });

  it('is undefined without the header or baggage entry, or without headers', () => {
    expect(sessionOf(new Headers())).toBeUndefined();
    expect(sessionOf({ baggage: 'other=1' })).toBeUndefined();
    expect(sessionOf([])).toBeUndefined();
    expect(sessionOf(undefined)).toBeUndefined();
  });

  it('falls back to the baggage entry, percent-decoded, with properties and whitespace', () => {
    expect(sessionOf({ baggage: 'mockpoint-session=ns-1' })).toBe('ns-1');
    expect(sessionOf(new Headers({ baggage: 'userId=alice , mockpoint-session = ns%2D2 ;ttl=3, x=y' }))).toBe('ns-2');
    expect(sessionOf(['Baggage', 'a=1,mockpoint-session=n3'])).toBe('n3');
  });

  it('prefers the header to the baggage entry', () => {
    expect(sessionOf({ 'mockpoint-session': 'header', baggage: 'mockpoint-session=bag' })).toBe('header');
  });

  it('takes an invalid value as none, and does not pass over an invalid header for the baggage', () => {
    expect(sessionOf({ 'mockpoint-session': 'has space' })).toBeUndefined();
    expect(sessionOf({ 'mockpoint-session': 'a'.repeat(65) })).toBeUndefined();
    expect(sessionOf({ 'mockpoint-session': 'a'.repeat(64) })).toBe('a'.repeat(64));
    expect(sessionOf({ 'mockpoint-session': '' })).toBeUndefined();
    expect(sessionOf({ 'mockpoint-session': '../x', baggage: 'mockpoint-session=ok' })).toBeUndefined();
    expect(sessionOf({ baggage: 'mockpoint-session=a%2Fb' })).toBeUndefined();
    expect(sessionOf({ baggage: 'mockpoint-session=%E0%A4%A' })).toBeUndefined();
    // Sent twice: read as every value, in every shape alike: two names (`a, b`) are none, one name twice is it.
    expect(sessionOf(['mockpoint-session', 'a', 'mockpoint-session', 'b'])).toBeUndefined();
    expect(sessionOf(['mockpoint-session', 'a', 'mockpoint-session', ' a '])).toBe('a');
    expect(sessionOf({ 'mockpoint-session': ['a', 'b'] })).toBeUndefined();
    expect(sessionOf({ 'mockpoint-session': ['a', 'a'] })).toBe('a');
    expect(
      sessionOf(
        new Headers([
          ['mockpoint-session', 'a'],
          ['mockpoint-session', 'a'],
        ]),
      ),
    ).toBe('a');
    expect(
      sessionOf(
        new Headers([
          ['mockpoint-session', 'a'],
          ['mockpoint-session', 'b'],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('the baggage entry', () => {
  it('is the first one of its key, exactly (keys are case-sensitive), percent-decoded', () => {
    expect(sessionOf({ baggage: 'mockpoint-session=a,mockpoint-session=b' })).toBe('a');
    expect(sessionOf({ baggage: 'Mockpoint-Session=a' })).toBeUndefined();
    expect(sessionOf({ baggage: 'x-mockpoint-session=a;mockpoint-session=b' })).toBeUndefined();
    expect(sessionOf({ baggage: 'noequals, mockpoint-session=%61%62' })).toBe('ab');
    expect(sessionOf({ baggage: 'mockpoint-session=' })).toBeUndefined();
  });
});
