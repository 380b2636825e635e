import { parseArgs } from "node:util";
import { clientIdParamSchema, clientUpdateSchema, deliveryParamSchema, summarizeDetails, validationDetails } from "@slotgate/protocol/schemas";
import type { Database } from "@slotgate/storage";
import { ClientSecrets } from "../../oauth/clients/client-auth.js";
import type { ServerConfig } from "../../platform/config/config.js";
import { type Actor, clientAudit, clientDeliveries, deleteClient, editClient, type ManageDeps, retryDelivery, rotateSecret, setDisabled } from "../manage.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { openResources } from "../../server.js";
import { findClient, toClientApplication } from "../../oauth/clients/clients-store.js";
import { findDevUserByEmail } from "../dev-users-store.js";

/** Usage lines of the client-management verbs. */
export const CLIENT_USAGE = `  client update --client-id ID [--name N] [--redirect-uri U …] [--download-url D] [--web-url W]
                                         change a client (redirect URIs replace the list; exact match)
  client rotate-secret --client-id ID    new client_secret (printed once); the old one works for CLIENT_SECRET_OVERLAP_SECONDS
  client disable|enable --client-id ID   switch a client off (revokes its tokens) or on again
  client delete --client-id ID           delete a client for good (revokes its tokens)
  client audit --client-id ID            the client's audit list as JSON
  client deliveries --client-id ID       recent authorize callbacks and marketplace webhooks as JSON
  client retry-delivery --client-id ID --delivery-id N   retry a pending or failed delivery now
                                         (every client verb: [--owner EMAIL] to insist on the owner)`;

const VERBS = new Set(["update", "rotate-secret", "disable", "enable", "delete", "audit", "deliveries", "retry-delivery"]);

/** A bad argument: the CLI prints it with the usage and exits 2. */
export class ClientUsageError extends Error {}

function checked<T>(parsed: { success: true; data: T } | { success: false; error: Parameters<typeof validationDetails>[0] }): T {
  if (!parsed.success) throw new ClientUsageError(summarizeDetails(validationDetails(parsed.error)));
  return parsed.data;
}

/**
 * Runs `slotgate-server client <verb>` for the management verbs (JSON on stdout); null when `argv` is
 * not one of them. The operator acts for the client's owner (audit actor `cli`); `--owner` makes the
 * command refuse a client of anyone else (404 client_not_found).
 */
export async function runClientCommand(argv: string[], config: ServerConfig, out: (line: string) => void): Promise<number | null> {
  const [noun, verb] = argv;
  if (noun !== "client" || !verb || !VERBS.has(verb)) return null;
  const { values } = parseArgs({
    args: argv.slice(2),
    strict: true,
    options: {
      "client-id": { type: "string" },
      owner: { type: "string" },
      name: { type: "string" },
      "redirect-uri": { type: "string", multiple: true },
      "download-url": { type: "string" },
      "web-url": { type: "string" },
      "delivery-id": { type: "string" },
    },
  });
  const { client_id: clientId } = checked(clientIdParamSchema.safeParse({ client_id: values["client-id"] }));
  const edit =
    verb === "update"
      ? checked(
          clientUpdateSchema.safeParse(
            Object.fromEntries(
              Object.entries({
                name: values.name,
                redirect_uris: values["redirect-uri"],
                download_url: values["download-url"],
                web_url: values["web-url"],
              }).filter(([, v]) => v !== undefined),
            ),
          ),
        )
      : null;
  const deliveryId =
    verb === "retry-delivery" ? checked(deliveryParamSchema.safeParse({ client_id: clientId, delivery_id: values["delivery-id"] })).delivery_id : null;
  const res = await openResources(config);
  try {
    const deps: ManageDeps = { db: res.db, secrets: new ClientSecrets(res.config.clientSecretPepper!), overlapSeconds: config.clientSecretOverlapSeconds };
    const actor = await operatorFor(res.db, clientId, values.owner);
    const answer = await (async (): Promise<Record<string, unknown>> => {
      switch (verb) {
        case "update":
          return { ...toClientApplication(await editClient(deps, actor, clientId, edit!)) };
        case "rotate-secret": {
          const { row, secret } = await rotateSecret(deps, actor, clientId);
          return { ...toClientApplication(row), client_secret: secret };
        }
        case "disable":
        case "enable":
          return { ...toClientApplication(await setDisabled(deps, actor, clientId, verb === "disable")) };
        case "delete":
          await deleteClient(deps, actor, clientId);
          return { client_id: clientId, deleted: true };
        case "audit":
          return { entries: await clientAudit(deps, actor, clientId) };
        case "deliveries":
          return { deliveries: await clientDeliveries(deps, actor, clientId) };
        default:
          return { delivery: await retryDelivery(deps, actor, clientId, deliveryId!) };
      }
    })();
    out(JSON.stringify({ success: true, ...answer }));
    return 0;
  } finally {
    await res.db.close();
  }
}

/** The operator acting for the client's owner; with `--owner`, only for that developer's clients. */
async function operatorFor(db: Database, clientId: string, ownerEmail: string | undefined): Promise<Actor> {
  const client = await findClient(db, clientId);
  if (!client) throw new SlotgateServerError("client_not_found");
  if (ownerEmail !== undefined) {
    const owner = await findDevUserByEmail(db, ownerEmail.trim().toLowerCase());
    if (!owner || owner.id !== client.dev_user_id) throw new SlotgateServerError("client_not_found");
  }
  return { devUserId: client.dev_user_id, label: "cli" };
}
