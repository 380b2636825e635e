// Redeems the loopback redirect's authorization code at {SlotgateUrl}/oauth/token as a public client (RFC 8252
// section 8.4): client_id and the PKCE code_verifier, no secret. The rules and messages of
// @slotgate/game-sdk-bridge's loopback/code-exchange.ts.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    internal static class CodeExchange
    {
        /// <summary>
        /// The player's JWT for the code. A client Slotgate does not know as public is invalid_config; a refused code
        /// (invalid_grant: expired, used, a verifier that does not match) authorization_error; no JWT missing_jwt.
        /// </summary>
        internal static async Task<string> Redeem(Uri slotgateUrl, string clientId, string code, string redirectUri, string verifier, CancellationToken cancellation)
        {
            var form = FormPost.Form("grant_type", "authorization_code", "code", code, "redirect_uri", redirectUri, "client_id", clientId, "code_verifier", verifier);
            var answer = await FormPost.Post(new Uri(slotgateUrl, "oauth/token"), form, cancellation).ConfigureAwait(false);
            if (answer.Ok)
            {
                if (!LoopbackCallback.IsJwtShaped(answer.Body.AccessToken))
                    throw new SlotgateLoginException(SlotgateLoginError.MissingJwt, "The token answer carried no well-formed JWT.");
                return answer.Body.AccessToken;
            }
            var error = answer.Body.Error;
            var detail = "(" + (FormPost.Text(error) ?? "error") + "): " + (FormPost.Text(answer.Body.ErrorDescription ?? answer.Body.Message) ?? "no description");
            if (error == "invalid_client" || error == "unauthorized_client" || error == "redirect_uri_mismatch")
                throw new SlotgateLoginException(SlotgateLoginError.InvalidConfig,
                    "Slotgate refused to redeem the sign-in code for this client " + detail +
                    ". Register the game as a public client (no secret, loopback redirect URI http://127.0.0.1/callback).");
            throw new SlotgateLoginException(SlotgateLoginError.AuthorizationError, "Slotgate refused the sign-in code " + detail);
        }
    }
}
