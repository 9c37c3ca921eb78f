/**
 * The answer queue shared by every replica on one Redis, so "503, 503, then
 * 200" holds whichever replica each retry reaches: every use of a queued answer
 * is taken by one Lua script, so it is handed out exactly once across replicas.
 *
 * Layout, under the store's key prefix: `queue:<name>` is a list of entries
 * `<times> <answer JSON>` (data as its exact text), `queue-names` the set of
 * names with something queued, `queue-bytes` the bytes of all queued answers,
 * and `queue-clears` a counter every clear increments.
 *
 * Knowing cheaply whether a name has a queue ({@link RedisAnswerQueue.pending},
 * asked on every request) is local: each replica keeps the set of queued names,
 * loaded at start and after every reconnection, and kept current by messages on
 * `<prefix>queues` that the scripts publish. A push resolves only once every
 * replica subscribed to that channel has confirmed it has seen the push (or
 * after `ackTimeoutMs`), so once `POST …/queue` has answered, the next request
 * on any replica takes from the queue. A hang is released by a clear on any
 * replica that came after it was taken (never by an earlier one): each use
 * carries the clear counter as it was when taken.
 *
 * @module
 */

import { randomUUID } from 'node:crypto';
import {
  answerJson,
  MATCH_PREFIX,
  MAX_QUEUED_ANSWERS,
  parseAnswerJson,
  type QueuedAnswer,
  type TakenAnswer,
} from '../../api/answer-json.js';
import type { RequestFilter } from '../../api/journal-json.js';
import { scanJson } from '../../codec/json-text.js';
import { matchesRequest } from '../../journal/graphql-filter.js';
import type { FilterSubject } from '../../journal/request-filter.js';
import type { AnswerQueue, Taken } from '../../queue/answer-queue.js';
import { QueueListeners } from '../../queue/queue-listeners.js';
import { MockpointError } from '../../registry/errors.js';
import { NotSentError } from './not-sent.js';

/** What the queue needs from the store's connections (see `RedisStore.openAnswerQueue`). */
export interface QueueConnection {
  /**
   * Runs a script, bounded and mapped to STORE_UNAVAILABLE like every store
   * operation; rejects with a {@link NotSentError} when it was refused before
   * anything was sent (the script never runs).
   */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  /**
   * The latest time on Redis's clock (ms since the epoch) at which a script sent
   * now may still run: after it, the caller has given up on the answer. `undefined`
   * while Redis's clock is not known.
   */
  deadline(): number | undefined;
  /** Publishes on the command connection; failures are the caller's to ignore. */
  publish(channel: string, message: string): Promise<unknown>;
  /** Subscribes the store's subscriber connection to `channel`. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** Whether messages are being delivered now (the subscription is up). */
  readonly live: boolean;
  /** Calls `listener` each time the subscription is up again after a drop. */
  onLive(listener: () => void): void;
  /** This process's id, unique among the replicas. */
  readonly origin: string;
}

/** Options for {@link RedisAnswerQueue}. */
export interface RedisAnswerQueueOptions {
  /** Answers queued per name at most. @default 100 */
  maxAnswers?: number;
  /** Bytes all queued answers may take together (their JSON text), across replicas. @default 67108864 (64 MiB) */
  maxBytes?: number;
  /** Longest a push waits for every replica to confirm it has seen it. @default 1000 */
  ackTimeoutMs?: number;
  /**
   * Takes whose reply never came kept to settle at most; past it the oldest is
   * dropped, with a warning (its use, if it took one, is lost). @default 10000
   */
  maxUnsettled?: number;
  /** Key prefix, as the store's. */
  keyPrefix: string;
}

/**
 * Appends entries. KEYS: list, names, bytes, channel. ARGV: maxAnswers,
 * maxBytes, name, message, bytes of the entries, then the entries. Returns
 * {-1, length} or {-2, bytes} when full, else {receivers of the message, entries…}.
 */
