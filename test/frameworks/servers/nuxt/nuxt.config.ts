// A minimal Nuxt app that serves MCP (Streamable HTTP on /mcp) with @nuxtjs/mcp-toolkit, its definitions in server/mcp/
// and the policy in server/plugins/mcp-error-policy.ts. Built by scripts/frameworks.sh, run by test/frameworks/nuxt.test.ts.
export default defineNuxtConfig({
  modules: ['@nuxtjs/mcp-toolkit'],
  mcp: { name: 'sheets', version: '1.0.0' },
  compatibilityDate: '2026-01-01',
  devtools: { enabled: false },
  telemetry: false,
});
