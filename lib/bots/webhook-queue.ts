/**
 * The requests to outgoing-webhook bots' servers waiting to be made, and the ones being made.
 *
 * A message that sets a bot off is answered (and committed) without waiting for the bot's
 * server: the request is queued here and made in the background. Everything is bounded, so
 * a bot server that hangs or a flood of mentions cannot grow memory or sockets without end:
 * so many requests at once in all and per bot (a hanging server holds only its own slots),
 * so many waiting in all and per bot (beyond that a trigger is dropped and logged).
 */

export type Trigger = 'mention' | 'direct_message';

export interface OutgoingWebhookJob {
  messageId: number;
  botId: number;
  trigger: Trigger;
  /** Attempts so far that failed in a way worth repeating (no answer in time, server unreachable). */
  failedTries: number;
}

/** What became of one attempt: finished (well or not), or to be made again. */
export type JobOutcome = 'done' | 'retry';

/** Makes one attempt; `signal` aborts when the server shuts down. */
export type JobHandler = (job: OutgoingWebhookJob, signal: AbortSignal) => Promise<JobOutcome>;

export interface QueueLimits {
  maxWaiting: number;
  maxWaitingPerBot: number;
  maxInFlight: number;
  maxInFlightPerBot: number;
}

/** Generous for a small team, small enough that a flood costs little memory (a job is four numbers). */
export const DEFAULT_QUEUE_LIMITS: QueueLimits = {
  maxWaiting: 1000,
  maxWaitingPerBot: 200,
  maxInFlight: 16,
  maxInFlightPerBot: 4,
};

export class OutgoingWebhookQueue {
  private readonly waiting: OutgoingWebhookJob[] = [];
  private readonly inFlightByBot = new Map<number, number>();
  private inFlight = 0;
  private handler: JobHandler | undefined;
  private readonly shutdown = new AbortController();
  private pumpScheduled = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly log: (line: string) => void,
    private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS,
  ) {}

  /** Begins making requests with `handler`; until then (and after stop) triggers are not kept. */
  start(handler: JobHandler): void {
    this.handler = handler;
  }

  /** Queues a request; false when it was dropped (not started, stopped, or full). */
  add(job: OutgoingWebhookJob): boolean {
    if (!this.handler || this.shutdown.signal.aborted) return false;
    const waitingForBot = this.waiting.reduce((n, waiting) => n + (waiting.botId === job.botId ? 1 : 0), 0);
    if (this.waiting.length >= this.limits.maxWaiting || waitingForBot >= this.limits.maxWaitingPerBot) {
      this.log(`Outgoing webhook: too many requests waiting; message ${job.messageId} not sent to bot ${job.botId}`);
      return false;
    }
    this.waiting.push(job);
    this.schedulePump();
    return true;
  }

  /** Stops for good: waiting requests are forgotten, those being made are aborted. */
  stop(): void {
    this.shutdown.abort();
    this.waiting.length = 0;
    this.settleIfIdle();
  }

  /** Resolves once nothing waits and nothing is being made (tests wait on it; so does shutdown). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.settleIfIdle();
    });
  }

  /** Requests start on a later turn: never inside the transaction or request that queued them. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxInFlight) {
      // The oldest request whose bot has a free slot: a slow bot does not hold up the others.
      const index = this.waiting.findIndex((job) => (this.inFlightByBot.get(job.botId) ?? 0) < this.limits.maxInFlightPerBot);
      if (index === -1) break;
      const [job] = this.waiting.splice(index, 1);
      this.run(job);
    }
    this.settleIfIdle();
  }

  private run(job: OutgoingWebhookJob): void {
    const handler = this.handler!;
    this.inFlight += 1;
    this.inFlightByBot.set(job.botId, (this.inFlightByBot.get(job.botId) ?? 0) + 1);
    void handler(job, this.shutdown.signal)
      .then((outcome) => {
        // A retry goes to the back of the queue, as Zulip's worker requeues it. It is never
        // dropped for room, so the queue may pass its bound by at most the requests in flight.
        if (outcome === 'retry' && !this.shutdown.signal.aborted) this.waiting.push({ ...job, failedTries: job.failedTries + 1 });
      })
      .catch((err: unknown) => {
        this.log(`Outgoing webhook: message ${job.messageId} to bot ${job.botId} failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        this.inFlight -= 1;
        const left = this.inFlightByBot.get(job.botId)! - 1;
        if (left === 0) this.inFlightByBot.delete(job.botId);
        else this.inFlightByBot.set(job.botId, left);
        this.pump();
      });
  }

  private settleIfIdle(): void {
    if (this.inFlight > 0 || this.waiting.length > 0 || this.pumpScheduled) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