const PUSH = `
local n = #ARGV - 5
local length = redis.call('LLEN', KEYS[1])
if length + n > tonumber(ARGV[1]) then return {-1, length} end
local bytes = tonumber(redis.call('GET', KEYS[3]) or '0')
local add = tonumber(ARGV[5])
if bytes + add > tonumber(ARGV[2]) then return {-2, bytes} end
redis.call('RPUSH', KEYS[1], unpack(ARGV, 6))
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('INCRBY', KEYS[3], add)
local out = redis.call('LRANGE', KEYS[1], 0, -1)
table.insert(out, 1, redis.call('PUBLISH', KEYS[4], ARGV[4]))
return out`;

/**
 * Takes one use. KEYS: list, names, bytes, clears, the take's own key. ARGV:
 * name, a deadline (ms on Redis's clock) or '', the mode, the caller (`http`
 * or `grpc`: a gRPC call takes only `grpc` answers, an HTTP request none), then
 * (mode `pick`) the answer texts that match the request. Returns {'late'} and takes nothing
 * when it runs after the deadline, or after the take was settled by
 * {@link GIVE_BACK} (the caller has given up: a use taken now would be lost). A
 * use taken is also written to the take's key (for an hour), so that a caller
 * that never got the reply can put it back by the take's id; {clears}
 * when nothing is queued. Mode `head` takes the first answer when it has no
 * match, else returns {clears, 'choose', entries…} for the caller to pick (the
 * matcher runs in JavaScript, once, not in Lua); mode `pick` takes the first
 * answer without a match or among the given texts, or returns {clears, 'none',
 * entries left}. Else {clears, answer JSON, entries left}.
 */
const TAKE = `
if ARGV[2] ~= '' then
  local now = redis.call('TIME')
  if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[2]) then return {'late'} end
end
if redis.call('EXISTS', KEYS[5]) == 1 then return {'late'} end
local clears = tonumber(redis.call('GET', KEYS[4]) or '0')
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then
  redis.call('SREM', KEYS[2], ARGV[1])
  return {clears}
end
local function answerOf(entry)
  return string.sub(entry, string.find(entry, ' ', 1, true) + 1)
end
local function forAny(answer)
  if ARGV[4] == 'grpc' then return string.sub(answer, 1, 8) == '{"grpc":' end
  return string.sub(answer, 1, 9) ~= '{"match":' and string.sub(answer, 1, 8) ~= '{"grpc":'
end
local index = nil
local entry = nil
if forAny(answerOf(head)) then
  index = 0
  entry = head
elseif ARGV[3] == 'head' then
  local out = redis.call('LRANGE', KEYS[1], 0, -1)
  table.insert(out, 1, 'choose')
  table.insert(out, 1, clears)
  return out
else
  local wanted = {}
  for i = 5, #ARGV do wanted[ARGV[i]] = true end
  for i, one in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
    local answer = answerOf(one)
    if forAny(answer) or wanted[answer] then
      index = i - 1
      entry = one
      break
    end
  end
  if not entry then return {clears, 'none', redis.call('LLEN', KEYS[1])} end
end
local space = string.find(entry, ' ', 1, true)
local times = tonumber(string.sub(entry, 1, space - 1))
local answer = string.sub(entry, space + 1)
if times > 1 then
  redis.call('LSET', KEYS[1], index, (times - 1) .. ' ' .. answer)
else
  -- The first entry equal to this one is this one: an equal entry before it would have been taken.
  redis.call('LREM', KEYS[1], 1, entry)
  redis.call('DECRBY', KEYS[3], #answer)
end
local left = redis.call('LLEN', KEYS[1])
if left == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
redis.call('SET', KEYS[5], answer, 'EX', 3600)
return {clears, answer, left}`;

/**
 * Settles a take whose caller never got its reply (Redis died, or answered too
 * late): the use it took, if it ran, goes back first in line; if it has not run,
 * it never takes anything (it finds its key settled). Once per take, however
 * often it is retried. KEYS: list, names, bytes, the take's key, channel. ARGV:
 * name, notice. Returns 1 when a use went back.
 */
