/**
 * Opening a durable part of a LevelDB backend (deliveries, collections, state)
 * that may be unreadable: the backend still opens, with that part in memory.
 *
 * @module
 */

/**
 * A durable part of the store (`open`); when damaged data keeps it from being
 * read, the backend still opens (degraded, as health says) with that part kept
 * in memory (`undefined`: memoryBackend fills it in), and says so in one
 * warning naming `what` could not be read and `kept` in memory: `mockpoint
 * repair` is the way back.
 */
export async function openDurable<T>(
  open: () => Promise<T>,
  what: string,
  kept: string,
  warnings: string[],
): Promise<T | undefined> {
  try {
    return await open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warnings.push(
      `${what} could not be read (${reason}); ${kept} kept in memory until the data directory is repaired (mockpoint repair)`,
    );
    return undefined;
  }
}
