/**
 * A HAR 1.2 file (core's files/har-mock-file.ts): a route per recorded request.
 *
 * @module
 */
import { basename } from 'node:path';
import { harMockFile, isHar } from '@mockpoint/core/files';
import { ALWAYS_REDACTED_TEXT } from '@mockpoint/core/internal';
import { commaList } from '../command-args.js';
import type { Importer } from './importer.js';

export const har: Importer = {
  kind: 'har',
  help: `With --from har (or a file that is plainly HAR: {"log":{"entries":[…]}}), each recorded request
becomes a route answering it as it was answered, bytes exact (method, path, query and text body
matched exactly; secrets left out); a request answered differently over time answers in that order,
the last answer staying (docs/har.md).`,
  options: `
--host <host>     | har: only the requests sent to this host (default: every host)
--redact <h1,h2>  | har: more headers never written, as record's --redact
                  | (${ALWAYS_REDACTED_TEXT} never are)
`,
  detect: (source) => !source.dir && /\.(har|json)$/i.test(source.path) && isHar(source.text()),
  async convert(source, { name, values }) {
    const host = values.get('--host');
    const redact = commaList(values.get('--redact'));
    const imported = await harMockFile(source.text(), {
      name,
      file: basename(source.path),
      ...(host === undefined ? {} : { host }),
      ...(redact === undefined ? {} : { redact }),
    });
    return {
      mockFile: imported.text,
      leftOut: imported.skipped,
      summary: `${imported.imported} of ${imported.entries} entries as ${imported.routes} route(s) of endpoint ${name}${imported.hosts.length > 0 ? ` (from ${imported.hosts.join(', ')})` : ''}`,
    };
  },
};
