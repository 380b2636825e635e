/** A Slotgate service the browser suite logs in against: the reference server or the contract stand-in. */
export interface E2eTarget {
  name: string;
  /** Service base URL, e.g. http://127.0.0.1:43123 (no trailing slash). */
  baseUrl: string;
  /** Registers a web client application with these exact redirect URIs; returns its client_id. */
  registerClient(redirectUris: string[]): Promise<string>;
  /** Creates an end user who can log in on the authorize page. */
  createEndUser(): Promise<{ email: string; password: string }>;
  close(): Promise<void>;
}
