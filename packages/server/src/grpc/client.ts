import type { ChainHandle } from "../chain/start-chain.js";

/** Connects to a `slotgate-server chain-service` process over gRPC. */
export async function connectRemoteChain(_url: string): Promise<ChainHandle> {
  throw new Error("CHAIN_SERVICE_URL: the gRPC client is not built yet");
}
