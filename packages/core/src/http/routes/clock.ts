/**
 * `/api/clock`: the app's clock (docs/clock.md). GET shows it; PUT freezes,
 * sets or advances it, and answers once every timed state move it made due is
 * written; DELETE returns it to real time. Each namespace is an app, so each
 * has its own clock.
 *
 * @module
 */
import type { Hono } from 'hono';
import { CLOCK_TIME_RULE, type ClockJson, clockTimeMs, createClockSchemas } from '../../api/clock-json.js';
import { CLOCK_MAX_MS, CLOCK_MIN_MS, type Clock } from '../../clock/clock.js';
import { readJsonObjectBody } from '../../codec/body.js';
import { DURATION_RULE, durationMs } from '../../codec/duration.js';
import { quoted } from '../../codec/quoted.js';
import { MockpointError } from '../../registry/errors.js';
import type { AppContext } from '../context.js';
import { ADMIN_ERRORS, BODY_ERRORS, errorResponses, REQUEST_ERRORS, STORE_ERRORS } from './responses.js';

/** The change `PUT /api/clock` asks for, checked whole before anything changes. */
interface Change {
  freeze?: boolean;
  set?: number;
  advance?: number;
}

function invalid(message: string): MockpointError {
  return new MockpointError('INVALID_CLOCK', message);
}

/** A member's value as an error message shows it: a string quoted and escaped (codec/quoted.ts), other JSON as sent, both bounded. */
function shown(value: unknown, text: string): string {
  return typeof value === 'string' ? quoted(value, 100) : quoted(text, 100).slice(1, -1);
}

/** The body of `PUT /api/clock`, or `INVALID_CLOCK` saying what is wrong. */
function parseChange(members: ReadonlyMap<string, string>, clock: Clock): Change {
  const change: Change = {};
  for (const [key, text] of members) {
    const value: unknown = JSON.parse(text);
    if (key === 'freeze') {
      if (typeof value !== 'boolean') throw invalid(`freeze is true or false (got ${shown(value, text)})`);
      change.freeze = value;
    } else if (key === 'set') {
      change.set = clockTimeMs(value);
      if (change.set === undefined) throw invalid(`${CLOCK_TIME_RULE} (got ${shown(value, text)})`);
    } else if (key === 'advance') {
      change.advance = durationMs(value);
      if (change.advance === undefined) throw invalid(`advance: ${DURATION_RULE} (got ${shown(value, text)})`);
    } else {
      throw invalid(`unknown member ${quoted(key, 100)}: give freeze, set or advance`);
    }
  }
  if (members.size === 0) throw invalid('give at least one of freeze, set and advance');
  const to = (change.set ?? clock.now()) + (change.advance ?? 0);
  if (to < CLOCK_MIN_MS || to > CLOCK_MAX_MS) {
    throw invalid(`the clock shows times from 1970 to 9999; this would show ${to} ms since the epoch`);
  }
  return change;
}

function view(clock: Clock): Response {
  const json: ClockJson = clock.view();
  return new Response(JSON.stringify(json), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** The clock's schemas, built once: they only describe the routes (a namespace's app is made per test session). */
let CLOCK_SCHEMAS: ReturnType<typeof createClockSchemas> | undefined;
function clockSchemas(): ReturnType<typeof createClockSchemas> {
  CLOCK_SCHEMAS ??= createClockSchemas();
  return CLOCK_SCHEMAS;
}

export function registerClockRoutes(
  app: Hono,
  ctx: Pick<AppContext, 'clock' | 'clockSync' | 'describe' | 'options' | 'schemas' | 'timers'>,
): void {
  const { clock, clockSync, timers, options, schemas } = ctx;

  app.get('/api/clock', () => view(clock));

  app.put('/api/clock', async (c) => {
    const change = parseChange(await readJsonObjectBody(c.req.raw, options.maxBodyBytes), clock);
    // Frozen (or thawed) first, then set: frozen at exactly the time set, not a millisecond later.
    // Through the backend where replicas share the clock: every one of them has been sent it when this answers.
    await clockSync
      .change((next) => {
        if (change.freeze !== undefined) next.freeze(change.freeze);
        if (change.set !== undefined) next.set(change.set);
        if (change.advance !== undefined) next.advance(change.advance);
      })
      .catch((error: unknown) => {
        // Another replica moved the clock between the check and the change, past the year 9999.
        throw error instanceof RangeError ? invalid(error.message) : error;
      });
    // The moves the change made due are written before the answer: a test reads them next.
    await timers.fireDue();
    return view(clock);
  });

  app.delete('/api/clock', async (c) => {
    await clockSync.change((next) => next.reset());
    await timers.fireDue();
    return c.body(null, 204);
  });

  const { view: viewSchema, change } = clockSchemas();
  ctx.describe?.push(
    {
      method: 'get',
      path: '/api/clock',
      summary:
        "The app's clock (this namespace's): its time, whether it is frozen, and its offset from real time. {{now}} and timed state moves (setState with after) read it.",
      tag: 'clock',
      responses: { 200: { description: 'The clock.', schema: viewSchema }, ...errorResponses(schemas, REQUEST_ERRORS) },
    },
    {
      method: 'put',
      path: '/api/clock',
      summary:
        'Freeze, set or advance the clock; answers once every timed state move it made due has been made. Time advanced instead of slept.',
      tag: 'clock',
      body: change,
      admin: true,
      responses: {
        200: { description: 'The clock after the change.', schema: viewSchema },
        ...errorResponses(schemas, REQUEST_ERRORS, BODY_ERRORS, STORE_ERRORS, ADMIN_ERRORS, ['INVALID_CLOCK']),
      },
    },
    {
      method: 'delete',
      path: '/api/clock',
      summary: 'Return the clock to real time (running, no offset).',
      tag: 'clock',
      admin: true,
      responses: {
        204: { description: 'Back to real time.' },
        ...errorResponses(schemas, REQUEST_ERRORS, ADMIN_ERRORS, STORE_ERRORS),
      },
    },
  );
}
