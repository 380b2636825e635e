import type { SlotgateBackend } from "../../src/index.js";
import { type RunningServer, fetchServer, nodeServer } from "./http-server.js";

/**
 * The two shapes of the callback route every callback test runs over: the Node adapter (`(req, res)`)
 * and the web-standard handler (`(request) => Response`). `backend()` is read per request, so a test
 * may swap the instance behind a running server.
 */
export const CALLBACK_ROUTES: Record<string, (backend: () => SlotgateBackend) => Promise<RunningServer>> = {
  "node:http (req, res)": (backend) => nodeServer((req, res) => backend().handleCallback(req, res)),
  "WHATWG Request": (backend) => fetchServer((request) => backend().handleCallback(request)),
};
