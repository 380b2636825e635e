/** The environment variable `dev-user create` reads the password from, before stdin. */
export const DEV_USER_PASSWORD_ENV = "SLOTGATE_DEV_USER_PASSWORD";

/** Longest secret read from a pipe; more is refused rather than cut (it is not a password). */
const MAX_PIPED_BYTES = 4096;

/** What {@link readSecret} reads from: a terminal (prompted, no echo) or a pipe. */
export interface SecretInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/**
 * Reads one secret (a password) from standard input without it ever appearing in argv, a shell
 * history or on screen. On a terminal: writes `prompt` to `output`, turns echo off (raw mode), reads
 * up to Enter (Backspace edits, Ctrl-C cancels), restores the terminal; with `confirmPrompt`, asks
 * again and refuses two different entries (a typo would otherwise become the password). From a pipe:
 * reads to the end and drops one trailing newline, so `printf '%s\n' "$PW" | …` and `… < file` both work.
 *
 * @param prompt - what to ask on a terminal, e.g. `"Password for ops@example.com: "`
 * @param options - `confirmPrompt`: on a terminal, ask a second time with this prompt
 * @returns the secret, possibly empty (the caller validates it)
 *
 * @example
 * ```ts
 * const password = await readSecret("Password: ", process.stdin, process.stderr, { confirmPrompt: "Repeat it: " });
 * ```
 */
export async function readSecret(
  prompt: string,
  input: SecretInput = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
  options: { confirmPrompt?: string } = {},
): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return readFromPipe(input);
  const secret = await readFromTerminal(prompt, input, output);
  if (options.confirmPrompt !== undefined && (await readFromTerminal(options.confirmPrompt, input, output)) !== secret) {
    throw new Error("the two passwords typed differ");
  }
  return secret;
}

function readFromPipe(input: SecretInput): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      size += buf.length;
      if (size > MAX_PIPED_BYTES) {
        cleanup();
        reject(new Error(`the password on stdin is longer than ${MAX_PIPED_BYTES} bytes`));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => {
      cleanup();
      resolve(
        Buffer.concat(chunks)
          .toString("utf8")
          .replace(/\r?\n$/, ""),
      );
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("error", onError);
      input.pause();
    };
    input.on("data", onData);
    input.on("end", onEnd);
    input.on("error", onError);
    input.resume();
  });
}

function readFromTerminal(prompt: string, input: SecretInput, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let secret = "";
    output.write(prompt);
    input.setRawMode!(true);
    const finish = (error: Error | null) => {
      input.off("data", onData);
      input.setRawMode!(false);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(secret);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish(null);
        if (ch === "\u0003") return finish(new Error("cancelled"));
        if (ch === "\u007f" || ch === "\b") secret = [...secret].slice(0, -1).join("");
        else if (ch >= " ") secret += ch;
      }
    };
    input.on("data", onData);
    input.resume();
  });
}
