import { runOutsideRequest, runWithRequestId } from "@slotgate/chain-service";
import type { Logger } from "../../platform/config/logger.js";
import type { Database } from "@slotgate/storage";
import { claimDue, markAttemptFailed, markDelivered, type OutboxRow } from "./outbox-store.js";

/** Result of one delivery attempt. */
export type DeliveryResult = { ok: true } | { ok: false; error: string; retryable: boolean };

/** How one delivery attempt ended: `delivered`, `retry` (failed, will be tried again) or `abandoned`. */
export type DeliveryOutcome = "delivered" | "retry" | "abandoned";

/** Delivers the messages of one topic. */
export interface TopicHandler {
  topic: string;
  /** Seconds to wait before attempt `attempt + 1` after attempt `attempt` failed. */
  backoffSeconds(attempt: number): number;
  /** Whether this topic is active (e.g. a marketplace URL is configured). Inactive topics wait. */
  enabled(): boolean;
  deliver(message: OutboxRow): Promise<DeliveryResult>;
}

/**
 * Delivers outbox messages with retries and exponential backoff. Messages are claimed with a
 * lease (`FOR UPDATE SKIP LOCKED`), so several instances can run workers against one database;
 * a message is delivered at least once.
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly handlers: readonly TopicHandler[],
    private readonly log: Logger,
    private readonly pollMs: number,
    /** Told of each attempt's outcome (the `/metrics` delivery counters). */
    private readonly onOutcome: (topic: string, outcome: DeliveryOutcome) => void = () => undefined,
  ) {}

  /** Starts polling. */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops polling and waits for the attempt in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a delivery pass now (or in `delayMs`), e.g. right after a message was enqueued. */
  kick(delayMs = 0): void {
    if (this.stopped) return;
    if (delayMs > 0) {
      setTimeout(() => this.kick(), delayMs).unref();
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    // A kick from a request handler must not lend that request's id to the whole pass.
    this.running = runOutsideRequest(() => this.pass())
      .catch((error: unknown) => this.log.warn("outbox pass failed", { error: String(error) }))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pass(): Promise<void> {
    const active = this.handlers.filter((h) => h.enabled());
    if (active.length === 0) return;
    const byTopic = new Map(active.map((h) => [h.topic, h]));
    for (let round = 0; round < 10 && !this.stopped; round++) {
      const batch = await claimDue(this.db, [...byTopic.keys()], 20, 30);
      if (batch.length === 0) return;
      // Each attempt runs as part of the request that enqueued its message: its log lines carry that id.
      await Promise.all(
        batch.map((m) =>
          m.request_id ? runWithRequestId(m.request_id, () => this.attempt(byTopic.get(m.topic)!, m)) : this.attempt(byTopic.get(m.topic)!, m),
        ),
      );
    }
  }

  private async attempt(handler: TopicHandler, message: OutboxRow): Promise<void> {
    let result: DeliveryResult;
    try {
      result = await handler.deliver(message);
    } catch (error) {
      result = { ok: false, error: error instanceof Error ? error.message : "delivery failed", retryable: true };
    }
    if (result.ok) {
      await markDelivered(this.db, message.id);
      this.onOutcome(message.topic, "delivered");
      this.log.debug("outbox message delivered", { topic: message.topic, id: message.id, attempt: message.attempts });
      return;
    }
    const giveUp = !result.retryable || message.attempts >= message.max_attempts;
    this.onOutcome(message.topic, giveUp ? "abandoned" : "retry");
    const wait = handler.backoffSeconds(message.attempts);
    await markAttemptFailed(this.db, message.id, result.error, wait, giveUp);
    this.log.warn(giveUp ? "outbox delivery abandoned" : "outbox delivery failed, will retry", {
      topic: message.topic,
      id: message.id,
      attempt: message.attempts,
      error: result.error,
    });
    if (!giveUp) this.kick(Math.ceil(wait * 1000) + 5);
  }
}

/** The `X-Request-Id` header of a delivery: the id of the request that enqueued the message, when known. */
export function requestIdHeader(message: OutboxRow): Record<string, string> {
  return message.request_id ? { "X-Request-Id": message.request_id } : {};
}

/** POSTs to a URL without following redirects; 2xx is success, network errors, 408, 429 and 5xx are retryable. */
export async function postOnce(url: string, init: { headers?: Record<string, string>; body?: string; timeoutMs: number }): Promise<DeliveryResult> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: init.headers ?? {},
      ...(init.body !== undefined ? { body: init.body } : {}),
      redirect: "manual",
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true };
    return { ok: false, error: `HTTP ${res.status}`, retryable: res.status >= 500 || res.status === 408 || res.status === 429 };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, error: cause ?? (error instanceof Error ? error.name : "network error"), retryable: true };
  }
}
