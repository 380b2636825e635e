import { readMailbox, waitForMailedCode } from "@slotgate/server/testing";

/** A cookie the service set: name and value. */
export interface ServiceCookie {
  name: string;
  value: string;
}

function collect(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/**
 * Signs an existing player in at `client_id`'s authorize page in popup mode (as the login popup does) and answers
 * the cookies the service set on the way, so a test browser carries the service's browser session of that client,
 * the one the wallet window reads (the loopback mode sets none). The mailbox step is answered from the development
 * mailbox when the service asks for it. `redirect_uri` is a registered web (not loopback) redirect URI of the client.
 *
 * @example
 * ```ts
 * const cookies = await serviceSignIn(service.url, service.dataDir, { client_id, redirect_uri, email, password });
 * await context.addCookies(cookies.map((c) => ({ ...c, url: service.url })));
 * ```
 */
export async function serviceSignIn(
  baseUrl: string,
  dataDir: string,
  options: { client_id: string; redirect_uri: string; email: string; password: string },
): Promise<ServiceCookie[]> {
  const params = {
    client_id: options.client_id,
    redirect_uri: options.redirect_uri,
    response_type: "code",
    display: "popup",
    state: `sign-in-${Date.now()}`,
  };
  const jar = new Map<string, string>();
  const page = await fetch(`${baseUrl}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { accept: "text/html" } });
  collect(jar, page);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !csrf) throw new Error(`the authorize page answered ${page.status} without a form`);
  const post = async (fields: Record<string, string>) => {
    const res = await fetch(`${baseUrl}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; "),
      },
      body: new URLSearchParams({ ...params, csrf_token: csrf, decision: "approve", ...fields }),
    });
    collect(jar, res);
    return res;
  };
  const before = readMailbox(dataDir, { to: options.email, limit: 1 })[0]?.id;
  const res = await post({ email: options.email, password: options.password });
  const challenge = /name="challenge" value="([^"]+)"/.exec(await res.text())?.[1];
  if (challenge) await post({ challenge, otp: await waitForMailedCode(dataDir, options.email, before === undefined ? {} : { after: before }) });
  const cookies = [...jar].filter(([, v]) => v !== "").map(([name, value]) => ({ name, value }));
  if (!cookies.some((c) => c.name.startsWith("slotgate_session_"))) throw new Error(`sign-in at ${options.client_id} set no browser session`);
  return cookies;
}
