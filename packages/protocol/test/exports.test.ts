import { describe, expect, it } from "vitest";
import * as crypto from "../src/crypto.js";
import * as endpoints from "../src/endpoints.js";
import * as root from "../src/index.js";
import * as schemas from "../src/schemas.js";

describe("public surface", () => {
  it("root entry exports exactly these runtime names", () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "BRAND",
        "CodedError",
        "ERRORS",
        "ERROR_CODES",
        "GRANT_TYPES",
        "LIMITS",
        "PATHS",
        "POPUP_RESULT_SCRIPT",
        "SILENT_RESULT_SCRIPT",
        "isErrorCode",
        "isLoopbackIpRedirectUri",
        "isPendingWrite",
        "loopbackJwtRedirect",
        "popupResultPayload",
        "redirectUriAllowed",
        "walletResultPayload",
      ]
    `);
  });

  it("crypto entry exports exactly these runtime names", () => {
    expect(Object.keys(crypto).sort()).toEqual(["EncodingError", "decryptHex", "encryptHex"]);
  });

  it("schemas entry exposes a schema for every request body the server validates", () => {
    const names = Object.keys(schemas).filter((n) => n.endsWith("Schema"));
    for (const expected of [
      "devUserCredentialsSchema",
      "clientRegistrationSchema",
      "authorizeQuerySchema",
      "tokenRequestSchema",
      "statusUpdateSchema",
      "statusCheckQuerySchema",
      "metaAuthorizeQuerySchema",
      "metaGetTokenSchema",
      "tokenTransferSchema",
      "initPermissionProviderSchema",
      "userBuyContentTokenSchema",
      "increaseUsedContentTokenSchema",
      "spendPayloadSchema",
      "releaseUsedBalanceSchema",
      "testEncryptionSchema",
      "exchangeTokenOwnerSchema",
      "pinRegisterSchema",
      "pinVerifySchema",
      "pinResetSchema",
      "pinRecoverSchema",
      "pinRecoverCodeSchema",
      "pinRecoverWithCodeSchema",
      "slotOpenSchema",
      "slotActivateSchema",
      "slotListQuerySchema",
      "slotParamsSchema",
    ]) {
      expect(names).toContain(expected);
    }
  });

  it("endpoints entry exports exactly these runtime names", () => {
    expect(Object.keys(endpoints).sort()).toEqual([
      "ENDPOINTS",
      "EXAMPLE",
      "apiPath",
      "buildOpenApi",
      "defineEndpoint",
      "endpointTable",
      "fillPath",
      "placeInput",
      "routePath",
      "splitInput",
    ]);
  });
});
