import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_ANSWERS } from '../../api/answer-json.js';
import { createApp, type MockpointApp, type QueuedAnswer } from '../../index.js';

function post(app: MockpointApp, name: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(`/api/endpoints/${name}/queue`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function queued(app: MockpointApp, name: string): Promise<QueuedAnswer[]> {
  const response = await app.request(`/api/endpoints/${name}/queue`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { answers: QueuedAnswer[] }).answers;
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('/api/endpoints/{name}/queue', () => {
  it('appends answers (201 with all that is queued), lists them and clears them', async () => {
    const app = createApp();
    const first = await post(app, 'hook', { answers: [{ statusCode: 503, times: 2 }] });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ answers: [{ statusCode: 503, times: 2 }] });

    const second = await post(app, 'hook', { answers: [{ data: null }, { fault: 'reset', delay: 50 }] });
    expect(await second.json()).toEqual({
      answers: [
        { statusCode: 503, times: 2 },
        { data: null, times: 1 },
        { fault: 'reset', delay: 50, times: 1 },
      ],
    });
    expect(await queued(app, 'hook')).toHaveLength(3);
    expect(await queued(app, 'other')).toEqual([]);

    const cleared = await app.request('/api/endpoints/hook/queue', { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await queued(app, 'hook')).toEqual([]);
  });

  it('keeps queued data as sent: key order, null, and __proto__ as an ordinary key', async () => {
    const app = createApp();
    await post(app, 'hook', '{"answers":[{"data":{"z":1,"a":null,"__proto__":{"x":true}}}]}');
    const response = await app.request('/api/endpoints/hook/queue');
    expect(await response.text()).toBe('{"answers":[{"data":{"z":1,"a":null,"__proto__":{"x":true}},"times":1}]}');
  });

  it('keeps queued data byte for byte: big integers, 1.0, -0, exponents and "2" before "b"', async () => {
    const app = createApp();
    await app.request('/api/endpoint/add', {
      method: 'PUT',
      body: '{"name":"hook","data":{"stored":true}}',
    });
    const data = '{"id":12345678901234567890,"price":1.0,"zero":-0,"big":1e400,"b":1,"2":"two"}';
    const created = await post(
      app,
      'hook',
      `{ "answers" : [ { "statusCode" : 202 , "data" : ${data} }, {"delay":1} ] }`,
    );
    expect(await created.text()).toBe(
      `{"answers":[{"statusCode":202,"data":${data},"times":1},{"delay":1,"times":1}]}`,
    );
    const listed = await app.request('/api/endpoints/hook/queue');
    expect(await listed.text()).toBe(`{"answers":[{"statusCode":202,"data":${data},"times":1},{"delay":1,"times":1}]}`);
    const answered = await app.request('/endpoint/hook', { method: 'POST', body: '{}' });
    expect(answered.status).toBe(202);
    expect(await answered.text()).toBe(data);
    expect(await (await app.request('/endpoint/hook')).text()).toBe('{"stored":true}');
  });

  it.each([
    [
      { answers: [{ statusCode: 99 }] },
      'INVALID_STATUS_CODE',
      'answers[0]: statusCode must be an integer from 200 to 599',
    ],
    [{ answers: [{}, { delay: -1 }] }, 'INVALID_DELAY', 'answers[1]: delay must be a whole number of milliseconds'],
    [{ answers: [{ fault: 'explode' }] }, 'INVALID_FAULT', 'answers[0]: fault must be one of reset, close, hang'],
    [{ answers: [{ times: 0 }] }, 'INVALID_TIMES', 'answers[0]: times must be an integer from 1 to 10000'],
    [{ answers: [{ status: 500 }] }, 'UNKNOWN_FIELD', 'answers[0]: unknown field(s): status'],
    [{ answers: [], extra: 1 }, 'UNKNOWN_FIELD', 'unknown field(s): extra'],
    ['{"answers":[{}],"__proto__":{"x":1}}', 'UNKNOWN_FIELD', 'unknown field(s): __proto__'],
    ['{"answers":[{"__proto__":{"statusCode":500}}]}', 'UNKNOWN_FIELD', 'answers[0]: unknown field(s): __proto__'],
    [{ answers: [] }, 'INVALID_BODY', 'answers must be a non-empty array'],
    [{ answers: [42] }, 'INVALID_BODY', 'answers[0] must be a JSON object'],
    [[], 'INVALID_BODY', 'request body must be a JSON object'],
    [{ answers: [{ fault: 'reset', statusCode: 500 }] }, 'INVALID_BODY', 'fault reset sends no answer'],
    [{ answers: [{ fault: 'hang', data: 1 }] }, 'INVALID_BODY', 'fault hang sends no answer'],
  ])('refuses %j with %s and queues nothing', async (body, code, message) => {
    const app = createApp();
    const response = await post(app, 'hook', body);
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 400, code });
    expect(error.message).toContain(message);
    expect(await queued(app, 'hook')).toEqual([]);
  });

  it('refuses an invalid name and a body that is not JSON', async () => {
    const app = createApp();
    expect(await errorOf(await post(app, 'a.b', { answers: [{}] }))).toMatchObject({ code: 'INVALID_NAME' });
    expect(await errorOf(await app.request('/api/endpoints/a.b/queue'))).toMatchObject({ code: 'INVALID_NAME' });
    expect(await errorOf(await post(app, 'hook', '{'))).toMatchObject({ code: 'INVALID_JSON' });
  });

  it(`holds at most ${MAX_QUEUED_ANSWERS} answers per name: past it QUEUE_FULL (409), nothing queued`, async () => {
    const app = createApp();
    const many = Array.from({ length: MAX_QUEUED_ANSWERS - 1 }, () => ({ statusCode: 500 }));
    expect((await post(app, 'hook', { answers: many })).status).toBe(201);
    const refused = await errorOf(await post(app, 'hook', { answers: [{}, {}] }));
    expect(refused).toMatchObject({ status: 409, code: 'QUEUE_FULL' });
    expect(refused.message).toContain(`at most ${MAX_QUEUED_ANSWERS}`);
    expect(await queued(app, 'hook')).toHaveLength(MAX_QUEUED_ANSWERS - 1);
    // times repeats one answer without counting against the bound.
    expect((await post(app, 'hook', { answers: [{ statusCode: 200, times: 10_000 }] })).status).toBe(201);
    const tooMany = Array.from({ length: MAX_QUEUED_ANSWERS + 1 }, () => ({}));
    expect(await errorOf(await post(app, 'other', { answers: tooMany }))).toMatchObject({ code: 'QUEUE_FULL' });
  });

  it('is emptied by a replace, a delete and a reset, but not by another name or a create', async () => {
    const app = createApp();
    const queue = () => post(app, 'hook', { answers: [{ statusCode: 503 }] });
    await queue();
    await post(app, 'other', { answers: [{ statusCode: 503 }] });
    // Creating the record a queue was set up for keeps the queue.
    await app.request('/api/endpoint/add', { method: 'PUT', body: JSON.stringify({ name: 'hook', data: 1 }) });
    expect(await queued(app, 'hook')).toHaveLength(1);

    await app.request('/api/endpoints/hook', { method: 'PUT', body: JSON.stringify({ data: 2 }) });
    expect(await queued(app, 'hook')).toEqual([]);
    expect(await queued(app, 'other')).toHaveLength(1);

    await queue();
    expect((await app.request('/api/endpoints/hook', { method: 'DELETE' })).status).toBe(204);
    expect(await queued(app, 'hook')).toEqual([]);

    await queue();
    await app.request('/api/endpoints', { method: 'DELETE' });
    expect(await queued(app, 'hook')).toEqual([]);
    expect(await queued(app, 'other')).toEqual([]);
  });

  it('needs the admin token for POST and DELETE when one is set; GET stays open', async () => {
    const app = createApp({ adminToken: 's3cret' });
    const refused = await post(app, 'hook', { answers: [{}] });
    expect(await errorOf(refused)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const cleared = await app.request('/api/endpoints/hook/queue', { method: 'DELETE' });
    expect(cleared.status).toBe(401);
    expect(await queued(app, 'hook')).toEqual([]);
    const allowed = await post(app, 'hook', { answers: [{}] }, { authorization: 'Bearer s3cret' });
    expect(allowed.status).toBe(201);
    expect(await queued(app, 'hook')).toHaveLength(1);
  });

  it('is in the OpenAPI document, from the schemas that validate it', async () => {
    const app = createApp({ adminToken: 't' });
    interface Schema {
      properties: Record<string, Schema & { enum?: string[] }>;
      items: Schema;
      maxItems?: number;
      additionalProperties?: boolean;
    }
    interface Operation {
      tags: string[];
      security?: unknown;
      requestBody: { content: Record<string, { schema: Schema }> };
    }
    const doc = (await (await app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const path = doc.paths['/api/endpoints/{name}/queue'];
    expect(Object.keys(path ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(path?.post?.tags).toEqual(['queue']);
    expect(path?.post?.security).toEqual([{ adminToken: [] }]);
    expect(path?.get?.security).toEqual([]); // reads need no token
    const body = path?.post?.requestBody.content['application/json']?.schema as Schema;
    const answers = body.properties.answers as Schema;
    const answer = answers.items;
    expect(answers.maxItems).toBe(MAX_QUEUED_ANSWERS);
    expect(Object.keys(answer.properties).sort()).toEqual([
      'body',
      'bodyBase64',
      'data',
      'delay',
      'fault',
      'grpc',
      'headers',
      'match',
      'setState',
      'statusCode',
      'stream',
      'template',
      'times',
    ]);
    expect(answer.properties.fault?.enum).toEqual(['reset', 'close', 'hang']);
    expect(answer.additionalProperties).toBe(false);
  });

  it('answers 405 naming the methods for another method', async () => {
    const app = createApp();
    const response = await app.request('/api/endpoints/hook/queue', { method: 'PUT', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET, DELETE, HEAD');
  });
});
