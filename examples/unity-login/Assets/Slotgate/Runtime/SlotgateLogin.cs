// Slotgate login for Unity standalone and editor builds (spec 4.14): spawns the single-executable
// `slotgate-login` (no Node.js needed on the player's machine) and reads its JSON lines.
// Plain .NET (System.Diagnostics.Process, DataContractJsonSerializer): compiles in Unity and with Mono's mcs.
using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Text;
using System.Threading.Tasks;

namespace Slotgate
{
    /// <summary>Login configuration (spec 4.14 names). The client secret is never part of it.</summary>
    [Serializable]
    public class SlotgateLoginConfig
    {
        /// <summary>The client application's public id.</summary>
        public string ClientId;
        /// <summary>The registered loopback URI, exactly http://127.0.0.1:&lt;port&gt;/callback.</summary>
        public string RedirectUri;
        /// <summary>Slotgate base address. Default https://auth.slotgate.io.</summary>
        public string SlotgateUrl = "https://auth.slotgate.io";
        /// <summary>Port to listen on when RedirectUri names none; 0 = let RedirectUri decide.</summary>
        public int LoopbackPort;
        /// <summary>How long to wait for the player, in milliseconds (0 = the CLI's default, 120000).</summary>
        public int TimeoutMs;
    }

    /// <summary>Login result (spec 4.14): Success, Jwt, ErrorMessage, plus the stable ErrorCode.</summary>
    [Serializable]
    public class SlotgateLoginResult
    {
        public bool Success;
        /// <summary>The player's JWT; send it to your game backend, which verifies it.</summary>
        public string Jwt;
        public string ErrorMessage;
        /// <summary>Stable code such as access_denied, timeout, code_expired (null on success).</summary>
        public string ErrorCode;

        internal static SlotgateLoginResult Failure(string code, string message)
        {
            return new SlotgateLoginResult { Success = false, Jwt = null, ErrorMessage = message, ErrorCode = code };
        }
    }

    /// <summary>What a console shows the player in the device login: the code and where to enter it.</summary>
    [Serializable]
    public class SlotgateDevicePrompt
    {
        public string UserCode;
        public string VerificationUri;
        /// <summary>The verification page with the code filled in: render it as a QR code.</summary>
        public string VerificationUriComplete;
        public int ExpiresIn;
    }

    /// <summary>One line the CLI prints: a device prompt (UserCode set) or the result.</summary>
    [Serializable]
    [DataContract]
    internal class CliLine
    {
        [DataMember] public bool Success;
        [DataMember] public string Jwt;
        [DataMember] public string ErrorMessage;
        [DataMember] public string ErrorCode;
        [DataMember] public string UserCode;
        [DataMember] public string VerificationUri;
        [DataMember] public string VerificationUriComplete;
        [DataMember] public int ExpiresIn;

        internal static CliLine Parse(string line)
        {
            var serializer = new DataContractJsonSerializer(typeof(CliLine));
            using (var stream = new MemoryStream(Encoding.UTF8.GetBytes(line)))
            {
                return (CliLine)serializer.ReadObject(stream);
            }
        }
    }

    /// <summary>
    /// Runs slotgate-login. Ship the executable for each platform in StreamingAssets/slotgate-login/
    /// (slotgate-login-win-x64.exe, slotgate-login-darwin-x64, slotgate-login-linux-x64) and pass its path.
    /// </summary>
    public static class SlotgateLogin
    {
        /// <summary>
        /// Opens the system browser and waits for the loopback redirect. Never throws: every failure
        /// is a result with Success false.
        /// </summary>
        /// <example><code>
        /// var result = await SlotgateLogin.LoginAsync(ExecutablePath(), new SlotgateLoginConfig {
        ///     ClientId = "my-game", RedirectUri = "http://127.0.0.1:53682/callback" });
        /// if (result.Success) await SendToGameBackend(result.Jwt);
        /// </code></example>
        public static Task<SlotgateLoginResult> LoginAsync(string executablePath, SlotgateLoginConfig config)
        {
            var args = new StringBuilder();
            Append(args, "--client-id", config.ClientId);
            Append(args, "--redirect-uri", config.RedirectUri);
            Append(args, "--slotgate-url", config.SlotgateUrl);
            if (config.LoopbackPort > 0) Append(args, "--loopback-port", config.LoopbackPort.ToString());
            if (config.TimeoutMs > 0) Append(args, "--timeout-ms", config.TimeoutMs.ToString());
            return Run(executablePath, args.ToString(), null);
        }

