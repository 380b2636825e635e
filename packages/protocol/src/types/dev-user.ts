/** Body of `POST /v1/dev-user/login_devuser` and `POST /v1/dev-user/signup` (spec 4.1). */
export interface DevUserCredentials {
  email: string;
  password: string;
}

/** Developer-user login result (spec 2.1). */
export interface DevUserLoginResponse {
  success: true;
  /** JWT for later developer-center requests (`Authorization: Bearer`). */
  token: string;
  /** Developer user identifier. */
  uuid: string;
}

/** Platform type of a client application (spec 5.2). */
export type PlatformType = "web" | "desktop" | "game";

/** Body of `POST /v1/dev-user/clients`: registers a client application. */
export interface ClientRegistrationRequest {
  name: string;
  /** Exact redirect URIs; loopback URIs have the form `http://127.0.0.1:{port}/callback`. */
  redirect_uris: string[];
  /** Download URL of the app (required by validation, spec 5.2). */
  download_url: string;
  /** Web application URL (required by validation, spec 5.2). */
  web_url: string;
  platform: PlatformType;
  /** Whether the content needs blockchain authorization (adds `content_address`). */
  blockchain: boolean;
}

/** A registered client application, as the developer center lists it (never with its secret). */
export interface ClientApplication {
  client_id: string;
  name: string;
  redirect_uris: string[];
  download_url: string;
  web_url: string;
  platform: PlatformType;
  blockchain: boolean;
  created_at: string;
}

/** Answer to a registration: the only time `client_secret` is ever shown. */
export interface ClientRegistrationResponse extends ClientApplication {
  success: true;
  client_secret: string;
}
