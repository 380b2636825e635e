import { timingSafeEqual } from "node:crypto";
import type { ChainServiceMetrics } from "@slotgate/chain-service";
import type { Database } from "@slotgate/storage";
import type { Request, RequestHandler, Response } from "express";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ChainHandle } from "../../chain-api/chain/start-chain.js";
import type { Logger } from "../config/logger.js";
import { SlotgateServerError } from "../http/errors.js";
import type { DeliveryOutcome } from "../../status/outbox/worker.js";
import { outboxDepth } from "../../status/outbox/outbox-store.js";

/**
 * The server's Prometheus metrics (prom-client, one registry per app). Counters and histograms are
 * updated as things happen; the gauges (outbox, chain writes, PBKDF2 queue, PIN lockouts, paymaster
 * deposit, bundle sizes) are read from the database and the chain service at each scrape.
 * Names are documented in docs/guides/operations.md.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "slotgate_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: "slotgate_http_request_duration_seconds",
    help: "HTTP request latency, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: "slotgate_outbox_deliveries_total",
    help: "Webhook (marketplace.login_status) and callback (oauth_meta.callback) delivery attempts, by topic and outcome (delivered, retry, abandoned).",
    labelNames: ["topic", "outcome"],
    registers: [this.registry],
  });
  private readonly outboxDepthGauge = new Gauge({
    name: "slotgate_outbox_depth",
    help: "Outbox messages waiting for delivery, by topic.",
    labelNames: ["topic"],
    registers: [this.registry],
  });
  private readonly outboxAge = new Gauge({
    name: "slotgate_outbox_oldest_age_seconds",
    help: "Age of the oldest waiting outbox message, by topic.",
    labelNames: ["topic"],
    registers: [this.registry],
  });
  private readonly chainWrites = new Gauge({
    name: "slotgate_chain_writes",
    help: "Chain writes (cs_writes) by state: pending, submitted, confirmed, failed.",
    labelNames: ["state"],
    registers: [this.registry],
  });
  private readonly pbkdf2Queue = new Gauge({
    name: "slotgate_pbkdf2_queue_length",
    help: "PIN derivations (PBKDF2) waiting for a slot in the chain service.",
    registers: [this.registry],
  });
  private readonly pinLockouts = new Gauge({ name: "slotgate_pin_lockouts", help: "Users whose PIN is locked now.", registers: [this.registry] });
  private readonly deposit = new Gauge({
    name: "slotgate_paymaster_deposit_wei",
    help: "The paymaster's EntryPoint deposit, wei (NaN when the node did not answer).",
    registers: [this.registry],
  });
  private readonly bundles = new Gauge({
    name: "slotgate_bundles_total",
    help: "Bundles planned by the chain service's built-in bundler since it started, by number of operations.",
    labelNames: ["size"],
    registers: [this.registry],
  });
  private readonly chainUp = new Gauge({
    name: "slotgate_chain_metrics_up",
    help: "1 when the chain service answered its metrics at this scrape, else 0 (0 too with CHAIN=off).",
    registers: [this.registry],
  });

  constructor(
    private readonly db: Database,
    private readonly chain: ChainHandle | null,
    private readonly log: Logger,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: "slotgate_" });
  }

  /** Counts one answered request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  /** Counts one delivery attempt's outcome. */
  observeDelivery(topic: string, outcome: DeliveryOutcome): void {
    this.deliveries.inc({ topic, outcome });
  }

  /** Reads the gauges, then answers the text exposition format. */
  async render(): Promise<string> {
    const [outbox, chain] = await Promise.all([outboxDepth(this.db), this.chainMetrics()]);
    this.outboxDepthGauge.reset();
    this.outboxAge.reset();
    for (const row of outbox) {
      this.outboxDepthGauge.set({ topic: row.topic }, row.depth);
      this.outboxAge.set({ topic: row.topic }, row.oldest_seconds);
    }
    this.chainUp.set(chain ? 1 : 0);
    if (chain) {
      for (const [state, n] of Object.entries(chain.writes)) this.chainWrites.set({ state }, n);
      this.pbkdf2Queue.set(chain.pbkdf2Queue);
      this.pinLockouts.set(chain.pinLockouts);
      this.deposit.set(chain.paymasterDepositWei === null ? Number.NaN : Number(chain.paymasterDepositWei));
      this.bundles.reset();
      for (const [size, n] of Object.entries(chain.bundleSizes)) this.bundles.set({ size }, n);
    }
    return this.registry.metrics();
  }

  private async chainMetrics(): Promise<ChainServiceMetrics | null> {
    if (!this.chain) return null;
    try {
      return await this.chain.service.metrics();
    } catch (error) {
      this.log.warn("chain service metrics unavailable", { error: error instanceof Error ? error.message : "unknown" });
      return null;
    }
  }
}

/**
 * `GET /metrics`: the Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>` only (401
 * otherwise). Without `METRICS_TOKEN` the route is not served (404): see docs/decisions/observability.md.
 *
 * @example
 * ```ts
 * app.get("/metrics", metricsHandler(metrics, config.metricsToken));
 * ```
 */
export function metricsHandler(metrics: ServerMetrics, token: string): RequestHandler {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (req: Request, res: Response) => {
    const presented = Buffer.from(req.headers.authorization ?? "");
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new SlotgateServerError("invalid_token", {
        message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.",
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
    }
    const body = await metrics.render();
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(body);
  };
}
