/**
 * `/api/endpoints/{name}/queue`: queued one-shot answers (503, 503, then the
 * record; a reset; a hang …), consumed in order by requests to `/endpoint/{name}`.
 *
 * @module
 */
import type { Hono } from 'hono';
import { jsonTextResponse } from '../../answer/read-response.js';
import { queuePageJson } from '../../api/answer-json.js';
import { parseQueueBody, queueBodyFromMembers } from '../../api/schemas.js';
import { readJsonObjectBody } from '../../codec/body.js';
import type { AppContext } from '../context.js';
import { checkGrpcAnswers } from '../grpc-answer-check.js';
import { pathName } from './manage.js';
import { clearDoc, readDoc, STORE_ERRORS, writeDoc } from './responses.js';

export function registerQueueRoutes(app: Hono, ctx: AppContext): void {
  const { schemas, endpoints, options } = ctx;
  const { queue } = endpoints;

  app.post('/api/endpoints/:name/queue', async (c) => {
    const name = pathName(c.req.param('name'));
    // Checked like every management body (strict UTF-8, no duplicate keys, depth);
    // each answer's data stays its exact text, like a record's.
    const members = await readJsonObjectBody(c.req.raw, options.maxBodyBytes);
    const body = queueBodyFromMembers(members);
    const parsed = parseQueueBody(schemas, body, options);
    // A grpc answer's messages fit its method's output type, as a route's do.
    const asRoutes = parsed.map((answer) => ({ ...(answer.match && { match: answer.match }), answer }));
    await checkGrpcAnswers(endpoints, name, asRoutes, options, 'answers');
    const answers = await queue.push(name, parsed);
    return jsonTextResponse(queuePageJson(answers), 201);
  });

  app.get('/api/endpoints/:name/queue', async (c) => {
    const name = pathName(c.req.param('name'));
    return jsonTextResponse(queuePageJson(await queue.list(name)));
  });

  app.delete('/api/endpoints/:name/queue', async (c) => {
    await queue.clear(pathName(c.req.param('name')));
    return c.body(null, 204);
  });

  const params = {
    name: { description: 'Endpoint name (the record need not exist yet).', schema: schemas.name },
  };
  ctx.describe?.push(
    writeDoc(
      schemas,
      {
        method: 'post',
        path: '/api/endpoints/{name}/queue',
        summary:
          'Queue one-shot answers: the next requests to /endpoint/{name} get them in order, each once (times repeats one), before the stored record answers. Absent statusCode, data and delay fall back to the record; with no record and no data the answer is 404 NOT_FOUND. A replace, delete or reset of the endpoint empties the queue.',
        tag: 'queue',
        params,
        body: schemas.queueRequest,
      },
      { 201: { description: 'Queued; lists everything queued now.', schema: schemas.queuePage } },
      ['INVALID_STREAM', 'STREAM_TOO_LONG', 'QUEUE_FULL'],
      STORE_ERRORS,
    ),
    readDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/queue',
        summary: 'The answers still queued for this name, first answer first (times is what remains).',
        tag: 'queue',
        params,
      },
      { description: 'What remains.', schema: schemas.queuePage },
    ),
    clearDoc(
      schemas,
      {
        path: '/api/endpoints/{name}/queue',
        summary: 'Drop the queued answers of this name; requests hanging on a queued hang are released.',
        tag: 'queue',
        params,
      },
      'Cleared.',
    ),
  );
}
