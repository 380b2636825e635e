// POSTs a form to one of Slotgate's OAuth endpoints (/oauth/device_authorization, /oauth/token) and reads the
// JSON answer: the device login's polls and the loopback login's code redemption. HttpWebRequest (System.dll:
// Unity's Mono and IL2CPP, any .NET), the messages of @slotgate/game-sdk-bridge's post-form.ts.
using System;
using System.IO;
using System.Net;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    /// <summary>Every field Slotgate's OAuth endpoints answer (device authorization, token); absent ones stay null.</summary>
    [DataContract]
    internal sealed class ServiceAnswer
    {
        [DataMember(Name = "device_code")] internal string DeviceCode;
        [DataMember(Name = "user_code")] internal string UserCode;
        [DataMember(Name = "verification_uri")] internal string VerificationUri;
        [DataMember(Name = "verification_uri_complete")] internal string VerificationUriComplete;
        [DataMember(Name = "expires_in")] internal int? ExpiresIn;
        [DataMember(Name = "interval")] internal int? Interval;
        [DataMember(Name = "access_token")] internal string AccessToken;
        [DataMember(Name = "error")] internal string Error;
        [DataMember(Name = "error_description")] internal string ErrorDescription;
        [DataMember(Name = "message")] internal string Message;
    }

    internal static class FormPost
    {
        static readonly Regex NotPrintable = new Regex("[^\\x20-\\x7e]");

        /// <summary>The JSON body of an answer, and whether its status was 2xx.</summary>
        internal sealed class Answer
        {
            internal bool Ok;
            internal ServiceAnswer Body;
        }

        /// <summary>Server text made printable ASCII and at most 300 characters, for a message.</summary>
        internal static string Text(string value)
        {
            if (value == null) return null;
            var printable = NotPrintable.Replace(value, "?");
            return printable.Length > 300 ? printable.Substring(0, 300) : printable;
        }

        /// <summary>POSTs a form and reads the JSON answer; unreachable or not JSON: network_error; cancelled: cancelled.</summary>
        internal static async Task<Answer> Post(Uri url, string form, CancellationToken cancellation)
        {
            var request = (HttpWebRequest)WebRequest.Create(url);
            request.Method = "POST";
            request.ContentType = "application/x-www-form-urlencoded";
            request.Accept = "application/json";
            HttpWebResponse response;
            using (cancellation.Register(request.Abort))
            {
                try
                {
                    var bytes = Encoding.UTF8.GetBytes(form);
                    using (var body = await request.GetRequestStreamAsync().ConfigureAwait(false))
                        await body.WriteAsync(bytes, 0, bytes.Length).ConfigureAwait(false);
                    response = (HttpWebResponse)await request.GetResponseAsync().ConfigureAwait(false);
                }
                catch (WebException error)
                {
                    if (cancellation.IsCancellationRequested) throw LoopbackLogin.Cancelled();
                    response = error.Response as HttpWebResponse;
                    if (response == null)
                        throw new SlotgateLoginException(SlotgateLoginError.NetworkError, "The Slotgate service at " + url.GetLeftPart(UriPartial.Authority) + " could not be reached.");
                }
            }
            using (response)
            {
                int status = (int)response.StatusCode;
                ServiceAnswer answer = null;
                try
                {
                    using (var stream = response.GetResponseStream())
                    using (var copy = new MemoryStream())
                    {
                        await stream.CopyToAsync(copy).ConfigureAwait(false);
                        var json = Encoding.UTF8.GetString(copy.ToArray()).TrimStart();
                        if (json.StartsWith("{", StringComparison.Ordinal))
                        {
                            copy.Position = 0;
                            answer = (ServiceAnswer)new DataContractJsonSerializer(typeof(ServiceAnswer)).ReadObject(copy);
                        }
                    }
                }
                catch (Exception)
                {
                    if (cancellation.IsCancellationRequested) throw LoopbackLogin.Cancelled();
                    answer = null;
                }
                if (answer == null)
                    throw new SlotgateLoginException(SlotgateLoginError.NetworkError, "The Slotgate service answered HTTP " + status + " without a JSON body.");
                return new Answer { Ok = status >= 200 && status < 300, Body = answer };
            }
        }

        /// <summary>application/x-www-form-urlencoded from name, value pairs.</summary>
        internal static string Form(params string[] pairs)
        {
            var form = new StringBuilder();
            for (int i = 0; i < pairs.Length; i += 2)
            {
                if (form.Length > 0) form.Append('&');
                form.Append(Uri.EscapeDataString(pairs[i])).Append('=').Append(Uri.EscapeDataString(pairs[i + 1]));
            }
            return form.ToString();
        }
    }
}
