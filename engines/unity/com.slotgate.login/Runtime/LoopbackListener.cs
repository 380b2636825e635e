// The loopback listener of RFC 8252: 127.0.0.1 only, one port (port 0: the one the operating system picks),
// a minimal HTTP/1.1 server over TcpListener (plain .NET sockets: works in the Unity editor, Mono and IL2CPP
// players, with no URL ACL on Windows). The rules of @slotgate/game-sdk-bridge's loopback/listener.ts: only
// GET /callback with Host 127.0.0.1:<port> is considered; other paths, methods and Host headers get 404/405 and
// do not end the login; the first decisive request wins and later ones get 404. A redirect with a code is
// answered once the code was redeemed (or refused), so the page tells the truth.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Slotgate
{
    internal sealed class LoopbackListener : IDisposable
    {
        const int MaxRequestHeadBytes = 16384 + 8192;
        const int RequestReadTimeoutMs = 10000;

        readonly TcpListener listener;
        readonly string expectedState;
        readonly Func<string, Task<string>> redeem;
        readonly HashSet<string> allowedHosts = new HashSet<string>(StringComparer.Ordinal);
        readonly HashSet<TcpClient> open = new HashSet<TcpClient>();
        readonly TaskCompletionSource<CallbackOutcome> outcome = new TaskCompletionSource<CallbackOutcome>();
        int decided;
        int disposed;

        /// <summary>The bound port (the ephemeral one when port 0 was asked for).</summary>
        internal readonly int Port;

        /// <summary>Completes with the first redirect to /callback, after its page was sent to the browser.</summary>
        internal Task<CallbackOutcome> Outcome
        {
            get { return outcome.Task; }
        }

        LoopbackListener(TcpListener listener, string expectedState, Func<string, Task<string>> redeem)
        {
            this.listener = listener;
            this.expectedState = expectedState;
            this.redeem = redeem;
            Port = ((IPEndPoint)listener.LocalEndpoint).Port;
            allowedHosts.Add(ConfigReader.LoopbackHost + ":" + Port);
            if (Port == 80) allowedHosts.Add(ConfigReader.LoopbackHost);
        }

        /// <summary>
        /// Listens on 127.0.0.1:port (never on all interfaces; 0: a port the system picks). <paramref name="redeem"/>
        /// turns a redirect's code into the JWT. Throws port_in_use or listen_failed.
        /// </summary>
        internal static LoopbackListener Start(int port, string expectedState, Func<string, Task<string>> redeem)
        {
            var tcp = new TcpListener(IPAddress.Loopback, port);
            if (Path.DirectorySeparatorChar == '\\')
            {
                // Windows: no other socket may bind the same port while the login waits (SO_EXCLUSIVEADDRUSE).
                tcp.ExclusiveAddressUse = true;
            }
            else
            {
                // Unix: SO_REUSEADDR, as Node's listen sets it, so the fixed port of the previous login is free again while its
                // connections sit in TIME_WAIT; two listeners on one port are still refused there.
                tcp.Server.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            }
            try
            {
                tcp.Start();
            }
            catch (SocketException error)
            {
                throw ListenError(error, port);
            }
            var started = new LoopbackListener(tcp, expectedState, redeem);
            started.AcceptLoop();
            return started;
        }

        static SlotgateLoginException ListenError(SocketException error, int port)
        {
            if (error.SocketErrorCode == SocketError.AddressAlreadyInUse)
                return new SlotgateLoginException(SlotgateLoginError.PortInUse,
                    "Port " + port + " on " + ConfigReader.LoopbackHost + " is already in use by another program. Close it, or register another loopback " +
                    "redirect URI and use its port.");
            var reason = error.SocketErrorCode == SocketError.AccessDenied ? "permission denied (ports below 1024 need privileges)" : error.SocketErrorCode.ToString();
            return new SlotgateLoginException(SlotgateLoginError.ListenFailed, "Cannot listen on " + ConfigReader.LoopbackHost + ":" + port + ": " + reason + ".");
        }

        async void AcceptLoop()
        {
            while (Volatile.Read(ref disposed) == 0)
            {
                TcpClient client;
                try
                {
                    client = await listener.AcceptTcpClientAsync().ConfigureAwait(false);
                }
                catch (Exception error)
                {
                    if (Volatile.Read(ref disposed) == 0)
                        outcome.TrySetResult(new CallbackOutcome { Error = new SlotgateLoginException(SlotgateLoginError.ListenFailed, "The loopback listener stopped: " + error.GetType().Name + ".") });
                    return;
                }
                lock (open) open.Add(client);
                // Each connection on its own: a browser's idle pre-connection must not hold up the redirect.
                Forget(Serve(client));
            }
        }

        /// <summary>Lets a connection run on; Serve catches every fault itself.</summary>
        static void Forget(Task served)
        {
        }

        async Task Serve(TcpClient client)
        {
            try
            {
                var stream = client.GetStream();
                var head = await ReadHead(stream).ConfigureAwait(false);
                if (head == null) return;
                await Respond(client, stream, head).ConfigureAwait(false);
            }
            catch (Exception)
            {
                // A connection that breaks or misbehaves does not end the login; the timeout covers a browser that never comes.
            }
            finally
            {
                lock (open) open.Remove(client);
                client.Close();
            }
        }

        /// <summary>Reads up to the blank line that ends the request head; null on timeout, overflow or a closed connection.</summary>
        static async Task<string> ReadHead(NetworkStream stream)
        {
            var buffer = new byte[MaxRequestHeadBytes];
            int length = 0;
            var deadline = Task.Delay(RequestReadTimeoutMs);
            while (length < buffer.Length)
            {
                var read = stream.ReadAsync(buffer, length, buffer.Length - length);
                if (await Task.WhenAny(read, deadline).ConfigureAwait(false) != read) return null;
                int count = await read.ConfigureAwait(false);
                if (count == 0) return null;
                length += count;
                var text = Encoding.ASCII.GetString(buffer, 0, length);
                int end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
                if (end >= 0) return text.Substring(0, end);
            }
            return null;
        }

        async Task Respond(TcpClient client, NetworkStream stream, string head)
        {
            var lines = head.Split(new[] { "\r\n" }, StringSplitOptions.None);
            var requestLine = lines[0].Split(' ');
            string host = null;
            for (int i = 1; i < lines.Length; i++)
            {
                int colon = lines[i].IndexOf(':');
                if (colon > 0 && string.Equals(lines[i].Substring(0, colon).Trim(), "Host", StringComparison.OrdinalIgnoreCase))
                    host = lines[i].Substring(colon + 1).Trim();
            }
            string method = requestLine.Length == 3 ? requestLine[0] : null;
            string target = requestLine.Length == 3 ? requestLine[1] : "";
            int q = target.IndexOf('?');
            string path = q < 0 ? target : target.Substring(0, q);
            string query = q < 0 ? "" : target.Substring(q + 1);

            if (method == null || Volatile.Read(ref decided) != 0 || host == null || !allowedHosts.Contains(host) || path != ConfigReader.CallbackPath)
            {
                await Send(client, stream, 404, LoopbackPages.NotFound(), false).ConfigureAwait(false);
                return;
            }
            if (method != "GET")
            {
                await Send(client, stream, 405, LoopbackPages.NotFound(), true).ConfigureAwait(false);
                return;
            }
            if (Interlocked.Exchange(ref decided, 1) != 0)
            {
                await Send(client, stream, 404, LoopbackPages.NotFound(), false).ConfigureAwait(false);
                return;
            }
            var result = LoopbackCallback.Interpret(query, expectedState);
            if (result.Code != null) result = await Redeem(result.Code).ConfigureAwait(false);
            try
            {
                if (result.Error == null) await Send(client, stream, 200, LoopbackPages.Success(), false).ConfigureAwait(false);
                else await Send(client, stream, 400, LoopbackPages.Failure(result.Error.Message), false).ConfigureAwait(false);
            }
            finally
            {
                // Settled once the page is on its way (or the browser went away): the redirect decided the login either way.
                outcome.TrySetResult(result);
            }
        }

        /// <summary>The JWT for a redirect's code, or the failure to show and report.</summary>
        async Task<CallbackOutcome> Redeem(string code)
        {
            try
            {
                return new CallbackOutcome { Jwt = await redeem(code).ConfigureAwait(false) };
            }
            catch (SlotgateLoginException error)
            {
                return new CallbackOutcome { Error = error };
            }
            catch (Exception error)
            {
                return new CallbackOutcome { Error = new SlotgateLoginException(SlotgateLoginError.InternalError, "Unexpected error while redeeming the sign-in code (" + error.GetType().Name + ").") };
            }
        }

        static async Task Send(TcpClient client, NetworkStream stream, int status, string html, bool allowGet)
        {
            var body = Encoding.UTF8.GetBytes(html);
            var head = new StringBuilder();
            head.Append("HTTP/1.1 ").Append(status).Append(' ').Append(Reason(status)).Append("\r\n");
            foreach (var header in LoopbackPages.Headers) head.Append(header.Key).Append(": ").Append(header.Value).Append("\r\n");
            if (allowGet) head.Append("Allow: GET\r\n");
            head.Append("Content-Length: ").Append(body.Length).Append("\r\n\r\n");
            var headBytes = Encoding.ASCII.GetBytes(head.ToString());
            await stream.WriteAsync(headBytes, 0, headBytes.Length).ConfigureAwait(false);
            await stream.WriteAsync(body, 0, body.Length).ConfigureAwait(false);
            await stream.FlushAsync().ConfigureAwait(false);
            client.Client.Shutdown(SocketShutdown.Send);
        }

        static string Reason(int status)
        {
            switch (status)
            {
                case 200: return "OK";
                case 400: return "Bad Request";
                case 405: return "Method Not Allowed";
                default: return "Not Found";
            }
        }

        /// <summary>Stops listening and drops every open connection. Safe to call more than once.</summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref disposed, 1) != 0) return;
            listener.Stop();
            lock (open)
            {
                foreach (var client in open) client.Close();
                open.Clear();
            }
        }
    }
}
