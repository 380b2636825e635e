// Opens the authorize page in the player's browser. In Unity: Application.OpenURL (every desktop
// platform and the editor). Elsewhere (plain .NET or Mono tools): the opener of each platform, run
// without a shell, as @slotgate/game-sdk-bridge's browser.ts does.
using System;
using System.Diagnostics;
using System.IO;

namespace Slotgate
{
    internal static class SystemBrowser
    {
        internal static void Open(string url)
        {
#if UNITY_5_3_OR_NEWER
            UnityEngine.Application.OpenURL(url);
#else
            // The URL is built by this package: percent-encoded, without spaces or quotes, so one quoted argument.
            ProcessStartInfo start;
            if (Path.DirectorySeparatorChar == '\\')
                // Not `cmd /c start`: cmd.exe would split the URL at every '&'.
                start = new ProcessStartInfo("rundll32", "url.dll,FileProtocolHandler \"" + url + "\"");
            else if (Directory.Exists("/System/Library/CoreServices"))
                start = new ProcessStartInfo("open", "\"" + url + "\"");
            else
                start = new ProcessStartInfo("xdg-open", "\"" + url + "\"");
            start.UseShellExecute = false;
            start.CreateNoWindow = true;
            using (Process.Start(start)) { }
#endif
        }
    }
}