/**
 * Lua: puts one use of `answer` first in line (one more use of the first answer
 * when it is the same), marks the name and announces it. KEYS 1–3: list, names,
 * bytes; ARGV[1]: name.
 */
const FIRST_IN_LINE = `
local function firstInLine(answer, channel, notice)
  local head = redis.call('LINDEX', KEYS[1], 0)
  local space = head and string.find(head, ' ', 1, true)
  if head and string.sub(head, space + 1) == answer then
    redis.call('LSET', KEYS[1], 0, (tonumber(string.sub(head, 1, space - 1)) + 1) .. ' ' .. answer)
  else
    redis.call('LPUSH', KEYS[1], '1 ' .. answer)
    redis.call('INCRBY', KEYS[3], #answer)
  end
  redis.call('SADD', KEYS[2], ARGV[1])
  redis.call('PUBLISH', channel, notice)
end`;

const GIVE_BACK = `${FIRST_IN_LINE}
local answer = redis.call('GET', KEYS[4])
if answer == '' then return 0 end
redis.call('SET', KEYS[4], '', 'EX', 3600)
if not answer then return 0 end
firstInLine(answer, KEYS[5], ARGV[2])
return 1`;

/** Puts a use back that a request took but did not answer with. KEYS: list, names, bytes, channel. ARGV: name, notice, the answer's text. */
const PUT_BACK = `${FIRST_IN_LINE}
firstInLine(ARGV[3], KEYS[4], ARGV[2])
return 1`;

/** Empties one queue. KEYS: list, names, bytes, clears, channel. ARGV: name, message head. Returns the clear count. */
const CLEAR = `
local bytes = 0
for _, entry in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  bytes = bytes + #entry - string.find(entry, ' ', 1, true)
end
if bytes > 0 then redis.call('DECRBY', KEYS[3], bytes) end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
local clears = redis.call('INCR', KEYS[4])
redis.call('PUBLISH', KEYS[5], ARGV[2] .. ' c ' .. clears .. ' ' .. ARGV[1])
return clears`;

/** Empties every queue. KEYS: names, bytes, clears, channel. ARGV: list key prefix, message head. */
const CLEAR_ALL = `
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', ARGV[1] .. name) end
redis.call('DEL', KEYS[1], KEYS[2])
local clears = redis.call('INCR', KEYS[3])
redis.call('PUBLISH', KEYS[4], ARGV[2] .. ' c ' .. clears .. ' *')
return clears`;

/** KEYS: a served take's key, no longer needed. */
const SERVED = `return redis.call('DEL', KEYS[1])`;

/** KEYS: list. */
const LIST = `return redis.call('LRANGE', KEYS[1], 0, -1)`;

/** What is queued where, and the clear count. KEYS: names, clears. Returns {clears, names…}. */
const STATE = `
local out = redis.call('SMEMBERS', KEYS[1])
table.insert(out, 1, tonumber(redis.call('GET', KEYS[2]) or '0'))
return out`;

/** A push waiting for the replicas' confirmations. */
interface AckWait {
  /** Confirmations expected; unknown until the script has answered. */
  needed: number | undefined;
  got: number;
  done: () => void;
}

const NEVER = new AbortController().signal;
/** How long a take whose reply never came is kept to settle, tried a second apart while Redis does not answer. */
const SETTLE_FOR_MS = 10 * 60 * 1000;
const encoder = new TextEncoder();

/** A queued entry as stored: `<times> <answer JSON>`. */
function decodeEntry(entry: unknown): QueuedAnswer {
  const text = String(entry);
  const space = text.indexOf(' ');
  return { ...parseAnswerJson(text.slice(space + 1)), times: Number(text.slice(0, space)) };
}

