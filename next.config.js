/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and Node-only packages stay outside Next's bundles and are loaded
  // from node_modules at run time (one copy shared with server.ts).
  serverExternalPackages: ["better-sqlite3", "sharp", "socket.io", "file-type", "playwright-core"],
  // `npm test` type-checks the whole project with tsc first; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
