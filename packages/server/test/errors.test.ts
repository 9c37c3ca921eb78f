// The CLI's errors are core's MockpointError, with codes from the one registry:
// cli.ts prints any of them as one line (isOwnError), never duck-typing a `code`.
import { MockpointError } from '@mockpoint/core';
import { ERRORS, isOwnError } from '@mockpoint/core/internal';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/commands/command-args.js';
import { ForwardError } from '../src/commands/tail-forward.js';
import { ConfigError } from '../src/config.js';
import { ReportingUnavailableError } from '../src/reporting.js';
import { StartError } from '../src/start-server.js';

describe('the CLI errors', () => {
  it.each([
    ['ConfigError', new ConfigError('MOCKPOINT_PORT', 'must be a port'), 'INVALID_CONFIG'],
    ['StartError', new StartError('PORT_IN_USE', 'port 1 is in use'), 'PORT_IN_USE'],
    ['ReportingUnavailableError', new ReportingUnavailableError(new Error('missing')), 'REPORTING_UNAVAILABLE'],
    ['ForwardError', new ForwardError('http://x: refused'), 'FORWARD_FAILED'],
    ['UsageError', new UsageError('unknown option --x'), 'INVALID_ARGUMENT'],
  ])('%s is a MockpointError with a registered code', (name, error, code) => {
    expect(error).toBeInstanceOf(MockpointError);
    expect(isOwnError(error)).toBe(true);
    expect(error).toMatchObject({ name, code });
    expect(ERRORS).toHaveProperty(code);
  });

  it('an error that is not mockpoint own, even with a string code, is not taken for one', () => {
    expect(isOwnError(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }))).toBe(false);
  });
});