export class RedisAnswerQueue implements AnswerQueue {
  readonly kind = 'redis';
  readonly maxAnswers: number;
  readonly maxBytes: number;
  readonly #conn: QueueConnection;
  readonly #prefix: string;
  readonly #ackTimeoutMs: number;
  readonly #maxUnsettled: number;
  /** Names with something queued, as far as this replica has been told. */
  readonly #pending = new Set<string>();
  /** Bumped by every push notice and reload: a take that found nothing only unmarks its name if none came in between. */
  #epoch = 0;
  readonly #acks = new Map<number, AckWait>();
  #seq = 0;
  /** Release controllers per name, by the clear count their uses were taken at. */
  readonly #hangs = new Map<string, Map<number, AbortController>>();
  readonly #listeners = new QueueListeners();
  #released = false;
  #reloading = false;
  /** Times the subscription came back, and that count when the names were last reloaded. */
  #drops = 0;
  #reloadedAt = 0;
  /** Takes whose reply never came, to settle (by the take's key), oldest first. */
  readonly #unsettled = new Map<string, { name: string; since: number }>();
  /** Whether the one settling loop runs (or waits to retry). */
  #settling = false;
  #settleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  /** Use `RedisStore.openAnswerQueue()`, which also subscribes and loads the queued names. */
  constructor(connection: QueueConnection, options: RedisAnswerQueueOptions) {
    this.#conn = connection;
    this.#prefix = options.keyPrefix;
    this.maxAnswers = options.maxAnswers ?? MAX_QUEUED_ANSWERS;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 1000;
    this.#maxUnsettled = options.maxUnsettled ?? 10_000;
  }

