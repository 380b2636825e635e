// Login configuration (spec 4.14 names) and its validation, with the rules and messages of
// @slotgate/game-sdk-bridge's config.ts. There is no client secret field: a game build is public.
using System;
using System.Text.RegularExpressions;

namespace Slotgate
{
    /// <summary>Config of the loopback login (spec 4.14). The client secret is never part of it.</summary>
    /// <example><code>
    /// var config = new SlotgateLoginConfig { ClientId = "my-game", RedirectUri = "http://127.0.0.1/callback" };
    /// </code></example>
    [Serializable]
    public class SlotgateLoginConfig
    {
        /// <summary>The client application's public id.</summary>
        public string ClientId;
        /// <summary>
        /// The registered loopback URI: <c>http://127.0.0.1/callback</c> for a public client (no port: the system picks
        /// one and Slotgate accepts any port, RFC 8252 section 7.3), or <c>http://127.0.0.1:&lt;port&gt;/callback</c> to
        /// listen on that fixed port. Port 0 (or none) means <c>LoopbackPort</c>, else an ephemeral port.
        /// </summary>
        public string RedirectUri;
        /// <summary>Slotgate base address: https, or http on 127.0.0.1/localhost for development.</summary>
        public string SlotgateUrl = SlotgateLogin.DefaultSlotgateUrl;
        /// <summary>Port to listen on when <c>RedirectUri</c> names none; 0 = not set.</summary>
        public int LoopbackPort;
        /// <summary>How long to wait for the player, in milliseconds; 0 = 120000 (spec 8's client login timeout).</summary>
        public int TimeoutMs;
    }

    /// <summary>Config of the device login (RFC 8628): no redirect URI.</summary>
    /// <example><code>
    /// var config = new SlotgateDeviceLoginConfig { ClientId = "my-console-game" };
    /// </code></example>
    [Serializable]
    public class SlotgateDeviceLoginConfig
    {
        /// <summary>The client application's public id, registered with the device_code grant.</summary>
        public string ClientId;
        /// <summary>Slotgate base address: https, or http on 127.0.0.1/localhost for development.</summary>
        public string SlotgateUrl = SlotgateLogin.DefaultSlotgateUrl;
    }

    /// <summary>A validated config.</summary>
    internal sealed class ResolvedConfig
    {
        internal string ClientId;
        /// <summary>Base URL ending in a slash, so relative paths keep a base path.</summary>
        internal Uri SlotgateUrl;
        /// <summary>Port to bind; 0 asks the operating system for an ephemeral one.</summary>
        internal int Port;
        internal int TimeoutMs;
    }

    /// <summary>Validates configs with the rules and messages of the JavaScript bridge.</summary>
    internal static class ConfigReader
    {
        internal const string LoopbackHost = "127.0.0.1";
        internal const string CallbackPath = "/callback";
        internal const int DefaultTimeoutMs = 120000;
        const string LoopbackExample = "http://127.0.0.1/callback";
        static readonly Regex WrittenPort = new Regex(@"^http://127\.0\.0\.1:(\d+)/", RegexOptions.IgnoreCase);

        static SlotgateLoginException Invalid(string message)
        {
            return new SlotgateLoginException(SlotgateLoginError.InvalidConfig, message);
        }

        internal static ResolvedConfig Resolve(SlotgateLoginConfig config)
        {
            if (config == null) throw Invalid("LoginAsync() needs a config with ClientId and RedirectUri.");
            var clientId = ReadClientId(config.ClientId);
            int? redirectPort = ReadRedirectPort(config.RedirectUri);
            var slotgateUrl = ReadSlotgateUrl(config.SlotgateUrl);
            if (config.LoopbackPort < 0 || config.LoopbackPort > 65535)
                throw Invalid("LoopbackPort must be an integer from 0 to 65535 (0 means not set).");
            int? loopbackPort = config.LoopbackPort == 0 ? (int?)null : config.LoopbackPort;
            if (redirectPort.HasValue && loopbackPort.HasValue && redirectPort.Value != loopbackPort.Value)
                throw Invalid("LoopbackPort (" + loopbackPort.Value + ") differs from the port in RedirectUri (" + redirectPort.Value + "); they must agree, or leave one out.");
            if (config.TimeoutMs < 0) throw Invalid("TimeoutMs must be an integer from 1 to 2147483647 (0 means the default, 120000).");
            return new ResolvedConfig
            {
                ClientId = clientId,
                SlotgateUrl = slotgateUrl,
                Port = redirectPort ?? loopbackPort ?? 0,
                TimeoutMs = config.TimeoutMs == 0 ? DefaultTimeoutMs : config.TimeoutMs,
            };
        }

