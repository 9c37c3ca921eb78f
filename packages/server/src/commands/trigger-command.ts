/**
 * `mockpoint trigger <name> <event> [--to URL]`: one of a twin's provider
 * events sent on demand (`POST /api/endpoints/{name}/twin/trigger`,
 * docs/twins.md#trigger-an-event), as `stripe trigger` sends one against the
 * real test mode. Prints one line per event the twin emitted, and the delivery
 * to `--to` with the secret it is signed with. Exits 0 when sent; 1 when the
 * daemon refused it (an unknown event, no twin); 2 for a bad argument.
 *
 * @module
 */
import type { TwinTrigger } from '@mockpoint/core';
import { type CommandIo, DAEMON_OPTIONS, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { daemonClient } from './daemon-client.js';

export const TRIGGER_HELP = `Usage: mockpoint trigger <name> <event> [options]

Sends one event of the twin at <name> (a daemon started with --twin stripe holds it at the name
stripe) on demand, as \`stripe trigger\` does: the twin makes the objects the event is about through
its API, so the event is kept (GET /v1/events), delivered to its subscribed endpoints and, with
--to, to one more receiver, signed the provider's way. \`GET /api/endpoints/<name>/twin\` lists
its events as triggers.

Examples:
  mockpoint trigger stripe payment_intent.succeeded --to http://127.0.0.1:3000/webhooks
  mockpoint trigger github issues.opened --repo octo/app

${optionsHelp(
  `
--to <url>         | one more receiver of the event (loopback, or MOCKPOINT_DELIVERY_ALLOW_HOSTS)
--secret <secret>  | what the delivery to --to is signed with (default: the secret of the
                   | twin's subscription to that URL, else a new one, printed)
--repo <owner/name> | the repository of a GitHub event (default octocat/hello-world)
--json             | print the daemon's answer as JSON
`,
  DAEMON_OPTIONS,
)}`;

export async function runTrigger(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const args = parseArgs('trigger', argv, {
    values: ['--url', '--token', '--to', '--secret', '--repo'],
    switches: ['--json'],
  });
  if (args.help) {
    io.out(TRIGGER_HELP);
    return 0;
  }
  const [name, event, extra] = args.positionals;
  if (name === undefined || event === undefined) {
    throw new UsageError('give the name holding the twin and an event, e.g. mockpoint trigger stripe customer.created');
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra.slice(0, 64)}"`);
  const trigger: TwinTrigger = { event };
  for (const flag of ['to', 'secret', 'repo'] as const) {
    const value = args.values.get(`--${flag}`);
    if (value !== undefined) trigger[flag] = value;
  }
  const sent = await daemonClient(args, env).triggerTwin(name, trigger);
  if (args.switches.has('--json')) {
    io.out(`${JSON.stringify(sent, null, 2)}\n`);
    return 0;
  }
  const lines = sent.events.map(({ type, event: made }) => {
    const id = typeof made.id === 'string' ? `  ${made.id}` : '';
    return `${type === sent.event ? '*' : ' '} ${type}${id}`;
  });
  if (sent.delivery !== undefined) {
    lines.push(`delivery ${sent.delivery.id} to ${sent.delivery.url}, signed with ${sent.delivery.secret}`);
  }
  io.out(`${lines.join('\n')}\n`);
  return 0;
}
