/**
 * What the contract runs on workerd: the documented Workers entry, with a
 * test-only route in the Durable Object that counts the long-poll waiters of one
 * name (for the hang-up check).
 */
import { MockpointObject as DocumentedObject } from '@mockpoint/core/workers';

export { worker as default } from '@mockpoint/core/workers';

const PROBE = '/__contract/waiters/';

export class MockpointObject extends DocumentedObject {
  override fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(PROBE)) {
      return Promise.resolve(Response.json(this.app.mockpoint.journal.waitersFor(pathname.slice(PROBE.length))));
    }
    return super.fetch(request);
  }
}
