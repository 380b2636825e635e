// What one redirect to the loopback /callback means for the login: the rules and messages of
// @slotgate/game-sdk-bridge's loopback/callback.ts (state first, in constant time; then error; then one code,
// or from a confidential client's redirect one jwt).
using System;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;

namespace Slotgate
{
    /// <summary>
    /// The outcome of the first decisive redirect: a code still to redeem with the PKCE verifier (a public client),
    /// the JWT, or the failure to report.
    /// </summary>
    internal sealed class CallbackOutcome
    {
        internal string Code;
        internal string Jwt;
        internal SlotgateLoginException Error;
    }

    internal static class LoopbackCallback
    {
        const int MaxJwtLength = 16384;
        static readonly Regex JwtShape = new Regex("^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\z");
        /// <summary>An authorization code as Slotgate issues it (base64url), with room for any unreserved characters.</summary>
        static readonly Regex CodeShape = new Regex("^[A-Za-z0-9._~-]{1,512}\\z");
        static readonly Regex ControlCharacters = new Regex("[\u0000-\u001f\u007f-\u009f]");

        /// <summary>Whether a value looks like a compact JWT (three base64url segments, at most 16 KiB); the game backend verifies it.</summary>
        internal static bool IsJwtShaped(string value)
        {
            return value != null && value.Length <= MaxJwtLength && JwtShape.IsMatch(value);
        }

        /// <summary>Decodes an application/x-www-form-urlencoded query into name -> values, in order.</summary>
        internal static Dictionary<string, List<string>> ParseQuery(string query)
        {
            var result = new Dictionary<string, List<string>>(StringComparer.Ordinal);
            if (string.IsNullOrEmpty(query)) return result;
            foreach (var pair in query.Split('&'))
            {
                if (pair.Length == 0) continue;
                int eq = pair.IndexOf('=');
                string name = Decode(eq < 0 ? pair : pair.Substring(0, eq));
                string value = eq < 0 ? "" : Decode(pair.Substring(eq + 1));
                List<string> values;
                if (!result.TryGetValue(name, out values)) result[name] = values = new List<string>();
                values.Add(value);
            }
            return result;
        }

        static string Decode(string text)
        {
            return Uri.UnescapeDataString(text.Replace('+', ' '));
        }

        static List<string> All(Dictionary<string, List<string>> query, string name)
        {
            List<string> values;
            return query.TryGetValue(name, out values) ? values : new List<string>();
        }

        static string First(Dictionary<string, List<string>> query, string name)
        {
            var values = All(query, name);
            return values.Count > 0 ? values[0] : null;
        }

        /// <summary>Compares in time independent of where the strings differ.</summary>
        static bool SameState(string received, string expected)
        {
            var a = Encoding.UTF8.GetBytes(received);
            var b = Encoding.UTF8.GetBytes(expected);
            if (a.Length != b.Length) return false;
            int diff = 0;
            for (int i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }

        /// <summary>Keeps server-provided text printable and short before it reaches a page or a message.</summary>
        static string Clean(string text, int max)
        {
            if (text == null) return "";
            var printable = ControlCharacters.Replace(text, " ").Trim();
            return printable.Length > max ? printable.Substring(0, max) + "..." : printable;
        }

        static CallbackOutcome Fail(SlotgateLoginError error, string message)
        {
            return new CallbackOutcome { Error = new SlotgateLoginException(error, message) };
        }

        /// <summary>Interprets the query of a redirect to /callback against the state this login sent.</summary>
        internal static CallbackOutcome Interpret(string rawQuery, string expectedState)
        {
            var query = ParseQuery(rawQuery);
            var states = All(query, "state");
            if (states.Count != 1 || !SameState(states[0], expectedState))
                return Fail(SlotgateLoginError.StateMismatch,
                    "The sign-in response does not belong to this login attempt (missing or wrong state), so it was refused to " +
                    "prevent cross-site request forgery. Start the login again.");
            var error = First(query, "error");
            if (error != null)
            {
                var code = Clean(error, 64);
                if (code.Length == 0) code = "unknown_error";
                var description = Clean(First(query, "error_description"), 300);
                var detail = description.Length == 0 ? code : code + ": " + description;
                if (code == "access_denied") return Fail(SlotgateLoginError.AccessDenied, "Sign-in was declined (" + detail + ").");
                return Fail(SlotgateLoginError.AuthorizationError, "Slotgate reported an error during sign-in (" + detail + ").");
            }
            var codes = All(query, "code");
            var jwts = All(query, "jwt");
            if (codes.Count > 0 && jwts.Count > 0)
                return Fail(SlotgateLoginError.MissingJwt, "The sign-in response carried both a code and a jwt; it was refused.");
            if (codes.Count > 0)
            {
                if (codes.Count > 1 || !CodeShape.IsMatch(codes[0]))
                    return Fail(SlotgateLoginError.MissingJwt, "The sign-in response did not carry exactly one well-formed code.");
                return new CallbackOutcome { Code = codes[0] };
            }
            if (jwts.Count == 0 || jwts[0].Length == 0)
                return Fail(SlotgateLoginError.MissingJwt, "The sign-in response carried neither a code nor a jwt.");
            if (jwts.Count > 1 || !IsJwtShaped(jwts[0]))
                return Fail(SlotgateLoginError.MissingJwt, "The sign-in response did not carry exactly one well-formed jwt.");
            return new CallbackOutcome { Jwt = jwts[0] };
        }
    }
}
