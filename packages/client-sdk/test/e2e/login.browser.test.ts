// @vitest-environment node
import { defineLoginScenarios } from "./scenarios.js";
import { startContractService } from "./support/contract-service.js";

// Chromium against the contract stand-in (test/e2e/support/contract-service.ts): runs wherever Chromium is,
// so the SDK's browser behaviour is proven even before the reference server is built.
defineLoginScenarios("contract stand-in", startContractService);
