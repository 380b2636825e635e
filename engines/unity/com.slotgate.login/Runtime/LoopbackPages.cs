// The pages the loopback listener shows the player: byte for byte those of @slotgate/game-sdk-bridge's
// loopback/pages.ts (same HTML, same headers, same hash-pinned CSP).
using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;

namespace Slotgate
{
    internal static class LoopbackPages
    {
        /// <summary>Removes ?jwt=...&amp;state=... from the address bar and the history entry.</summary>
        const string ScrubScript = "history.replaceState(null, \"\", \"/callback\");";
        const string Style =
            "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1b1b1f}" +
            "h1{font-size:1.5rem}.ok{color:#0a7a3d}.fail{color:#b3261e}";

        static string Sha256(string text)
        {
            using (var sha = SHA256.Create())
            {
                return "'sha256-" + Convert.ToBase64String(sha.ComputeHash(Encoding.UTF8.GetBytes(text))) + "'";
            }
        }

        /// <summary>Headers of every page: nothing cached, nothing loaded, no referrer.</summary>
        internal static readonly KeyValuePair<string, string>[] Headers =
        {
            new KeyValuePair<string, string>("Content-Type", "text/html; charset=utf-8"),
            new KeyValuePair<string, string>("Cache-Control", "no-store"),
            new KeyValuePair<string, string>("Referrer-Policy", "no-referrer"),
            new KeyValuePair<string, string>("X-Content-Type-Options", "nosniff"),
            new KeyValuePair<string, string>("X-Frame-Options", "DENY"),
            new KeyValuePair<string, string>("Content-Security-Policy",
                "default-src 'none'; script-src " + Sha256(ScrubScript) + "; style-src " + Sha256(Style) + "; " +
                "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
            new KeyValuePair<string, string>("Connection", "close"),
        };

        static string EscapeHtml(string text)
        {
            var escaped = new StringBuilder(text.Length);
            foreach (var c in text)
            {
                if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') escaped.Append("&#").Append((int)c).Append(';');
                else escaped.Append(c);
            }
            return escaped.ToString();
        }

        static string Page(string title, string cls, string body)
        {
            return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">" +
                "<title>" + EscapeHtml(title) + "</title><style>" + Style + "</style><script>" + ScrubScript + "</script></head>" +
                "<body><h1 class=\"" + cls + "\">" + EscapeHtml(title) + "</h1>" + body + "</body></html>";
        }

        /// <summary>Shown to the player after a successful sign-in.</summary>
        internal static string Success()
        {
            return Page("Signed in to Slotgate", "ok", "<p>You are signed in. You can close this tab and return to the game.</p>");
        }

        /// <summary>Shown when the sign-in failed; the message is escaped.</summary>
        internal static string Failure(string message)
        {
            return Page("Sign-in failed", "fail", "<p>" + EscapeHtml(message) + "</p><p>Return to the game and try again.</p>");
        }

        /// <summary>For any request that is not the sign-in redirect.</summary>
        internal static string NotFound()
        {
            return Page("Not found", "fail", "<p>This address only receives the Slotgate sign-in redirect.</p>");
        }
    }
}
