import { authorizeChecks } from "./authorize.js";
import { badInputChecks } from "./bad-input.js";
import type { CheckGroup } from "./check.js";
import { devCenterChecks } from "./dev-center.js";
import { deviceChecks } from "./device.js";
import { endpointTableChecks } from "./endpoint-table.js";
import { oauthMetaChecks } from "./oauth-meta.js";
import { publicClientChecks } from "./public-clients.js";
import { refreshChecks } from "./refresh.js";
import { statusChecks } from "./status.js";
import { tokenChecks } from "./token.js";
import { validateRevokeChecks } from "./validate-revoke.js";

/** Every always-on check group, by feature, in the order the suite runs them. */
export const CHECK_GROUPS: Readonly<Record<string, CheckGroup>> = {
  "developer center": devCenterChecks,
  authorize: authorizeChecks,
  token: tokenChecks,
  "public clients and silent renewal": publicClientChecks,
  "refresh tokens": refreshChecks,
  "device grant": deviceChecks,
  "validate / revoke": validateRevokeChecks,
  status: statusChecks,
  "oauth-meta (backend SDK flow)": oauthMetaChecks,
  "bad input": badInputChecks,
  "endpoint table": endpointTableChecks,
};
