import type { TestProject } from "vitest/node";
import { startAnvil } from "../src/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The suite's one Anvil node (in memory, any free port): its URL and process id. */
    sharedAnvil: { rpcUrl: string; pid: number };
  }
}

/**
 * Starts the suite's one Anvil node before any test file and stops it after the last. Started here, in
 * vitest's main process, and not in a test worker: a worker is ended without its `exit` event, so a node
 * it started outlived every run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const node = await startAnvil({ port: 0 });
  project.provide("sharedAnvil", { rpcUrl: node.rpcUrl, pid: node.pid });
  return () => node.stop();
}
