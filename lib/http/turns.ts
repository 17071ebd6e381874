import type { Server, ServerResponse } from 'node:http';

/**
 * Long requests served one per turn of the event loop, after the short ones and after the
 * connections waiting to be accepted.
 *
 * Node serves, in one turn, every request whose bytes have arrived, one after the other, and
 * accepts one new connection a turn (libuv accepts one per turn since 1.45; the listening
 * socket stays ready while others wait). A registration costs milliseconds of CPU and answers
 * half a megabyte with a thousand people; when a crowd arrives, a turn held hundreds of them,
 * so it lasted seconds: every short request that came meanwhile (a presence report, a view,
 * a poll asked again) waited for all of them, and new connections were accepted a few dozen
 * a second while thousands queued in the kernel, until clients gave up on them (bench/RESULTS.md).
 *
 * Here a long request waits in line instead; each turn serves them for a bounded time, after
 * the short requests read in it. While a crowd arrives, only once a turn has passed that
 * accepted no connection, so that the kernel's queue is emptied first (a turn with nothing else to do is
 * a few microseconds). Short requests are served as they arrive.
 */
export class Turns {
  private readonly waiting: Array<() => ServerResponse> = [];
  private scheduled = false;
  /** When the current turn began serving long requests; undefined between turns. */
  private turnStartedAt: number | undefined;
  /** Connections accepted since the last turn looked. */
  private accepted = 0;
  /** Whether the turn looked at before this one had accepted a connection too. */
  private acceptedBefore = false;
  /** Turns passed in a row without serving a long request, to bound how long one waits. */
  private passed = 0;

  /** Counts the server's accepted connections; a turn that accepted one gives way to the next. */
  watch(server: Server): void {
    server.on('connection', () => this.accepted++);
  }

  /** Runs `serve` (which answers the response it returns) in a later turn, after those already waiting. */
  wait(serve: () => ServerResponse): void {
    this.waiting.push(serve);
    if (this.turnStartedAt === undefined) this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A pending immediate makes the next turn poll without blocking: it accepts a waiting
    // connection and reads what has arrived, then runs this.
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    // A crowd is arriving when registrations pile up, or when turns in a row each accepted a
    // connection (the kernel holds more): only then does accepting go first.
    const crowd = this.waiting.length >= LINE_TO_GIVE_WAY || this.acceptedBefore;
    this.acceptedBefore = this.accepted > 0;
    if (this.accepted > 0 && crowd && this.passed < MAX_TURNS_PASSED) {
      this.accepted = 0;
      this.passed++;
      return this.schedule();
    }
    this.accepted = 0;
    this.passed = 0;
    this.turnStartedAt = performance.now();
    this.next();
  };

  /** Serves the next long request; once it has answered, the one after, while the turn's time lasts. */
  private next(): void {
    const serve = this.waiting.shift();
    if (!serve) {
      this.turnStartedAt = undefined;
      return;
    }
    let done = false;
    const answered = () => {
      if (done) return;
      done = true;
      if (this.waiting.length > 0 && this.turnStartedAt !== undefined && performance.now() - this.turnStartedAt < TURN_MS) {
        // Within this turn (the stack unwound first), as the answer was written in it.
        process.nextTick(() => this.next());
      } else {
        this.turnStartedAt = undefined;
        if (this.waiting.length > 0) this.schedule();
      }
    };
    const res = serve();
    if (res.writableEnded || res.destroyed || !res.socket || res.socket.destroyed) return answered();
    // 'prefinish' comes as the answer is handed to the socket, 'close' if the client went.
    res.once('prefinish', answered);
    res.once('close', answered);
    // One not answered by the next turn (its body still arriving) no longer holds the line.
    setImmediate(answered);
  }
}

/**
 * How long one turn serves long requests before letting the loop go round: a short request
 * that arrives meanwhile waits at most about this long. Two or three registrations of a
 * thousand people.
 */
const TURN_MS = 20;

/**
 * This many registrations waiting mean a crowd is arriving. Fewer, with connections arriving
 * one now and then, are served in the turn that read them, as before there was a line.
 */
const LINE_TO_GIVE_WAY = 4;

/**
 * At most this many turns in a row go to accepting before long requests are served: a
 * steady stream of new connections must not hold registrations back for ever.
 */
const MAX_TURNS_PASSED = 64;
