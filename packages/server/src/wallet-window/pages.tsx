import { POPUP_RESULT_SCRIPT, type PopupResultPayload, type WalletConfirmationRequest } from "@slotgate/protocol";
import type { VNode } from "preact";
import type { PageScript } from "../developer/page-script.js";
import type { PageBrand } from "../platform/http/page-brand.js";
import type { ConsentRow } from "./approvals.js";
import { JsonData, Page, renderPage } from "../platform/http/page.js";
import type { MessageId, Translator } from "../platform/i18n/translator.js";
import type { WindowConfig } from "./window-config.js";

/** The id of the JSON island the window's script reads (`browser/wallet-window.ts`). */
export const WINDOW_CONFIG_ID = "wallet-config";

const STYLE = ".words{font-family:ui-monospace,monospace;font-size:1.1rem;line-height:1.8} .hidden{display:none} .what{padding:.5rem 0}";

/** The texts the script shows, in the page's language. */
function scriptMessages(tr: Translator): Record<string, string> {
  const ids: MessageId[] = [
    "wallet.noKey",
    "wallet.setup.mismatch",
    "wallet.setup.exists",
    "wallet.recover.codeSent",
    "error.mnemonic_mismatch",
    "error.email_not_verified",
    "error.otp_invalid",
    "error.otp_expired",
    "error.otp_locked",
    "error.pin_invalid",
    "error.pin_locked",
    "error.csrf_failed",
    "error.rate_limited",
    "error.service_unavailable",
  ];
  return Object.fromEntries(ids.map((id) => [id, tr.t(id)]));
}

const strong = (c: Array<string | VNode>) => <strong>{c}</strong>;

/** What the confirmation page reads besides the request, to say what will happen. */
export interface ConfirmFacts {
  /** `token_transfer`: the player's wallet the XOTN leaves. */
  from?: string;
  /** `slot_hand_over`: the slot's balance and used balances, from the chain. */
  balance?: string;
  used?: string;
  /** `slot_hand_over`: the buyer's nickname (the users table); absent when no account has the id. */
  toNickname?: string;
}

/** A player-readable sentence of what a confirmation will do. */
function describe(tr: Translator, app: string, request: WalletConfirmationRequest, facts: ConfirmFacts): string {
  switch (request.kind) {
    case "approve_purchases":
      return tr.t("wallet.kind.approve_purchases", { app, cuid: request.cuid, amount: request.amount });
    case "token_transfer":
      return tr.t("wallet.kind.token_transfer", { amount: request.amount, from: facts.from ?? "", to: request.to_address });
    case "slot_hand_over":
      return tr.t("wallet.kind.slot_hand_over", {
        meta: request.meta_idx,
        cuid: request.cu_id,
        // The nickname beside the id (a nickname is not unique); the id alone when no account has it.
        to: facts.toNickname === undefined ? request.to_uuid : tr.t("wallet.player", { nickname: facts.toNickname, id: request.to_uuid }),
        balance: facts.balance ?? "0",
        used: facts.used ?? "0",
      });
  }
}

/** The PIN form both pages share (the script reads it; nothing is posted by the browser itself). */
function PinForm(props: { tr: Translator; again?: boolean; deny?: boolean; approve: MessageId }): VNode {
  const t = props.tr.t;
  return (
    <form id="pin-form" autocomplete="off">
      <label for="pin">{t("wallet.pin")}</label>
      <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" minlength={4} maxlength={32} required />
      {props.again ? (
        <>
          <label for="pin-again">{t("wallet.pinAgain")}</label>
          <input id="pin-again" name="pin-again" type="password" inputmode="numeric" autocomplete="off" minlength={4} maxlength={32} required />
        </>
      ) : null}
      <p id="error" class="error" role="alert"></p>
      <button id="approve" type="submit" class="primary">
        {t(props.approve)}
      </button>
      {props.deny ? (
        <button id="deny" type="button">
          {t("action.deny")}
        </button>
      ) : null}
    </form>
  );
}

