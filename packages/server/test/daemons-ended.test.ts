// Every test file that starts daemons ends them: it registers the helpers' cleanup (useDaemons,
// killAll, useTwinRedis, which uses useDaemons) or stops what it starts. Two files once had
// neither, and each run of the suite left 9 daemons running after it (stop 80 found them by PID).
// sharedDaemon and sharedTwinDaemon end their daemon themselves (an afterAll of their own), so a
// file that starts daemons only through them needs nothing more.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** What starts a daemon process, in a test file. */
const STARTS = /\b(?:startDaemon|twinDaemon)\(/;
/** What ends them: the helpers' cleanup, or a stop of each. */
const ENDS = /\b(?:useDaemons|killAll|useTwinRedis)\(|\.stop\(/;

it('finds no test file that starts daemons and never ends them', () => {
  const files = readdirSync(HERE).filter((file) => file.endsWith('.test.ts'));
  const starting = files.filter((file) => STARTS.test(readFileSync(`${HERE}${file}`, 'utf8')));
  // The check read the files (one that read nothing would pass).
  expect(starting.length).toBeGreaterThan(100);
  const unended = starting.filter((file) => !ENDS.test(readFileSync(`${HERE}${file}`, 'utf8')));
  expect(unended).toEqual([]);
});
