/**
 * `mockpoint trigger <name> <event> [--to URL]`: one of a twin's provider
 * events sent on demand (`POST /api/endpoints/{name}/twin/trigger`,
 * docs/twins.md#trigger-an-event), as a provider's own command-line tool sends
 * one against its real test mode. Prints one line per event the twin emitted, and the delivery
 * to `--to` with the secret it is signed with. Exits 0 when sent; 1 when the
 * daemon refused it (an unknown event, no twin); 2 for a bad argument. Its help's examples and
 * the options of the providers' own trigger fields are read from the providers' package.
 *
 * @module
 */
import type { TwinTrigger } from '@mockpoint/core';
import type { TwinProvider } from '@mockpoint/core/internal';
import { type CommandIo, DAEMON_OPTIONS, optionsHelp, parseArgs, UsageError } from './command-args.js';
import { daemonClient } from './daemon-client.js';

/** The providers shipped beside the command, their code loaded; none without their package. */
async function shippedProviders(): Promise<TwinProvider[]> {
  try {
    const twins = await import('@mockpoint/twins');
    return await Promise.all(twins.providers.map((name) => twins.code(name)));
  } catch {
    return [];
  }
}

/** Each provider's trigger field as an option: its flag, its form, what it is and its default. */
function fieldOptions(providers: readonly TwinProvider[]): { flag: string; form: string; text: string }[] {
  return providers.flatMap(({ title, trigger }) =>
    Object.entries(trigger?.fields ?? {}).map(([name, field]) => ({
      flag: `--${name}`,
      form: field.form,
      text: `${field.description}, of a ${title} twin (default ${field.default})`,
    })),
  );
}

/** The help of `mockpoint trigger`, its examples and the providers' options from `providers`. */
export function triggerHelp(providers: readonly TwinProvider[]): string {
  const first = providers[0];
  const examples = [
    first === undefined
      ? '  mockpoint trigger <name> <event> --to http://127.0.0.1:3000/webhooks'
      : `  mockpoint trigger ${first.name} ${first.event} --to http://127.0.0.1:3000/webhooks`,
    ...providers.flatMap(({ name, event, trigger }) =>
      Object.entries(trigger?.fields ?? {})
        .slice(0, 1)
        .map(([field, { form }]) => `  mockpoint trigger ${name} ${event} --${field} <${form}>`),
    ),
  ];
  const held =
    first === undefined
      ? ''
      : `\nA daemon started with --twin ${first.name} holds its twin at the name ${first.name}.\n`;
  const options = fieldOptions(providers).map(({ flag, form, text }) => `${flag} <${form}> | ${text}`);
  return `Usage: mockpoint trigger <name> <event> [options]

Sends one event of the twin at <name> on demand, as a provider's own command-line tool does: the
twin makes the objects the event is about through its API, so the event is kept (in its events
list), delivered to its subscribed endpoints and, with --to, to one more receiver, signed the
provider's way. \`GET /api/endpoints/<name>/twin\` lists its events as triggers.
${held}
Examples:
${examples.join('\n')}

${optionsHelp(
  `
--to <url>         | one more receiver of the event (loopback, or MOCKPOINT_DELIVERY_ALLOW_HOSTS)
--secret <secret>  | what the delivery to --to is signed with (default: the secret of the
                   | twin's subscription to that URL, else a new one, printed)
${options.join('\n')}
--json             | print the daemon's answer as JSON
`,
  DAEMON_OPTIONS,
)}`;
}

export async function runTrigger(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const providers = await shippedProviders();
  const fields = [...new Set(fieldOptions(providers).map(({ flag }) => flag))];
  const args = parseArgs('trigger', argv, {
    values: ['--url', '--token', '--to', '--secret', ...fields],
    switches: ['--json'],
  });
  if (args.help) {
    io.out(triggerHelp(providers));
    return 0;
  }
  const [name, event, extra] = args.positionals;
  if (name === undefined || event === undefined) {
    const first = providers[0];
    const such = first === undefined ? '<name> <event>' : `${first.name} ${first.event}`;
    throw new UsageError(`give the name holding the twin and an event, e.g. mockpoint trigger ${such}`);
  }
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra.slice(0, 64)}"`);
  const trigger: TwinTrigger = { event };
  for (const flag of ['--to', '--secret', ...fields]) {
    const value = args.values.get(flag);
    if (value !== undefined) trigger[flag.slice(2)] = value;
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