/**
 * The confirmation window: who asks (the client's brand and the verified origin of its redirect URI),
 * what will happen in plain words, the PIN field, approve and deny. Its script seals nothing and shows
 * nothing secret: it reads the key share this origin sealed in IndexedDB, hashes the PIN and posts both
 * to the service only.
 */
export function renderConfirmPage(
  nonce: string,
  tr: Translator,
  view: {
    brand: PageBrand;
    request: WalletConfirmationRequest;
    facts: ConfirmFacts;
    script: PageScript;
    config: Omit<WindowConfig, "messages">;
  },
): string {
  const t = tr.t;
  return renderPage(
    <Page nonce={nonce} tr={tr} title={t("wallet.confirm.title")} brand={view.brand} style={STYLE} scriptSrc={view.script}>
      <JsonData id={WINDOW_CONFIG_ID} value={{ ...view.config, messages: scriptMessages(tr) }} />
      <h1>{t("wallet.confirm.title")}</h1>
      <p>{tr.rich<VNode>("wallet.asks", { app: view.brand.name, strong })}</p>
      <p id="wallet-what" class="what">
        {describe(tr, view.brand.name, view.request, view.facts)}
      </p>
      <p class="muted">
        {t("wallet.expires")} {t("wallet.nothingMoves")}
      </p>
      <PinForm tr={tr} deny approve="action.approve" />
    </Page>,
  );
}

const KEY_TITLES = { "pin-setup": "wallet.setup.title", "pin-reset": "wallet.reset.title", recover: "wallet.recover.title" } as const;
const KEY_INTROS = { "pin-setup": "wallet.setup.intro", "pin-reset": "wallet.reset.intro", recover: "wallet.recover.intro" } as const;

/**
 * A page-started key window: PIN set-up (the PIN twice), reset (the twelve words and the new PIN twice) or
 * recovery (the new PIN twice, then the code mailed to the player). Once the service answered, the script
 * seals the key share in IndexedDB; set-up and recovery show the twelve words from the answer, once (they are
 * in no page and no storage).
 */
export function renderKeyPage(
  nonce: string,
  tr: Translator,
  view: { brand: PageBrand; script: PageScript; config: Omit<WindowConfig, "messages"> & { page: "pin-setup" | "pin-reset" | "recover" } },
): string {
  const t = tr.t;
  const action = view.config.page;
  return renderPage(
    <Page nonce={nonce} tr={tr} title={t(KEY_TITLES[action])} brand={view.brand} style={STYLE} scriptSrc={view.script}>
      <JsonData id={WINDOW_CONFIG_ID} value={{ ...view.config, messages: scriptMessages(tr) }} />
      <section id="setup">
        <h1>{t(KEY_TITLES[action])}</h1>
        <p>{tr.rich<VNode>(KEY_INTROS[action], { app: view.brand.name, strong })}</p>
        {action === "pin-reset" ? (
          <>
            <label for="mnemonic">{t("wallet.words.label")}</label>
            <textarea id="mnemonic" form="pin-form" rows={3} autocomplete="off" spellcheck={false} dir="ltr" required></textarea>
          </>
        ) : null}
        <PinForm tr={tr} again approve="action.continue" />
      </section>
      {action === "recover" ? (
        <section id="code-section" class="hidden">
          <p id="code-sent"></p>
          <form id="code-form" autocomplete="off">
            <label for="code">{t("code.label")}</label>
            <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required />
            <p id="code-error" class="error" role="alert"></p>
            <button id="code-submit" type="submit" class="primary">
              {t("action.continue")}
            </button>
          </form>
        </section>
      ) : null}
      <section id="words-section" class="hidden">
        <h1>{t("wallet.words.title")}</h1>
        <p>{t("wallet.words.intro")}</p>
        <p id="words" class="words" dir="ltr"></p>
        <button id="words-done" type="button" class="primary">
          {t("wallet.words.done")}
        </button>
      </section>
    </Page>,
  );
}

