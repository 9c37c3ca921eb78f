// Run before each of core's test files. Core runs its files without isolation (vitest.config.ts),
// so a file that serves an app with `overrideGlobalObjects` left on (the default of
// @hono/node-server and of our Node adapter) swaps the global Request and Response for the
// adapter's lighter ones, and every later file in that worker would see them. The globals as
// the worker first had them are kept once, and put back before each file.
const KEY = Symbol.for('mockpoint.test.fetchGlobals');
type Globals = { Request: typeof Request; Response: typeof Response };
const holder = globalThis as typeof globalThis & { [KEY]?: Globals };
holder[KEY] ??= { Request: globalThis.Request, Response: globalThis.Response };
const first = holder[KEY];
if (globalThis.Request !== first.Request) globalThis.Request = first.Request;
if (globalThis.Response !== first.Response) globalThis.Response = first.Response;
