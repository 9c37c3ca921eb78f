/**
 * Playing streamed answers, the same on every runtime: each frame is written
 * after its own delay (one timer at a time per stream, none while a frame is
 * due at once), then the stream ends as its answer says. An adapter only
 * supplies a {@link StreamSink} (Node's response, a Fetch `ReadableStream`).
 *
 * The open streams of one app are kept here so that shutdown ends them all
 * promptly (a `hang` would otherwise hold its connection, and so the close,
 * open), and a client that leaves stops its stream and frees its timer at once.
 * A `hang` also ends, normally, when its answer's `release` aborts (the
 * endpoint changed).
 *
 * @module
 */
import type { StreamAnswer } from '../endpoint-answer.js';

/** Where a stream's bytes go: an adapter's response. */
export interface StreamSink {
  /** Writes (and flushes) one frame. */
  write(bytes: Uint8Array): void;
  /** Ends the response normally. */
  end(): void;
  /** Breaks the connection after what was written (the body never completes). */
  reset(): void;
}

/** One stream being played; {@link StreamPlayback.cancel} when its client leaves. */
export interface StreamPlayback {
  /** The client went away: nothing more is written, the timer is cleared. */
  cancel(): void;
}

class Playback implements StreamPlayback {
  readonly #answer: StreamAnswer;
  readonly #sink: StreamSink;
  readonly #owner: OpenStreams;
  #next = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #done = false;
  /** Listening on the answer's `release` while hanging. */
  #onRelease: (() => void) | undefined;

  constructor(owner: OpenStreams, answer: StreamAnswer, sink: StreamSink) {
    this.#owner = owner;
    this.#answer = answer;
    this.#sink = sink;
  }

  /** Whether the frame at `#next` has had its delay already. */
  #waited = false;

  /** Writes every frame that is due now, then waits for the next one (or ends). */
  run = (): void => {
    this.#timer = undefined;
    const { frames } = this.#answer;
    while (this.#next < frames.length) {
      if (this.#done) return;
      const frame = frames[this.#next] as (typeof frames)[number];
      if (frame.delay > 0 && !this.#waited) {
        this.#waited = true;
        this.#timer = setTimeout(this.run, frame.delay);
        return;
      }
      this.#waited = false;
      this.#next++;
      this.#sink.write(frame.bytes);
    }
    if (this.#done) return;
    const { end } = this.#answer;
    if (end === 'hang') {
      this.#hang();
      return;
    }
    this.#finish();
    if (end === 'close') this.#sink.end();
    else this.#sink.reset();
  };

  cancel(): void {
    this.#finish();
  }

  /** Sends nothing more until the client leaves, shutdown, or `release` (at once if it came already). */
  #hang(): void {
    const { release } = this.#answer;
    if (release === undefined) return;
    if (release.aborted) {
      this.endNow();
      return;
    }
    this.#onRelease = () => this.endNow();
    release.addEventListener('abort', this.#onRelease, { once: true });
  }

  /** Shutdown or release: ends the response normally, whatever is left. */
  endNow(): void {
    if (this.#done) return;
    this.#finish();
    this.#sink.end();
  }

  #finish(): void {
    this.#done = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#onRelease !== undefined) {
      this.#answer.release?.removeEventListener('abort', this.#onRelease);
      this.#onRelease = undefined;
    }
    this.#owner.forget(this);
  }
}

/** The streams one app is playing. */
export class OpenStreams {
  readonly #open = new Set<Playback>();
  #closed = false;

  /** Streams playing (or hanging) now. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Plays `answer` (its headers are already sent) into `sink`. After
   * {@link endAll} a stream ends at once.
   */
  play(answer: StreamAnswer, sink: StreamSink): StreamPlayback {
    const playback = new Playback(this, answer, sink);
    if (this.#closed) {
      playback.endNow();
      return playback;
    }
    this.#open.add(playback);
    playback.run();
    return playback;
  }

  /** Ends every stream now, normally (shutdown); streams started later end at once. */
  endAll(): void {
    this.#closed = true;
    for (const playback of [...this.#open]) playback.endNow();
  }

  /** @internal a playback that finished. */
  forget(playback: Playback): void {
    this.#open.delete(playback);
  }
}