        /// <summary>
        /// Device login for consoles and TVs (RFC 8628): onUserCode receives the code to show; the task
        /// completes once the player entered it on a phone or computer and approved (or denied, or it expired).
        /// </summary>
        /// <example><code>
        /// var result = await SlotgateLogin.LoginWithDeviceCodeAsync(ExecutablePath(), config,
        ///     prompt => codeLabel.text = prompt.VerificationUri + "  " + prompt.UserCode);
        /// </code></example>
        public static Task<SlotgateLoginResult> LoginWithDeviceCodeAsync(string executablePath, SlotgateLoginConfig config, Action<SlotgateDevicePrompt> onUserCode)
        {
            var args = new StringBuilder("--device");
            Append(args, "--client-id", config.ClientId);
            Append(args, "--slotgate-url", config.SlotgateUrl);
            return Run(executablePath, args.ToString(), onUserCode);
        }

        static void Append(StringBuilder args, string flag, string value)
        {
            if (string.IsNullOrEmpty(value)) return;
            if (value.IndexOf('"') >= 0) throw new ArgumentException(flag + " must not contain a double quote");
            if (args.Length > 0) args.Append(' ');
            args.Append(flag).Append(" \"").Append(value).Append('"');
        }

        static Task<SlotgateLoginResult> Run(string executablePath, string arguments, Action<SlotgateDevicePrompt> onUserCode)
        {
            var done = new TaskCompletionSource<SlotgateLoginResult>();
            Process process;
            try
            {
                process = new Process
                {
                    StartInfo = new ProcessStartInfo(executablePath, arguments)
                    {
                        UseShellExecute = false,
                        RedirectStandardOutput = true,
                        RedirectStandardError = true,
                        CreateNoWindow = true,
                        StandardOutputEncoding = Encoding.UTF8,
                    },
                    EnableRaisingEvents = true,
                };
            }
            catch (Exception error)
            {
                return Task.FromResult(SlotgateLoginResult.Failure("internal_error", "slotgate-login could not be prepared: " + error.Message));
            }
            process.OutputDataReceived += (sender, e) =>
            {
                if (string.IsNullOrEmpty(e.Data)) return;
                CliLine line;
                try { line = CliLine.Parse(e.Data); }
                catch (Exception) { return; }
                if (line.UserCode != null)
                {
                    if (onUserCode != null)
                        onUserCode(new SlotgateDevicePrompt { UserCode = line.UserCode, VerificationUri = line.VerificationUri, VerificationUriComplete = line.VerificationUriComplete, ExpiresIn = line.ExpiresIn });
                    return;
                }
                done.TrySetResult(new SlotgateLoginResult { Success = line.Success, Jwt = line.Jwt, ErrorMessage = line.ErrorMessage, ErrorCode = line.ErrorCode });
            };
            process.ErrorDataReceived += (sender, e) => { };
            process.Exited += (sender, e) =>
            {
                // Output events may still be in flight; give them a moment before reporting a missing line.
                process.WaitForExit();
                done.TrySetResult(SlotgateLoginResult.Failure("internal_error", "slotgate-login exited (" + process.ExitCode + ") without a result line."));
            };
            try
            {
                process.Start();
            }
            catch (Exception error)
            {
                return Task.FromResult(SlotgateLoginResult.Failure("internal_error", "slotgate-login could not be started at " + executablePath + ": " + error.Message));
            }
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            return done.Task;
        }
    }
}
