import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("exposes exactly the documented public surface", () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "C_SALT",
      "ContractsError",
      "DEFAULT_SPONSORSHIP_SECONDS",
      "W_SALT",
      "buildUserOperation",
      "computeAccountImplementationAddress",
      "computeWalletAddress",
      "computeWalletAddresses",
      "connectAccount",
      "connectContracts",
      "contentTokenExchangeAbi",
      "contentTokenExchangeBytecode",
      "decodeContractError",
      "deploy",
      "encodeExecute",
      "encodeExecuteBatch",
      "encodeInitCode",
      "encodePaymasterAndData",
      "entryPointAbi",
      "entryPointBytecode",
      "erc1967ProxyAbi",
      "erc1967ProxyBytecode",
      "getUserOpHash",
      "handleOpsGasLimit",
      "prepareSponsoredUserOperation",
      "sendSponsoredUserOperation",
      "signUserOperation",
      "slotgateAccountAbi",
      "slotgateAccountBytecode",
      "slotgateAccountFactoryAbi",
      "slotgateAccountFactoryBytecode",
      "slotgatePaymasterAbi",
      "slotgatePaymasterBytecode",
      "sponsorUserOperation",
      "sponsorshipWindow",
      "submitUserOperations",
      "userOperationToRpc",
      "xotnAbi",
      "xotnBytecode",
    ]
  `);
});
