import { join } from "node:path";
import { type DevMail, readDevMailbox } from "../identity/mail/dev-mailbox.js";

export type { DevMail } from "../identity/mail/dev-mailbox.js";

/**
 * The messages of a server's development mailbox (`{dataDir}/mailbox`, used when `SMTP_URL` is unset),
 * oldest first; only those to `to` when given.
 *
 * @example
 * ```ts
 * const [last] = readMailbox(server.dataDir, { to: "player@example.com" }).slice(-1);
 * ```
 */
export function readMailbox(dataDir: string, options: { to?: string; limit?: number } = {}): DevMail[] {
  return readDevMailbox(join(dataDir, "mailbox"), options);
}

/**
 * Waits for a mail to `to` newer than `after` (a mail id) in the development mailbox and returns the
 * one-time code in it.
 *
 * @example
 * ```ts
 * const code = await waitForMailedCode(server.dataDir, "player@example.com");
 * ```
 */
export async function waitForMailedCode(dataDir: string, to: string, options: { after?: string; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const last = readMailbox(dataDir, { to, limit: 1 })[0];
    if (last && (options.after === undefined || last.id > options.after)) {
      const code = /\b([0-9]{6})\b/.exec(last.text)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no mail with a code to ${to} in ${join(dataDir, "mailbox")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What {@link signUpPlayer} submits. */
export interface SignUpPlayerOptions {
  client_id: string;
  redirect_uri: string;
  state: string;
  email: string;
  password: string;
  /** `popup` for the popup mode; its answer is the result page (status 200). */
  display?: "page" | "popup";
  /** More authorize parameters to carry, e.g. `code_challenge` and `code_challenge_method`. */
  extra?: Record<string, string>;
}

/** Opens the authorize form for `params` and answers a function that submits it (cookie and CSRF token kept). */
async function authorizeForm(baseUrl: string, params: Record<string, string>): Promise<(fields: Record<string, string>) => Promise<Response>> {
  const page = await fetch(`${baseUrl}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept: "text/html" } });
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !cookie || !csrf) throw new Error(`the authorize page answered ${page.status} without a form`);
  return (fields) =>
    fetch(`${baseUrl}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie },
      body: new URLSearchParams({ ...params, csrf_token: csrf, decision: "approve", ...fields }),
    });
}

/** The id of the newest mail to `email` in the development mailbox (a code mailed after it is the new one). */
const lastMailTo = (dataDir: string, email: string) => readMailbox(dataDir, { to: email, limit: 1 })[0]?.id;

/**
 * Signs a player up through the authorize form as a person would, mailbox step included: opens
 * the form, submits email and password with `intent=signup`, reads the emailed code from the
 * development mailbox in `dataDir`, and submits it. Resolves with the final response (page and
 * loopback modes: the 302 to the redirect URI; popup mode: the result page).
 *
 * @example
 * ```ts
 * const res = await signUpPlayer(server.url, server.dataDir, { client_id, redirect_uri, state: "s1", email, password });
 * new URL(res.headers.get("location")!).searchParams.get("code");
 * ```
 */
export async function signUpPlayer(baseUrl: string, dataDir: string, options: SignUpPlayerOptions): Promise<Response> {
  const params: Record<string, string> = { client_id: options.client_id, redirect_uri: options.redirect_uri, response_type: "code", state: options.state };
  if (options.display) params["display"] = options.display;
  Object.assign(params, options.extra);
  const post = await authorizeForm(baseUrl, params);
  const before = lastMailTo(dataDir, options.email);
  const step = await post({ email: options.email, password: options.password, intent: "signup" });
  const html = await step.text();
  const challenge = /name="challenge" value="([^"]+)"/.exec(html)?.[1];
  if (!challenge) throw new Error(`sign-up answered ${step.status} without the mailbox step: ${/id="slotgate-error"[^>]*>([^<]*)/.exec(html)?.[1] ?? ""}`);
  const code = await waitForMailedCode(dataDir, options.email, before === undefined ? {} : { after: before });
  return post({ challenge, otp: code });
}

/**
 * Signs an existing player in through the authorize form and answers the user JWT the service hands over: from
 * the loopback redirect (`jwt`) of a client registered with `platform` `desktop` or `game` on its
 * `http://127.0.0.1:{port}/callback` (as a native game does), or, with `display: "popup"`, from the popup result
 * page (as the client SDK's popup does; any confidential client, a web client's included). A web client's
 * loopback-shaped URI without `display: "popup"` ends in a code, not a JWT, and is refused here. When the service
 * asks for the mailbox step, reads the code from the development mailbox in `dataDir`. The counterpart of
 * {@link signUpPlayer} for an account that exists.
 *
 * @example
 * ```ts
 * const jwt = await signInPlayer(server.url, server.dataDir, { client_id, redirect_uri: "http://127.0.0.1:7777/callback", email, password });
 * const webJwt = await signInPlayer(server.url, server.dataDir, { client_id: web, redirect_uri: "https://app.example/cb", display: "popup", email, password });
 * ```
 */
export async function signInPlayer(
  baseUrl: string,
  dataDir: string,
  options: { client_id: string; redirect_uri: string; email: string; password: string; display?: "page" | "popup" },
): Promise<string> {
  const post = await authorizeForm(baseUrl, {
    client_id: options.client_id,
    redirect_uri: options.redirect_uri,
    response_type: "code",
    state: `sign-in-${Date.now()}`,
    ...(options.display ? { display: options.display } : {}),
  });
  const before = lastMailTo(dataDir, options.email);
  let res = await post({ email: options.email, password: options.password });
  let html = res.status === 200 ? await res.text() : "";
  const challenge = /name="challenge" value="([^"]+)"/.exec(html)?.[1];
  if (challenge) {
    res = await post({ challenge, otp: await waitForMailedCode(dataDir, options.email, before === undefined ? {} : { after: before }) });
    html = res.status === 200 ? await res.text() : "";
  }
  const jwt = res.status === 302 ? new URL(res.headers.get("location") ?? "").searchParams.get("jwt") : popupJwt(html);
  if (!jwt) throw new Error(`sign-in answered ${res.status} without a JWT`);
  return jwt;
}

/** The user JWT of a popup result page (`script#slotgate-result`, its first message on success), or null. */
function popupJwt(html: string): string | null {
  const json = /<script type="application\/json" id="slotgate-result">([^<]+)<\/script>/.exec(html)?.[1];
  if (!json) return null;
  const first = (JSON.parse(json) as { messages?: Array<{ type?: string; data?: string }> }).messages?.[0];
  return first?.type === "success" && first.data ? first.data : null;
}
