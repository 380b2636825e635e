#!/usr/bin/env bash
# Bundle size of each SDK's popup-login entry, measured the same way (BENCHMARKING.md):
# esbuild --bundle --minify --format=esm --platform=browser, then gzip -9 | wc -c.
# The peers are installed OUTSIDE the repository:
#   mkdir -p /tmp/peers && cd /tmp/peers && npm init -y >/dev/null &&
#   npm install oidc-client-ts@3.5.0 @auth0/auth0-spa-js@2.27.0 @azure/msal-browser@5.29.0 esbuild@0.27
# Usage (after `npx tsup` here): bash scripts/measure-peers.sh /tmp/peers
set -euo pipefail
PEERS=${1:-/tmp/peers}
SDK=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d -p "$PEERS")
trap 'rm -rf "$work"' EXIT
declare -A entries=(
  ["@slotgate/client-sdk 3.0.0 (Slotgate: login)"]="export { Slotgate } from '$SDK/dist/index.js';"
  ["oidc-client-ts $(node -p "require('$PEERS/node_modules/oidc-client-ts/package.json').version") (UserManager: signinPopup)"]="export { UserManager } from 'oidc-client-ts';"
  ["@auth0/auth0-spa-js $(node -p "require('$PEERS/node_modules/@auth0/auth0-spa-js/package.json').version") (Auth0Client: loginWithPopup)"]="export { Auth0Client } from '@auth0/auth0-spa-js';"
  ["@azure/msal-browser $(node -p "require('$PEERS/node_modules/@azure/msal-browser/package.json').version") (PublicClientApplication: loginPopup)"]="export { PublicClientApplication } from '@azure/msal-browser';"
)
printf '| entry | min (bytes) | min+gzip (bytes) |\n|---|---:|---:|\n'
for name in "${!entries[@]}"; do
  printf '%s\n' "${entries[$name]}" > "$work/entry.js"
  "$PEERS/node_modules/.bin/esbuild" "$work/entry.js" --bundle --minify --format=esm --platform=browser \
    --log-level=error --outfile="$work/out.js"
  printf '| %s | %s | %s |\n' "$name" "$(wc -c < "$work/out.js")" "$(gzip -9 -c "$work/out.js" | wc -c)"
done | sort -t'|' -k4 -n
