import { describe, expect, it } from 'vitest';
import { JsonText } from '../codec/json-text.js';
import { decodeRecord, encodeRecord } from './record-codec.js';

describe('record codec', () => {
  it('round-trips data as its exact text', () => {
    const data = '{"b":1,"2":2,"id":12345678901234567890,"x":1e400,"z":-0,"s":",\\"statusCode\\":200,\\"delay\\":0}"}';
    const text = encodeRecord({ name: 'a-B_9', data: new JsonText(data), statusCode: 418, delay: 12 });
    expect(text).toBe(`{"name":"a-B_9","data":${data},"statusCode":418,"delay":12}`);
    const record = decodeRecord(text);
    expect(record).toEqual({ name: 'a-B_9', data: new JsonText(data), statusCode: 418, delay: 12 });
    expect((record.data as JsonText).text).toBe(data);
  });

  it('reads what the earlier codec wrote (JSON.stringify of the record)', () => {
    const old = { name: 'old', data: { nested: [1, 'two', null], s: 'a,"delay":1}' }, statusCode: 201, delay: 0 };
    const record = decodeRecord(JSON.stringify(old));
    expect(record.name).toBe('old');
    expect((record.data as JsonText).text).toBe(JSON.stringify(old.data));
    expect(record.statusCode).toBe(201);
    expect(record.delay).toBe(0);
  });

  it('reads a record in another member order by scanning it', () => {
    const record = decodeRecord('{"delay":3,"statusCode":200,"data":[1e400],"name":"x"}');
    expect(record).toEqual({ name: 'x', data: new JsonText('[1e400]'), statusCode: 200, delay: 3 });
  });
});
