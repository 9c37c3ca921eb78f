import { describe, expect, it } from 'vitest';
import { checkProfile, errorBody } from './twin-profile.js';

describe('the profile format', () => {
  it('fills the defaults of a profile that names itself only, leaving the rest to the document', () => {
    const profile = checkProfile({ name: 'notes' });
    expect(profile.update).toBeUndefined();
    expect(profile).toMatchObject({
      body: 'json',
      ids: { style: 'auto', length: 24, prefixes: {} },
      pagination: { style: 'document' },
      list: { style: 'document', order: 'oldest' },
      timestamps: { format: 'iso', created: ['created_at'], updated: ['updated_at'] },
      deleted: 'document',
    });
  });

  it.each([
    [{}, 'profile.name'],
    [{ name: 'x', pagination: { style: 'cursor', limit: 3 } }, 'profile.pagination.limit'],
    [{ name: 'x', update: 'GET' }, 'profile.update'],
    [{ name: 'x', colour: 'red' }, 'profile'],
    [{ name: 'x', error: '{"message":{message}}' }, 'profile.error'],
  ])('refuses %j with INVALID_TWIN naming %s', (profile, where) => {
    expect(() => checkProfile(profile)).toThrow(
      expect.objectContaining({ code: 'INVALID_TWIN', message: expect.stringContaining(`${where}`) }),
    );
  });

  it('fills the error template JSON-escaped, leaving out what is empty', () => {
    const stripe = checkProfile({
      name: 's',
      error: '{"error":{"type":"{type}","code":"{code}","message":"{message}","param":"{param}"}}',
    });
    expect(JSON.parse(errorBody(stripe, { type: 'invalid_request_error', message: 'a "quoted"\nline' }))).toEqual({
      error: { type: 'invalid_request_error', message: 'a "quoted"\nline' },
    });
  });

  it('fills "{status}" as a number and {reason} as its HTTP reason', () => {
    const coda = checkProfile({
      name: 'c',
      error: '{"statusCode":"{status}","statusMessage":"{reason}","message":"{message}"}',
    });
    expect(JSON.parse(errorBody(coda, { status: 404, type: 'x', message: 'gone' }))).toEqual({
      statusCode: 404,
      statusMessage: 'Not Found',
      message: 'gone',
    });
  });
});
