// The loopback login (RFC 8252, spec 4.14) in C#: listen on 127.0.0.1 (on a port the system picks when the
// redirect URI names none), open the system browser at {SlotgateUrl}/oauth/authorize with a fresh state and
// PKCE S256 challenge (RFC 7636), wait for /callback?code=..&state=.., check the state, redeem the code with the
// verifier. The flow of @slotgate/game-sdk-bridge's login.ts, without a helper process.
using System;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    internal static class LoopbackLogin
    {
        /// <summary>A fresh CSRF state: 32 bytes from the operating system's CSPRNG, base64url (43 characters).</summary>
        internal static string CreateState()
        {
            var bytes = new byte[32];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(bytes);
            return Base64Url(bytes);
        }

        internal static string Base64Url(byte[] bytes)
        {
            return Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');
        }

        /// <summary>
        /// A fresh PKCE pair (RFC 7636): the verifier is 32 CSPRNG bytes, base64url (43 unreserved characters); the
        /// challenge is BASE64URL(SHA-256(verifier)), sent with code_challenge_method=S256.
        /// </summary>
        internal static void CreatePkce(out string verifier, out string challenge)
        {
            verifier = CreateState();
            using (var sha256 = SHA256.Create()) challenge = Base64Url(sha256.ComputeHash(Encoding.ASCII.GetBytes(verifier)));
        }

        /// <summary>
        /// {SlotgateUrl}/oauth/authorize?client_id&amp;redirect_uri&amp;response_type=code&amp;state&amp;code_challenge&amp;code_challenge_method=S256
        /// (spec 4.2, RFC 7636).
        /// </summary>
        internal static string AuthorizeUrl(Uri slotgateUrl, string clientId, string redirectUri, string state, string codeChallenge)
        {
            return new Uri(slotgateUrl, "oauth/authorize").AbsoluteUri +
                "?client_id=" + Uri.EscapeDataString(clientId) +
                "&redirect_uri=" + Uri.EscapeDataString(redirectUri) +
                "&response_type=code" +
                "&state=" + Uri.EscapeDataString(state) +
                "&code_challenge=" + codeChallenge +
                "&code_challenge_method=S256";
        }

        /// <summary>Runs the login and returns the JWT; every failure is a <see cref="SlotgateLoginException"/>.</summary>
        /// <remarks>The browser is opened synchronously, on the caller's thread (Unity's main thread for Application.OpenURL).</remarks>
        internal static async Task<string> Run(SlotgateLoginConfig config, CancellationToken cancellation, Action<string> openBrowser)
        {
            var resolved = ConfigReader.Resolve(config);
            if (cancellation.IsCancellationRequested) throw Cancelled();
            var state = CreateState();
            string verifier, challenge;
            CreatePkce(out verifier, out challenge);
            string redirectUri = null;
            // Ends a code redemption still in flight when the login ends first (timeout, cancel).
            using (var ended = new CancellationTokenSource())
            {
                var endedToken = ended.Token;
                using (var listener = LoopbackListener.Start(resolved.Port, state,
                    code => CodeExchange.Redeem(resolved.SlotgateUrl, resolved.ClientId, code, redirectUri, verifier, endedToken)))
                {
                    redirectUri = "http://" + ConfigReader.LoopbackHost + ":" + listener.Port + ConfigReader.CallbackPath;
                    var url = AuthorizeUrl(resolved.SlotgateUrl, resolved.ClientId, redirectUri, state, challenge);
                    try
                    {
                        (openBrowser ?? SystemBrowser.Open)(url);
                    }
                    catch (Exception)
                    {
                        // The opener's own message is not repeated: it may quote the URL, which carries the state.
                        throw new SlotgateLoginException(SlotgateLoginError.BrowserOpenFailed, "The browser could not be opened for sign-in.");
                    }
                    Task first;
                    using (var stopTimer = CancellationTokenSource.CreateLinkedTokenSource(cancellation))
                    {
                        first = await Task.WhenAny(listener.Outcome, Task.Delay(resolved.TimeoutMs, stopTimer.Token)).ConfigureAwait(false);
                        stopTimer.Cancel();
                    }
                    if (first != listener.Outcome)
                    {
                        ended.Cancel();
                        if (cancellation.IsCancellationRequested) throw Cancelled();
                        throw new SlotgateLoginException(SlotgateLoginError.Timeout,
                            "No sign-in arrived within " + (resolved.TimeoutMs / 1000.0).ToString(CultureInfo.InvariantCulture) + " s. Start the login again.");
                    }
                    var outcome = listener.Outcome.Result;
                    if (outcome.Error != null) throw outcome.Error;
                    return outcome.Jwt;
                }
            }
        }

        internal static SlotgateLoginException Cancelled()
        {
            return new SlotgateLoginException(SlotgateLoginError.Cancelled, "The login was cancelled.");
        }
    }
}
