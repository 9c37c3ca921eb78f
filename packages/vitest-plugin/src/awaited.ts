/**
 * The request matchers must be awaited: they read the journal over HTTP, so
 * `expect(hook).toHaveBeenRequestedTimes(1)` without `await` returns a promise
 * the test never waits for. Without this, the test passes and the matcher's
 * failure (if any) surfaces later as an unhandled rejection blamed on whichever
 * test runs then.
 *
 * The same mechanism Vitest uses for `.resolves`/`.rejects` (its
 * `recordAsyncExpect`): each call's promise is handed out as a thenable that
 * notes being awaited (`then`/`catch`/`finally`), and a check registered with
 * the test's own `onTestFinished` fails that test when it ended without doing
 * so — with the matcher's call, the line it was written on, and what it found
 * if it had finished.
 *
 * @module
 */
import { chai } from 'vitest';
import { MockServerError } from './errors.js';

/** What the check needs of Vitest's test task (the `vitest-test` flag Vitest sets on every `expect` in a test). */
interface TestTask {
  context?: { onTestFinished?(handler: () => void): void };
}

/** Marks a method already wrapped, so that running the setup twice does not wrap it twice. */
const CHECKED = Symbol.for('mockpoint.awaitChecked');

const ARGS_SHOWN = 120;

function describeActual(actual: unknown): string {
  const name = (actual as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `endpoint ${JSON.stringify(name)}` : chai.util.inspect(actual);
}

function describeArgs(args: unknown[]): string {
  const text = args.map((arg) => chai.util.inspect(arg)).join(', ');
  return text.length > ARGS_SHOWN ? `${text.slice(0, ARGS_SHOWN)}…` : text;
}

/** What the matcher's promise came to by the time the test ended. */
type Outcome = { state: 'pending' } | { state: 'passed' } | { state: 'failed'; error: unknown };

function outcomeText(outcome: Outcome): string {
  if (outcome.state === 'pending') return 'It had not finished when the test ended.';
  if (outcome.state === 'passed') return 'It passed, but too late to count.';
  const error = outcome.error;
  return `It failed, too late to fail the test: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Hands `promise` out as a thenable that notes being awaited; when the test
 * `task` finishes with it not awaited, the test fails with `call` in the message
 * and the stack of `site` (where the matcher was called).
 */
function tracked(
  task: TestTask,
  promise: PromiseLike<unknown>,
  call: string,
  site: { stack?: string },
): PromiseLike<unknown> {
  let awaited = false;
  let outcome: Outcome = { state: 'pending' };
  // Settles quietly on its own: a rejection nobody awaited is reported by the check below, never as unhandled.
  void Promise.resolve(promise).then(
    () => {
      outcome = { state: 'passed' };
    },
    (error: unknown) => {
      outcome = { state: 'failed', error };
    },
  );
  try {
    task.context?.onTestFinished?.(() => {
      if (awaited) return;
      const error = new MockServerError(
        'MATCHER_NOT_AWAITED',
        `${call} was not awaited: the request matchers read the journal over HTTP and return a promise, so write \`await ${call}\`. ${outcomeText(outcome)}`,
      );
      // Where the matcher was called, so the report points at the line missing its `await`.
      const frames = site.stack?.slice(site.stack.indexOf('\n'));
      if (frames) error.stack = `${error.name}: ${error.message}${frames}`;
      throw error;
    });
  } catch {
    // Called where the test takes no more hooks (inside an onTestFinished hook): nothing to check against.
    return promise;
  }
  const mark = () => {
    awaited = true;
    return Promise.resolve(promise);
  };
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable, the same shape Vitest gives `.resolves` and `.rejects`
    then: (onFulfilled, onRejected) => mark().then(onFulfilled, onRejected),
    catch: (onRejected: (reason: unknown) => unknown) => mark().catch(onRejected),
    finally: (onFinally: () => void) => mark().finally(onFinally),
    [Symbol.toStringTag]: 'Promise',
  } as PromiseLike<unknown>;
}

/**
 * Makes the async matchers `names` (registered with `expect.extend`) fail the
 * test that calls them without awaiting the result.
 */
export function failUnawaited(names: readonly string[]): void {
  chai.use((api, utils) => {
    const prototype = api.Assertion.prototype as unknown as Record<string, unknown>;
    for (const name of names) {
      const installed = prototype[name] as { [CHECKED]?: true } | undefined;
      if (installed?.[CHECKED]) continue;
      utils.overwriteMethod(prototype, name, (original: (...args: unknown[]) => unknown) => {
        const checked = function (this: object, ...args: unknown[]): unknown {
          const site: { stack?: string } = {};
          // The stack from the caller of the matcher on (the test's line), without this wrapper.
          Error.captureStackTrace(site, checked);
          const result = original.apply(this, args);
          const task = utils.flag(this, 'vitest-test') as TestTask | undefined;
          if (
            task?.context?.onTestFinished === undefined ||
            typeof (result as PromiseLike<unknown>)?.then !== 'function'
          )
            return result;
          const not = utils.flag(this, 'negate') ? 'not.' : '';
          const call = `expect(${describeActual(utils.flag(this, 'object'))}).${not}${name}(${describeArgs(args)})`;
          return tracked(task, result as PromiseLike<unknown>, call, site);
        };
        return checked;
      });
      Object.defineProperty(prototype[name], CHECKED, { value: true });
    }
  });
}