        internal static ResolvedConfig Resolve(SlotgateDeviceLoginConfig config)
        {
            if (config == null) throw Invalid("LoginWithDeviceCodeAsync() needs a config with ClientId.");
            return new ResolvedConfig { ClientId = ReadClientId(config.ClientId), SlotgateUrl = ReadSlotgateUrl(config.SlotgateUrl) };
        }

        static string ReadClientId(string value)
        {
            if (string.IsNullOrEmpty(value) || value.Trim().Length == 0)
                throw Invalid("ClientId is required: pass the client application's public id.");
            if (value.Length > 256 || !Regex.IsMatch(value, "^[!-~]+$"))
                throw Invalid("ClientId must be 1 to 256 printable ASCII characters without spaces.");
            return value;
        }

        static Uri ReadSlotgateUrl(string value)
        {
            if (string.IsNullOrEmpty(value)) value = SlotgateLogin.DefaultSlotgateUrl;
            Uri url;
            if (!Uri.TryCreate(value, UriKind.Absolute, out url))
                throw Invalid("SlotgateUrl is not a valid absolute URL (expected e.g. https://auth.slotgate.io).");
            if (url.UserInfo.Length > 0) throw Invalid("SlotgateUrl must not contain a user name or password.");
            if (url.Query.Length > 0 || url.Fragment.Length > 0 || value.IndexOf('#') >= 0)
                throw Invalid("SlotgateUrl must not have a query or fragment.");
            bool devLoopback = url.Scheme == "http" && (url.Host == "127.0.0.1" || url.Host == "localhost" || url.Host == "[::1]");
            if (url.Scheme != "https" && !devLoopback)
                throw Invalid("SlotgateUrl must use https (plain http is allowed only for a local server on 127.0.0.1 or localhost).");
            return url.AbsolutePath.EndsWith("/") ? url : new Uri(url.GetLeftPart(UriPartial.Path) + "/");
        }

        static int? ReadRedirectPort(string value)
        {
            if (string.IsNullOrEmpty(value))
                throw Invalid("RedirectUri is required: the registered loopback URI " + LoopbackExample + ".");
            Uri url;
            if (!Uri.TryCreate(value, UriKind.Absolute, out url))
                throw Invalid("RedirectUri is not a valid URL; expected " + LoopbackExample + ".");
            if (url.Scheme != "http")
                throw Invalid("RedirectUri must use http on the loopback interface (RFC 8252 section 7.3), e.g. " + LoopbackExample + ".");
            if (url.Host == "localhost" || url.Host == "[::1]")
                throw Invalid(
                    "RedirectUri must use the IP literal 127.0.0.1, not " + url.Host + ": \"localhost\" may resolve to ::1 (IPv6) while the " +
                    "listener is on 127.0.0.1, or be remapped by the hosts file or a firewall (RFC 8252 section 8.3). Use " + LoopbackExample + " " +
                    "and register exactly that URI.");
            if (url.Host != LoopbackHost)
                throw Invalid("RedirectUri must be a loopback URI on 127.0.0.1 (" + LoopbackExample + "); got host " + url.Host + ".");
            if (url.UserInfo.Length > 0 || url.Query.Length > 0 || value.IndexOf('#') >= 0)
                throw Invalid("RedirectUri must be exactly " + LoopbackExample + ", without user info, query or fragment.");
            if (url.AbsolutePath != CallbackPath)
                throw Invalid("RedirectUri must use the path /callback (" + LoopbackExample + "); got " + url.AbsolutePath + ".");
            // Uri drops a default port (80), so read the written port from the text, as the JavaScript bridge does.
            var written = WrittenPort.Match(value);
            if (!written.Success) return null;
            int port = int.Parse(written.Groups[1].Value);
            return port == 0 ? (int?)null : port;
        }
    }
}
