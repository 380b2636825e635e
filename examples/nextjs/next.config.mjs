/** @type {import("next").NextConfig} */
const nextConfig = {
  // The backend SDK runs in Node route handlers as the package it is (not bundled).
  serverExternalPackages: ["@slotgate/backend-sdk"],
  poweredByHeader: false,
};

export default nextConfig;
