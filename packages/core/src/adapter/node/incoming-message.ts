/**
 * The request class of the servers `serve()` makes: Node's own, but the
 * `mockpoint-session` header (a test session's, on every request it sends)
 * goes into `req.headers` without the slow path Node takes for a header it
 * does not know. Node builds `req.headers` for every request (its server reads
 * `expect`); for an unknown name it lower-cases the name, prefixes and slices
 * it, and makes the result a property key, about 1.5 µs a request, which is
 * most of what a session costs over the same request without one
 * (docs/performance.md). The name sent in lower case, as every client here
 * sends it, is stored under the same key with the same joining of duplicates
 * (`a, b`) as Node's; any other spelling takes Node's path.
 *
 * @module
 */
import { IncomingMessage } from 'node:http';
import { SESSION_HEADER } from '../../api/session.js';

type HeaderBag = Record<string, string | string[] | undefined>;
type AddHeaderLine = (this: IncomingMessage, field: string, value: string, dest: HeaderBag) => void;

/** Node's own `_addHeaderLine`, looked up once (it runs for every header line of every request). */
const nodeAddHeaderLine = (IncomingMessage.prototype as unknown as { _addHeaderLine: AddHeaderLine })._addHeaderLine;

/** Node's `IncomingMessage`, with a fast path for the session header. */
export class MockpointIncomingMessage extends IncomingMessage {
  /** Node's hook (not in its types), called once per header line when `req.headers` is built. */
  _addHeaderLine(field: string, value: string, dest: HeaderBag): void {
    if (field === SESSION_HEADER) {
      const before = dest[SESSION_HEADER];
      dest[SESSION_HEADER] = before === undefined ? value : `${before}, ${value}`;
      return;
    }
    nodeAddHeaderLine.call(this, field, value, dest);
  }
}
