import { type AnyEndpoint, routePath } from "@slotgate/protocol/endpoints";
import type { MockFixtures } from "./fixtures.js";
import type { SigningKeys } from "./jwt.js";
import type { WalletDecision } from "./handlers/wallet-window.js";
import type { MockFaults } from "./options.js";
import type { MockState } from "./state.js";

/** Everything a simulated endpoint needs. Internal. */
export interface MockContext {
  /** Base URL without trailing slash; also the JWT issuer. */
  baseUrl: string;
  state: MockState;
  fixtures: MockFixtures;
  faults: MockFaults;
  now: () => number;
  /** Resolves once keys are generated and fixtures seeded. */
  ready: () => Promise<SigningKeys>;
  fetch: () => typeof fetch;
  callbackAttempts: number;
  /** Seconds the previous client secret keeps working after a rotation. */
  clientSecretOverlapSeconds: number;
  callbackDelayMs: number;
  /** JSON body limit in bytes, null when a fault disables it. */
  bodyLimit: number | null;
  /** The endpoint table's rows the simulated service serves, as their handlers are made. */
  endpoints: AnyEndpoint[];
  /** How the simulated player answers a wallet window when nothing is queued (option `walletDecision`). */
  walletDecision: WalletDecision;
  /** Decisions queued by `mock.wallet.nextDecision`, taken one per window, oldest first. */
  walletDecisions: WalletDecision[];
}

/** An absolute URL for a path of the simulated service. */
export function urlOf(ctx: MockContext, path: string): string {
  return `${ctx.baseUrl}${path}`;
}

/**
 * The absolute URL (MSW path, `:name` parameters) of a table row the simulated service serves, noting
 * the row as served (its `/openapi.json` and the 405 answers list the served rows).
 */
export function endpointUrl(ctx: MockContext, row: AnyEndpoint): string {
  if (!ctx.endpoints.includes(row)) ctx.endpoints.push(row);
  return urlOf(ctx, routePath(row.path));
}