  /** Subscribes to the queue notices and this replica's confirmations, then loads what is queued. */
  async start(): Promise<void> {
    await this.#conn.subscribe(`${this.#prefix}queues`, (message) => this.#notice(message));
    await this.#conn.subscribe(this.#ackChannel(this.#conn.origin), (message) => this.#ack(Number(message)));
    this.#conn.onLive(() => {
      // Notices may have been missed while the subscription was down: until the
      // names are reloaded, every name may have a queue.
      this.#drops++;
      this.#refresh();
      this.#listeners.emit(undefined);
    });
    await this.#reload();
  }

  async push(name: string, answers: readonly QueuedAnswer[]): Promise<QueuedAnswer[]> {
    const entries = answers.map(({ times, ...answer }) => `${times} ${answerJson(answer)}`);
    const bytes = entries.reduce((sum, entry) => sum + encoder.encode(entry).byteLength - entry.indexOf(' ') - 1, 0);
    const seq = ++this.#seq;
    let done!: () => void;
    const confirmed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const wait: AckWait = { needed: undefined, got: 0, done };
    this.#acks.set(seq, wait);
    let reply: unknown[];
    try {
      reply = (await this.#conn.eval(
        PUSH,
        [...this.#keys(name), this.#channel],
        [
          String(this.maxAnswers),
          String(this.maxBytes),
          name,
          `${this.#conn.origin} p ${seq} ${name}`,
          String(bytes),
          ...entries,
        ],
      )) as unknown[];
    } catch (error) {
      this.#acks.delete(seq);
      throw error;
    }
    const [head, ...queued] = reply;
    if (head === -1) {
      this.#acks.delete(seq);
      throw new MockpointError(
        'QUEUE_FULL',
        `the queue of "${name}" holds ${queued[0]} answer(s); at most ${this.maxAnswers} may be queued per name (use times to repeat one)`,
      );
    }
    if (head === -2) {
      this.#acks.delete(seq);
      throw new MockpointError(
        'QUEUE_FULL',
        `queued answers would take more than ${this.maxBytes} bytes; clear some queues first`,
      );
    }
    this.#pending.add(name);
    wait.needed = Number(head);
    if (wait.got >= wait.needed) wait.done();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      confirmed,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#ackTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.#acks.delete(seq);
    return queued.map(decodeEntry);
  }

  pending(name: string): boolean {
    // Without the subscription (or until what it missed is reloaded), ask Redis on every request.
    return this.#pending.has(name) || this.#stale || !this.#conn.live;
  }

  async take(name: string, request?: FilterSubject): Promise<Taken | undefined> {
    if (this.#stale) this.#refresh();
    const epoch = this.#epoch;
    const caller = request?.grpc === undefined ? 'http' : 'grpc';
    let reply = await this.#take(name, 'head', caller, []);
    if (reply[1] === 'choose') {
      // The first answer has a match (or is for the other kind of request): pick,
      // with the one matcher, the texts with a match this request matches.
      const texts = new Set<string>();
      for (const entry of reply.slice(2)) {
        const text = String(entry);
        const answer = text.slice(text.indexOf(' ') + 1);
        const members = answer.startsWith(MATCH_PREFIX) ? scanJson(answer).members : undefined;
        const match = members?.get('match');
        if (match === undefined || request === undefined) continue;
        if (members?.has('grpc') !== (caller === 'grpc')) continue;
        if (matchesRequest(request, JSON.parse(match) as RequestFilter)) texts.add(answer);
      }
      reply = await this.#take(name, 'pick', caller, [...texts]);
    }
    if (reply[1] === 'none') return undefined;
    if (reply[0] === 'late') {
      throw new MockpointError(
        'STORE_UNAVAILABLE',
        `Redis answered too late to take a queued answer for "${name}"; nothing was taken`,
      );
    }
    const clears = Number(reply[0]);
    if (reply.length === 1 || Number(reply[2]) === 0) {
      // Empty now: unmark the name, unless a push notice came in meanwhile.
      if (this.#epoch === epoch) this.#pending.delete(name);
    }
    if (reply.length === 1) return undefined;
    const answer: TakenAnswer = parseAnswerJson(String(reply[1]));
    return { answer, release: answer.fault === 'hang' ? this.#release(name, clears) : NEVER };
  }

  async putBack(name: string, taken: Taken): Promise<void> {
    await this.#conn.eval(
      PUT_BACK,
      [...this.#keys(name), this.#channel],
      [name, `${this.#conn.origin} p 0 ${name}`, answerJson(taken.answer)],
    );
    this.#pending.add(name);
  }

  /**
   * One run of the take script (mode `head` or `pick`), under an id of its own.
   * When no reply comes (Redis died after running it, or answered too late), the
   * request is answered 503 and the take is settled by its id: what it took goes
   * back first in line, so a use is never consumed without being served. A take
   * refused before it was sent ran nowhere: there is nothing to settle.
   */
  async #take(name: string, mode: 'head' | 'pick', caller: 'http' | 'grpc', texts: string[]): Promise<unknown[]> {
    const deadline = this.#conn.deadline();
    const key = `${this.#prefix}queue-taken:${randomUUID()}`;
    let reply: unknown[];
    try {
      reply = (await this.#conn.eval(
        TAKE,
        [...this.#keys(name), this.#clearsKey, key],
        [name, deadline === undefined ? '' : String(deadline), mode, caller, ...texts],
      )) as unknown[];
    } catch (error) {
      if (!(error instanceof NotSentError)) this.#unsettle(name, key);
      throw error;
    }
    // Served from here on (the answer is in hand): its key is no longer needed.
    if (reply.length >= 3 && reply[1] !== 'choose' && reply[1] !== 'none')
      this.#conn.eval(SERVED, [key], []).catch(() => undefined);
    return reply;
  }

  /** Takes sent whose reply never came, not settled yet. */
  get unsettled(): number {
    return this.#unsettled.size;
  }

  /** Keeps a take to settle (bounded: past `maxUnsettled`, the oldest is dropped), and starts the loop. */
  #unsettle(name: string, key: string): void {
    if (this.#closed) return;
    this.#unsettled.set(key, { name, since: Date.now() });
    if (this.#unsettled.size > this.#maxUnsettled) {
      const [oldest, take] = this.#unsettled.entries().next().value as [string, { name: string }];
      this.#unsettled.delete(oldest);
      this.#lost(take.name, `more than ${this.#maxUnsettled} takes were waiting to be settled`);
    }
    if (!this.#settling) void this.#settle();
  }

  /**
   * The one loop that settles takes whose reply never came (see {@link GIVE_BACK}),
   * oldest first, one at a time; at the first failure it waits a second and starts
   * again, so a Redis that does not answer costs one call a second, however many
   * takes wait. A take not settled within {@link SETTLE_FOR_MS} is dropped.
   */
  async #settle(): Promise<void> {
    this.#settling = true;
    for (const [key, { name, since }] of this.#unsettled) {
      if (this.#closed) return;
      if (Date.now() - since > SETTLE_FOR_MS) {
        this.#unsettled.delete(key);
        this.#lost(name, `Redis did not answer for ${SETTLE_FOR_MS / 60_000} minutes`);
        continue;
      }
      let back: unknown;
      try {
        back = await this.#conn.eval(
          GIVE_BACK,
          [...this.#keys(name), key, this.#channel],
          [name, `${this.#conn.origin} p 0 ${name}`],
        );
      } catch {
        if (this.#closed) return;
        this.#settleTimer = setTimeout(() => void this.#settle(), 1000);
        this.#settleTimer.unref?.();
        return;
      }
      this.#unsettled.delete(key);
      if (Number(back) === 1) this.#pending.add(name);
    }
    this.#settling = false;
  }

  /** Says that a take was dropped unsettled: if it had taken a use, that use is gone. */
  #lost(name: string, why: string): void {
    process.emitWarning(
      `a take from the queue of "${name}" whose reply never came was not settled (${why}): if it took a queued answer, that use is lost`,
      { code: 'MOCKPOINT_QUEUE_UNSETTLED' },
    );
  }

  /** Stops settling (called when the store closes): takes not settled yet are left as they are. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#settleTimer);
    this.#unsettled.clear();
  }

  async names(): Promise<string[]> {
    const [, ...names] = (await this.#conn.eval(STATE, [this.#namesKey, this.#clearsKey], [])) as unknown[];
    return names.map(String);
  }

  async list(name: string): Promise<QueuedAnswer[]> {
    const entries = (await this.#conn.eval(LIST, [this.#listKey(name)], [])) as unknown[];
    return entries.map(decodeEntry);
  }

  async clear(name: string): Promise<void> {
    const epoch = this.#epoch;
    const clears = await this.#conn.eval(
      CLEAR,
      [...this.#keys(name), this.#clearsKey, this.#channel],
      [name, this.#conn.origin],
    );
    // Unmark now rather than when the notice comes back, unless a push notice came in
    // meanwhile (a push after the clear is not acknowledged before this replica has
    // read its notice, so unmarking here never hides an acknowledged push).
    if (this.#epoch === epoch) this.#pending.delete(name);
    this.#abort(name, Number(clears));
  }

  async clearAll(): Promise<void> {
    const epoch = this.#epoch;
    const clears = await this.#conn.eval(
      CLEAR_ALL,
      [this.#namesKey, this.#bytesKey, this.#clearsKey, this.#channel],
      [`${this.#prefix}queue:`, this.#conn.origin],
    );
    if (this.#epoch === epoch) this.#pending.clear();
    for (const name of [...this.#hangs.keys()]) this.#abort(name, Number(clears));
  }

  releaseHangs(): void {
    this.#released = true;
    for (const byClears of this.#hangs.values()) for (const controller of byClears.values()) controller.abort();
    this.#hangs.clear();
  }

  reopen(): void {
    this.#released = false;
  }

  /** A message on the queue channel: `<origin> p <seq> <name>` (a push) or `<origin> c <clears> <name or *>`. */
  #notice(message: string): void {
    const [origin, op, n] = message.split(' ', 3) as [string, string, string];
    const name = message.slice(origin.length + op.length + n.length + 3);
    if (op === 'p') {
      this.#epoch++;
      this.#pending.add(name);
      // Confirm only now: the pusher's answer means this replica takes from the queue.
      this.#conn.publish(this.#ackChannel(origin), n).catch(() => undefined);
      this.#listeners.emit(name);
      return;
    }
    if (op !== 'c') return;
    const clears = Number(n);
    if (name === '*') {
      this.#pending.clear();
      for (const hung of [...this.#hangs.keys()]) this.#abort(hung, clears);
      this.#listeners.emit(undefined);
    } else {
      this.#pending.delete(name);
      this.#abort(name, clears);
      this.#listeners.emit(name);
    }
  }

  /** Every replica's pushes and clears reach it here, through the notices (this replica's own too). */
  onChange(listener: (name: string | undefined) => void): () => void {
    return this.#listeners.add(listener);
  }

  #ack(seq: number): void {
    const wait = this.#acks.get(seq);
    if (wait === undefined) return;
    wait.got++;
    if (wait.needed !== undefined && wait.got >= wait.needed) wait.done();
  }

  /** Reloads the names once (not twice at a time); a failed reload leaves them stale, and the next take tries again. */
  #refresh(): void {
    if (this.#reloading) return;
    this.#reloading = true;
    const drops = this.#drops;
    this.#reload()
      .then(
        () => {
          this.#reloadedAt = drops;
        },
        () => undefined,
      )
      .finally(() => {
        this.#reloading = false;
        // The subscription dropped again while this reload ran: what it missed since is not in it.
        if (this.#drops !== drops) this.#refresh();
      });
  }

  /** Whether notices may have been missed since the names were last reloaded. */
  get #stale(): boolean {
    return this.#reloadedAt !== this.#drops;
  }

  /** Reloads the queued names, and releases hangs whose queue was cleared meanwhile. */
  async #reload(): Promise<void> {
    const epoch = ++this.#epoch;
    const [clears, ...names] = (await this.#conn.eval(STATE, [this.#namesKey, this.#clearsKey], [])) as unknown[];
    // A notice that came in meanwhile may be newer than the snapshot: then only add.
    if (this.#epoch === epoch) this.#pending.clear();
    for (const name of names) this.#pending.add(String(name));
    for (const name of [...this.#hangs.keys()]) this.#abort(name, Number(clears));
  }

  /** The release signal of a hang taken from `name` when the clear count was `clears`. */
  #release(name: string, clears: number): AbortSignal {
    if (this.#released) return AbortSignal.abort();
    let byClears = this.#hangs.get(name);
    if (byClears === undefined) {
      byClears = new Map();
      this.#hangs.set(name, byClears);
    }
    let controller = byClears.get(clears);
    if (controller === undefined) {
      controller = new AbortController();
      byClears.set(clears, controller);
    }
    return controller.signal;
  }

  /** Releases the hangs of `name` taken before clear number `clears`. */
  #abort(name: string, clears: number): void {
    const byClears = this.#hangs.get(name);
    if (byClears === undefined) return;
    for (const [at, controller] of byClears) {
      if (at < clears) {
        controller.abort();
        byClears.delete(at);
      }
    }
    if (byClears.size === 0) this.#hangs.delete(name);
  }

  #listKey(name: string): string {
    return `${this.#prefix}queue:${name}`;
  }

  /** list, names, bytes */
  #keys(name: string): string[] {
    return [this.#listKey(name), this.#namesKey, this.#bytesKey];
  }

  get #namesKey(): string {
    return `${this.#prefix}queue-names`;
  }

  get #bytesKey(): string {
    return `${this.#prefix}queue-bytes`;
  }

  get #clearsKey(): string {
    return `${this.#prefix}queue-clears`;
  }

  get #channel(): string {
    return `${this.#prefix}queues`;
  }

  #ackChannel(origin: string): string {
    return `${this.#prefix}queue-acks:${origin}`;
  }
}
