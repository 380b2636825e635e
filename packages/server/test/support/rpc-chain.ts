import { randomBytes } from "node:crypto";
import { developmentKey } from "@slotgate/chain-service";
import { type DeployResult, deploy } from "@slotgate/contracts";
import { JsonRpcProvider, Wallet } from "ethers";

/** The platform's keys on a node the server reaches by `RPC_URL` (not the node's prefunded accounts). */
export const PLATFORM_KEYS = {
  operator: developmentKey(10),
  paymasterSigner: developmentKey(11),
  bundler: developmentKey(12),
  spendRecorder: developmentKey(13),
};

/**
 * Deploys the contracts on an Anvil node as an operator does (its own keys, funded with `anvil_setBalance`) and
 * returns the deployment and the server environment of the `RPC_URL` configuration that uses it.
 */
export async function deployOnNode(rpcUrl: string): Promise<{ deployed: DeployResult; env: Record<string, string> }> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1 });
  try {
    for (const key of Object.values(PLATFORM_KEYS)) await provider.send("anvil_setBalance", [new Wallet(key).address, "0x3635C9ADC5DEA00000"]);
    const deployed = await deploy(new Wallet(PLATFORM_KEYS.operator, provider), {
      paymasterSigner: new Wallet(PLATFORM_KEYS.paymasterSigner).address,
      spendRecorder: new Wallet(PLATFORM_KEYS.spendRecorder).address,
      paymasterDeposit: 10n ** 19n,
    });
    const env = {
      RPC_URL: rpcUrl,
      CHAIN_KEK: randomBytes(32).toString("hex"),
      CHAIN_RECOVERY_KEY: randomBytes(32).toString("hex"),
      XOTN_ADDRESS: deployed.xotn,
      EXCHANGE_ADDRESS: deployed.exchange,
      ENTRYPOINT_ADDRESS: deployed.entryPoint,
      FACTORY_ADDRESS: deployed.factory,
      PAYMASTER_ADDRESS: deployed.paymaster,
      OPERATOR_KEY: PLATFORM_KEYS.operator,
      SPEND_RECORDER_KEY: PLATFORM_KEYS.spendRecorder,
      PAYMASTER_SIGNER_KEY: PLATFORM_KEYS.paymasterSigner,
      BUNDLER_KEY: PLATFORM_KEYS.bundler,
    };
    return { deployed, env };
  } finally {
    provider.destroy();
  }
}
