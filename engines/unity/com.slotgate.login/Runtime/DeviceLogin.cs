// The device login (RFC 8628) in C#: ask Slotgate for a code, show it, poll the token endpoint until
// the player approved on a phone or computer. The flow and messages of @slotgate/game-sdk-bridge's
// device/device-login.ts; HTTP through FormPost (HttpWebRequest).
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    internal static class DeviceLogin
    {
        const string DeviceGrant = "urn:ietf:params:oauth:grant-type:device_code";
        const int SlowDownSeconds = 5;

        internal static async Task<string> Run(SlotgateDeviceLoginConfig config, Action<SlotgateDevicePrompt> onUserCode, CancellationToken cancellation)
        {
            var resolved = ConfigReader.Resolve(config);
            if (onUserCode == null)
                throw new SlotgateLoginException(SlotgateLoginError.InvalidConfig, "onUserCode is required: a callback that shows the player the code and URL.");
            if (cancellation.IsCancellationRequested) throw LoopbackLogin.Cancelled();
            // The prompt reaches the caller's context (Unity's main thread), wherever the answer arrived.
            var context = SynchronizationContext.Current;

            var started = await FormPost.Post(new Uri(resolved.SlotgateUrl, "oauth/device_authorization"), FormPost.Form("client_id", resolved.ClientId), cancellation).ConfigureAwait(false);
            if (!started.Ok)
            {
                var code = started.Body.Error == "invalid_client" || started.Body.Error == "unauthorized_client" ? SlotgateLoginError.InvalidConfig : SlotgateLoginError.AuthorizationError;
                throw new SlotgateLoginException(code, "Slotgate refused the device login (" + (FormPost.Text(started.Body.Error) ?? "error") + "): " + (FormPost.Text(started.Body.ErrorDescription ?? started.Body.Message) ?? "no description"));
            }
            var body = started.Body;
            if (body.DeviceCode == null || body.UserCode == null || body.VerificationUri == null || !body.ExpiresIn.HasValue)
                throw new SlotgateLoginException(SlotgateLoginError.NetworkError, "The device authorization answer lacks device_code, user_code, verification_uri or expires_in.");
            var prompt = new SlotgateDevicePrompt
            {
                UserCode = body.UserCode,
                VerificationUri = body.VerificationUri,
                VerificationUriComplete = body.VerificationUriComplete ?? body.VerificationUri,
                ExpiresIn = body.ExpiresIn.Value,
            };
            if (context != null) context.Post(_ => onUserCode(prompt), null);
            else onUserCode(prompt);

            int interval = body.Interval.HasValue && body.Interval.Value > 0 ? body.Interval.Value : 5;
            var tokenUrl = new Uri(resolved.SlotgateUrl, "oauth/token");
            var poll = FormPost.Form("grant_type", DeviceGrant, "device_code", body.DeviceCode, "client_id", resolved.ClientId);
            for (;;)
            {
                try
                {
                    await Task.Delay(interval * 1000, cancellation).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    throw LoopbackLogin.Cancelled();
                }
                var polled = await FormPost.Post(tokenUrl, poll, cancellation).ConfigureAwait(false);
                if (polled.Ok)
                {
                    if (!LoopbackCallback.IsJwtShaped(polled.Body.AccessToken))
                        throw new SlotgateLoginException(SlotgateLoginError.MissingJwt, "The token answer carried no well-formed JWT.");
                    return polled.Body.AccessToken;
                }
                switch (polled.Body.Error)
                {
                    case "authorization_pending":
                        continue;
                    case "slow_down":
                        interval += SlowDownSeconds;
                        continue;
                    case "access_denied":
                        throw new SlotgateLoginException(SlotgateLoginError.AccessDenied, "The player denied the sign-in on the verification page.");
                    case "expired_token":
                        throw new SlotgateLoginException(SlotgateLoginError.CodeExpired, "The code expired before the player entered it. Start the login again.");
                    default:
                        throw new SlotgateLoginException(SlotgateLoginError.AuthorizationError,
                            "Slotgate ended the device login (" + (FormPost.Text(polled.Body.Error) ?? "error") + "): " + (FormPost.Text(polled.Body.ErrorDescription ?? polled.Body.Message) ?? "no description"));
                }
            }
        }
    }
}