/**
 * The approvals window: the player's purchase consents for the client's cuids (read from the chain), each
 * with a revoke that the PIN signs; "done" ends the window.
 */
export function renderApprovalsPage(
  nonce: string,
  tr: Translator,
  view: { brand: PageBrand; script: PageScript; consents: ConsentRow[]; config: Omit<WindowConfig, "messages"> },
): string {
  const t = tr.t;
  return renderPage(
    <Page nonce={nonce} tr={tr} title={t("wallet.approvals.title")} brand={view.brand} style={STYLE} scriptSrc={view.script}>
      <JsonData id={WINDOW_CONFIG_ID} value={{ ...view.config, messages: scriptMessages(tr) }} />
      <h1>{t("wallet.approvals.title")}</h1>
      <p>{tr.rich<VNode>("wallet.approvals.intro", { app: view.brand.name, strong })}</p>
      {view.consents.length === 0 ? (
        <p id="no-approvals">{t("wallet.approvals.none")}</p>
      ) : (
        <table id="approvals">
          <thead>
            <tr>
              <th>{t("wallet.approvals.cuid")}</th>
              <th>{t("wallet.approvals.amount")}</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {view.consents.map((row) => (
              <tr data-cuid={row.cuid}>
                <td dir="ltr">{row.cuid}</td>
                <td dir="ltr" class="amount">
                  {row.amount}
                </td>
                <td>
                  {row.amount === "0" ? null : (
                    <button type="button" class="revoke" data-cuid={row.cuid}>
                      {t("wallet.approvals.revoke")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form id="pin-form" autocomplete="off">
        <label for="pin">{t("wallet.pin")}</label>
        <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" minlength={4} maxlength={32} />
        <p id="error" class="error" role="alert"></p>
      </form>
      <button id="approvals-done" type="button" class="primary">
        {t("wallet.approvals.done")}
      </button>
    </Page>,
  );
}

/** Why the window shows no confirmation: no sign-in of this client, another player signed in, closed. */
export type WindowNotice = "noSession" | "otherUser" | "closed";

/**
 * A window that shows no confirmation, and says why; a missing sign-in offers the client's sign-in
 * (its authorize page, in this window).
 */
export function renderWindowNotice(nonce: string, tr: Translator, view: { brand: PageBrand; notice: WindowNotice; signInUrl?: string }): string {
  const t = tr.t;
  const app = view.brand.name;
  return renderPage(
    <Page nonce={nonce} tr={tr} title={t(`wallet.${view.notice}.title`)} brand={view.brand} style={STYLE}>
      <h1>{t(`wallet.${view.notice}.title`)}</h1>
      <p id="wallet-notice" data-notice={view.notice}>
        {t(`wallet.${view.notice}`, { app })}
      </p>
      {view.notice === "noSession" && view.signInUrl ? (
        <p>
          <a id="wallet-sign-in" href={view.signInUrl}>
            {t("wallet.noSession.signIn", { app })}
          </a>
        </p>
      ) : null}
    </Page>,
  );
}

/**
 * The window's last page: `#slotgate-result` holds the `wallet_result` payload (`walletResultPayload`)
 * and the login popup's own `POPUP_RESULT_SCRIPT` posts it to the opener at the registered origin only,
 * on the `slotgate_wallet` BroadcastChannel, or hands it to the redirect URI's fragment without an opener.
 */
export function renderWalletResult(nonce: string, tr: Translator, payload: PopupResultPayload, approved: boolean): string {
  return renderPage(
    <Page nonce={nonce} tr={tr} title={tr.t("wallet.done.title")} viewport={false} script={POPUP_RESULT_SCRIPT}>
      <p id="slotgate-status">{tr.t(approved ? "wallet.done" : "wallet.denied")}</p>
      <JsonData id="slotgate-result" value={payload} />
    </Page>,
  );
}
