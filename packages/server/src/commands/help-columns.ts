/**
 * The option lines of every `--help` (the daemon's and each command's): flag,
 * environment variable and text in aligned columns, each text wrapped at word
 * boundaries (a row's lines as one paragraph) so that a line fits in {@link HELP_WIDTH} columns, its further
 * lines starting at the text column.
 *
 * @module
 */

/**
 * One option: the flag, the environment variable it falls back to ('' when none;
 * a row without a flag is a variable the command reads), and what it does (its lines).
 */
export interface HelpRow {
  flag: string;
  env: string;
  text: string[];
}

/** The widest a help line is made, where the text column leaves room (see {@link MIN_TEXT_WIDTH}). */
const HELP_WIDTH = 100;

/** Texts are wrapped only when the text column leaves them this many columns. */
const MIN_TEXT_WIDTH = 40;

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The rows as aligned lines: `  flag  VARIABLE  text`, continuation lines under the text. */
export function helpColumns(rows: readonly HelpRow[]): string[] {
  const flagWidth = Math.max(...rows.map(({ flag }) => flag.length)) + 2;
  const envWidth = Math.max(...rows.map(({ env }) => env.length));
  const textColumn = 2 + flagWidth + (envWidth === 0 ? 0 : envWidth + 2);
  const room = HELP_WIDTH - textColumn;
  return rows.flatMap(({ flag, env, text }) => {
    // A text's lines are one paragraph, wrapped again to the room there is.
    const lines = room < MIN_TEXT_WIDTH ? text : wrap(text.join(' '), room);
    const [first = '', ...more] = lines;
    const head = `  ${flag.padEnd(flagWidth)}${envWidth === 0 ? '' : env.padEnd(envWidth + 2)}${first}`;
    return [head, ...more.map((line) => `${' '.repeat(textColumn)}${line}`)];
  });
}
