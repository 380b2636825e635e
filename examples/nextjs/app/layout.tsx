import type { ReactNode } from "react";
import { settings } from "../lib/settings";
import { Providers } from "./providers";

export const dynamic = "force-dynamic";
export const metadata = { title: "Slotgate × Next.js" };

/**
 * Server component: reads the public settings at request time (one build runs against any service) and hands
 * them to the client provider. The client secret never leaves the server.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  const { slotgateUrl, clientId, browserRedirectUri } = settings();
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "3rem auto", padding: "0 1rem" }}>
        <Providers options={{ slotgateUrl, clientId, redirectUri: browserRedirectUri, autoRenew: true }}>{children}</Providers>
      </body>
    </html>
  );
}
