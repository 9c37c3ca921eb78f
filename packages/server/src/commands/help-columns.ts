/**
 * The option lines of every `--help` (the daemon's and each command's): the flag,
 * then its text at one column that is the same in every help ({@link TEXT_COLUMN}),
 * the environment variable it falls back to last in the text; each text wrapped at
 * word boundaries (a row's lines as one paragraph) so that a line fits in
 * {@link HELP_WIDTH} columns, its further lines starting at the text column.
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

/** The widest a help line is made. */
const HELP_WIDTH = 100;

/**
 * Where every text starts, in every `--help` alike: two spaces, a flag column of 28, two spaces.
 * A longer flag (the daemon's `--graphql-subscription-interval-ms <ms>`) stands on its own line,
 * its text starting on the next at the same column.
 */
export const TEXT_COLUMN = 32;

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

/**
 * The rows as lines: `  flag` then the text at {@link TEXT_COLUMN}, wrapped to {@link HELP_WIDTH},
 * the environment variable last in it (`(env: MOCKPOINT_URL)`); a row without a flag shows its
 * variable in the flag's place.
 */
export function helpColumns(rows: readonly HelpRow[]): string[] {
  const indent = ' '.repeat(TEXT_COLUMN);
  return rows.flatMap(({ flag, env, text }) => {
    const head = flag === '' ? env : flag;
    // `(env: NAME)` is kept on one line: joined by a no-break space while wrapped.
    const said = flag === '' || env === '' ? text.join(' ') : `${text.join(' ')} (env:\u00a0${env})`;
    const lines = wrap(said, HELP_WIDTH - TEXT_COLUMN).map((line) => `${indent}${line.replaceAll('\u00a0', ' ')}`);
    const first = `  ${head}`;
    if (first.length + 2 > TEXT_COLUMN) return [first, ...lines];
    return [`${first.padEnd(TEXT_COLUMN)}${(lines[0] as string).slice(TEXT_COLUMN)}`, ...lines.slice(1)];
  });
}
