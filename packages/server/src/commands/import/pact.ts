/**
 * A Pact file, V2 to V4 (core's files/pact-mock-file.ts): a route per HTTP
 * interaction, answering as the contract says the provider does.
 *
 * @module
 */
import { basename } from 'node:path';
import { isPact, pactMockFile } from '@mockpoint/core/files';
import type { Importer } from './importer.js';

export const pact: Importer = {
  kind: 'pact',
  help: `With --from pact (or a .json file that is plainly a Pact file: {"consumer", "provider",
"interactions"}), each HTTP interaction of a Pact contract (specification V2, V3 or V4) becomes a
route answering its response: method, path and query matched exactly, and the body when it has
one (JSON as a subset); --name defaults to the provider's name (docs/pact.md).`,
  options: '',
  namesItself: true,
  detect: (source) => !source.dir && /\.json$/i.test(source.path) && isPact(source.text()),
  async convert(source, { name }) {
    const imported = pactMockFile(source.text(), {
      ...(name === '' ? {} : { name }),
      file: basename(source.path),
    });
    return {
      mockFile: imported.text,
      leftOut: imported.leftOut,
      name: imported.name,
      summary: `${imported.routes} of ${imported.interactions} interaction(s) of ${imported.consumer || '?'} → ${imported.provider || '?'} (Pact ${imported.specification}) as routes of endpoint ${imported.name}`,
    };
  },
};
