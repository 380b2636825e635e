"use client";
import type { SlotgateOptions } from "@slotgate/client-sdk";
import { SlotgateProvider } from "@slotgate/react";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";

/** The Slotgate provider; back on /auth/callback after a redirect login, it returns to the home page. */
export function Providers({ options, children }: { options: SlotgateOptions; children: ReactNode }) {
  const router = useRouter();
  return (
    <SlotgateProvider options={options} onRedirectCallback={() => router.replace("/")}>
      {children}
    </SlotgateProvider>
  );
}
