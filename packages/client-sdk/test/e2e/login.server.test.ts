// @vitest-environment node
import { defineLoginScenarios } from "./scenarios.js";
import { startReferenceServer } from "./support/reference-server.js";

// Chromium against the real reference server (@slotgate/server). Included by vitest.config.ts when the
// server is built, when CI is set, or with SLOTGATE_E2E=1.
defineLoginScenarios("reference server", startReferenceServer);
