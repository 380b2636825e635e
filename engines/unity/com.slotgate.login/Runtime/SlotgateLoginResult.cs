// Results and error codes of the Slotgate login (spec 4.14): the same fields and codes as the
// slotgate-login CLI's JSON line and @slotgate/game-sdk-bridge's LoginResult.
using System;

namespace Slotgate
{
    /// <summary>
    /// Why a login failed. Each value has the stable string code of the CLI and the JavaScript
    /// bridge (<see cref="SlotgateLoginResult.ErrorCode"/>), e.g. <c>AccessDenied</c> is <c>access_denied</c>.
    /// </summary>
    public enum SlotgateLoginError
    {
        /// <summary>No error: the player signed in.</summary>
        None,
        /// <summary><c>invalid_config</c>: a config value is missing or wrong.</summary>
        InvalidConfig,
        /// <summary><c>port_in_use</c>: another program already listens on the loopback port.</summary>
        PortInUse,
        /// <summary><c>listen_failed</c>: the loopback listener could not start for another reason.</summary>
        ListenFailed,
        /// <summary><c>browser_open_failed</c>: the system browser (or the given opener) could not be started.</summary>
        BrowserOpenFailed,
        /// <summary><c>state_mismatch</c>: the redirect's state was missing or did not match this login attempt.</summary>
        StateMismatch,
        /// <summary><c>missing_jwt</c>: the redirect carried neither one well-formed code nor one jwt, or the token answer no JWT.</summary>
        MissingJwt,
        /// <summary><c>access_denied</c>: the player declined.</summary>
        AccessDenied,
        /// <summary><c>authorization_error</c>: Slotgate answered with another OAuth error, or refused the code (invalid_grant).</summary>
        AuthorizationError,
        /// <summary><c>timeout</c>: no redirect arrived within the timeout.</summary>
        Timeout,
        /// <summary><c>code_expired</c>: device login, the player did not enter the code in time.</summary>
        CodeExpired,
        /// <summary><c>network_error</c>: the Slotgate service could not be reached or answered garbage (device login, code redemption).</summary>
        NetworkError,
        /// <summary><c>cancelled</c>: the caller cancelled the login.</summary>
        Cancelled,
        /// <summary><c>internal_error</c>: an unexpected fault in this package (please report it).</summary>
        InternalError,
    }

    /// <summary>The stable string codes of <see cref="SlotgateLoginError"/>, as in the CLI's JSON line.</summary>
    /// <example><code>
    /// if (result.ErrorCode == SlotgateErrorCodes.AccessDenied) ShowMessage("Sign-in was declined.");
    /// </code></example>
    public static class SlotgateErrorCodes
    {
        public const string InvalidConfig = "invalid_config";
        public const string PortInUse = "port_in_use";
        public const string ListenFailed = "listen_failed";
        public const string BrowserOpenFailed = "browser_open_failed";
        public const string StateMismatch = "state_mismatch";
        public const string MissingJwt = "missing_jwt";
        public const string AccessDenied = "access_denied";
        public const string AuthorizationError = "authorization_error";
        public const string Timeout = "timeout";
        public const string CodeExpired = "code_expired";
        public const string NetworkError = "network_error";
        public const string Cancelled = "cancelled";
        public const string InternalError = "internal_error";

        static readonly string[] Codes =
        {
            null, InvalidConfig, PortInUse, ListenFailed, BrowserOpenFailed, StateMismatch, MissingJwt,
            AccessDenied, AuthorizationError, Timeout, CodeExpired, NetworkError, Cancelled, InternalError,
        };

        /// <summary>The string code of an error (<c>null</c> for <see cref="SlotgateLoginError.None"/>).</summary>
        /// <example><code>SlotgateErrorCodes.Of(SlotgateLoginError.Timeout) // "timeout"</code></example>
        public static string Of(SlotgateLoginError error)
        {
            return Codes[(int)error];
        }

        /// <summary>The error of a string code; an unknown code is <see cref="SlotgateLoginError.InternalError"/>.</summary>
        /// <example><code>SlotgateErrorCodes.Parse("access_denied") // SlotgateLoginError.AccessDenied</code></example>
        public static SlotgateLoginError Parse(string code)
        {
            if (code == null) return SlotgateLoginError.None;
            int index = Array.IndexOf(Codes, code);
            return index > 0 ? (SlotgateLoginError)index : SlotgateLoginError.InternalError;
        }
    }

    /// <summary>
    /// Outcome of a login (spec 4.14): <c>Success</c>, <c>Jwt</c>, <c>ErrorMessage</c>, plus the stable
    /// <c>ErrorCode</c>. Public fields, so <c>JsonUtility</c> reads and writes it as the CLI's JSON line.
    /// </summary>
    /// <example><code>
    /// var result = await SlotgateLogin.LoginAsync(config);
    /// if (result.Success) await SendToGameBackend(result.Jwt);
    /// else if (result.Error == SlotgateLoginError.PortInUse) ShowMessage(result.ErrorMessage);
    /// </code></example>
    [Serializable]
    public class SlotgateLoginResult
    {
        /// <summary><c>true</c> when the player signed in and <c>Jwt</c> is set.</summary>
        public bool Success;
        /// <summary>The player's JWT; <c>null</c> on failure. Send it to your game backend, which verifies it.</summary>
        public string Jwt;
        /// <summary>What went wrong, in words a player or developer can act on; <c>null</c> on success. Never contains a token.</summary>
        public string ErrorMessage;
        /// <summary>Stable code of the failure (see <see cref="SlotgateErrorCodes"/>); <c>null</c> on success.</summary>
        public string ErrorCode;

        /// <summary>The failure as an enum value; <see cref="SlotgateLoginError.None"/> on success.</summary>
        public SlotgateLoginError Error
        {
            get { return SlotgateErrorCodes.Parse(ErrorCode); }
        }

        internal static SlotgateLoginResult Succeeded(string jwt)
        {
            return new SlotgateLoginResult { Success = true, Jwt = jwt };
        }

        internal static SlotgateLoginResult Failed(SlotgateLoginError error, string message)
        {
            return new SlotgateLoginResult { Success = false, ErrorCode = SlotgateErrorCodes.Of(error), ErrorMessage = message };
        }
    }

    /// <summary>What a console shows the player in the device login: the code and where to enter it.</summary>
    /// <example><code>
    /// prompt => codeLabel.text = "Open " + prompt.VerificationUri + " and enter " + prompt.UserCode
    /// </code></example>
    [Serializable]
    public class SlotgateDevicePrompt
    {
        /// <summary>The code to type on the verification page, e.g. <c>BDFH-JKLM</c>.</summary>
        public string UserCode;
        /// <summary>The verification page, e.g. <c>https://auth.slotgate.io/oauth/device</c>.</summary>
        public string VerificationUri;
        /// <summary>The verification page with the code filled in: render it as a QR code.</summary>
        public string VerificationUriComplete;
        /// <summary>Seconds until the code expires.</summary>
        public int ExpiresIn;
    }

    /// <summary>A failure inside the login; turned into a failed <see cref="SlotgateLoginResult"/> at the public surface.</summary>
    internal sealed class SlotgateLoginException : Exception
    {
        internal readonly SlotgateLoginError Error;

        internal SlotgateLoginException(SlotgateLoginError error, string message) : base(message)
        {
            Error = error;
        }
    }
}
