// Slotgate login for Unity standalone and editor builds, natively in C# (no helper process):
// the loopback login (RFC 8252) and the device login (RFC 8628). WebGL builds use SlotgateWebGL.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    /// <summary>
    /// Signs a player in to Slotgate (spec 4.14). Both methods never throw: every failure is a
    /// <see cref="SlotgateLoginResult"/> with <c>Success</c> false, an <c>ErrorMessage</c> and a stable <c>ErrorCode</c>,
    /// the codes of the <c>slotgate-login</c> CLI. No client secret is accepted: the JWT goes to your game backend.
    /// </summary>
    public static class SlotgateLogin
    {
        /// <summary>Platform address used when no SlotgateUrl is given.</summary>
        public const string DefaultSlotgateUrl = "https://auth.slotgate.io";

        /// <summary>
        /// Opens the system browser at Slotgate's sign-in page with a fresh 256-bit <c>state</c> and a PKCE S256 challenge,
        /// and waits for the loopback redirect <c>http://127.0.0.1:&lt;port&gt;/callback?code=..&amp;state=..</c> (on a port the
        /// system picks when RedirectUri names none). Listens on 127.0.0.1 only, checks the state, redeems the code at
        /// /oauth/token with the verifier (a public client: no secret), shows the player a success or failure page, and
        /// closes the listener on every path. A confidential client's redirect (<c>?jwt=..&amp;state=..</c>) is accepted as
        /// before. Call it from the main thread: the browser is opened before the first await.
        /// </summary>
        /// <param name="config">ClientId, RedirectUri, optional SlotgateUrl, LoopbackPort, TimeoutMs.</param>
        /// <param name="cancellationToken">Cancelling ends the login with <c>cancelled</c>.</param>
        /// <param name="openBrowser">Shows the URL to the player; default Application.OpenURL in Unity.</param>
        /// <example><code>
        /// var result = await SlotgateLogin.LoginAsync(new SlotgateLoginConfig {
        ///     ClientId = "my-game", RedirectUri = "http://127.0.0.1/callback" });
        /// if (result.Success) await SendToGameBackend(result.Jwt);
        /// else Debug.LogWarning(result.ErrorCode + ": " + result.ErrorMessage);
        /// </code></example>
        public static async Task<SlotgateLoginResult> LoginAsync(SlotgateLoginConfig config, CancellationToken cancellationToken = default(CancellationToken), Action<string> openBrowser = null)
        {
            try
            {
                return SlotgateLoginResult.Succeeded(await LoopbackLogin.Run(config, cancellationToken, openBrowser));
            }
            catch (Exception error)
            {
                return Failure(error, "loopback");
            }
        }

        /// <summary>
        /// Device login for consoles and TVs (RFC 8628): <paramref name="onUserCode"/> receives the code to show
        /// (on the caller's SynchronizationContext, Unity's main thread); the task completes once the player
        /// entered it on a phone or computer and approved, denied (<c>access_denied</c>) or let it expire
        /// (<c>code_expired</c>). The client must be registered with the grant
        /// <c>urn:ietf:params:oauth:grant-type:device_code</c>.
        /// </summary>
        /// <example><code>
        /// var result = await SlotgateLogin.LoginWithDeviceCodeAsync(new SlotgateDeviceLoginConfig { ClientId = "my-console-game" },
        ///     prompt => codeLabel.text = "Open " + prompt.VerificationUri + " and enter " + prompt.UserCode);
        /// </code></example>
        public static async Task<SlotgateLoginResult> LoginWithDeviceCodeAsync(SlotgateDeviceLoginConfig config, Action<SlotgateDevicePrompt> onUserCode, CancellationToken cancellationToken = default(CancellationToken))
        {
            try
            {
                return SlotgateLoginResult.Succeeded(await DeviceLogin.Run(config, onUserCode, cancellationToken));
            }
            catch (Exception error)
            {
                return Failure(error, "device");
            }
        }

        static SlotgateLoginResult Failure(Exception error, string flow)
        {
            var known = error as SlotgateLoginException;
            if (known != null) return SlotgateLoginResult.Failed(known.Error, known.Message);
            return SlotgateLoginResult.Failed(SlotgateLoginError.InternalError, "Unexpected error in the " + flow + " login (" + error.GetType().Name + ").");
        }
    }
}
