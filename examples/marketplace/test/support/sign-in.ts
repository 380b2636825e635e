import { readMailbox, waitForMailedCode } from "@slotgate/server/testing";

/**
 * Signs an existing player in through the authorize form (loopback mode, as a native game or a test does) and answers
 * the user JWT the service redirects with; when the service asks for the mailbox step, reads the code from the
 * development mailbox in `dataDir`. The counterpart of `signUpPlayer` for an account that exists.
 *
 * @example
 * ```ts
 * const jwt = await signInPlayer(service.url, service.dataDir, { client_id, redirect_uri: loopback, email, password });
 * ```
 */
export async function signInPlayer(baseUrl: string, dataDir: string, options: { client_id: string; redirect_uri: string; email: string; password: string }): Promise<string> {
  const params = { client_id: options.client_id, redirect_uri: options.redirect_uri, response_type: "code", state: `sign-in-${Date.now()}` };
  const page = await fetch(`${baseUrl}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept: "text/html" } });
  const cookie = page.headers.get("set-cookie")?.split(";")[0];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !cookie || !csrf) throw new Error(`the authorize page answered ${page.status} without a form`);
  const post = (fields: Record<string, string>) =>
    fetch(`${baseUrl}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie },
      body: new URLSearchParams({ ...params, csrf_token: csrf, decision: "approve", ...fields }),
    });
  const before = readMailbox(dataDir, { to: options.email, limit: 1 })[0]?.id;
  let res = await post({ email: options.email, password: options.password });
  if (res.status === 200) {
    const challenge = /name="challenge" value="([^"]+)"/.exec(await res.text())?.[1];
    if (!challenge) throw new Error("sign-in answered 200 without the mailbox step");
    res = await post({ challenge, otp: await waitForMailedCode(dataDir, options.email, before === undefined ? {} : { after: before }) });
  }
  const jwt = res.status === 302 ? new URL(res.headers.get("location") ?? "").searchParams.get("jwt") : null;
  if (!jwt) throw new Error(`sign-in answered ${res.status} without a JWT`);
  return jwt;
}
