// mcpparams.cjs drives `pumasi mcp` with the TypeScript MCP SDK client the
// MCP Inspector ships (@modelcontextprotocol/client), a client nobody here
// wrote, and prints the JSON-RPC error code (or "ok") of each call whose
// parameters are checked: prompt budgets, the tool's budget (a tool error
// is "isError"), subscriptions to foreign, missing and real URIs.
// Usage: MCP_MODULES=<node_modules> node mcpparams.cjs <pumasi> mcp --agent A --home H
const load = (m) => require(require.resolve(m, { paths: [process.env.MCP_MODULES] }));
const { Client } = load("@modelcontextprotocol/client");
const { StdioClientTransport } = load("@modelcontextprotocol/client/stdio");

(async () => {
  const transport = new StdioClientTransport({ command: process.argv[2], args: process.argv.slice(3) });
  const client = new Client({ name: "pumasi-params-check", version: "1.0.0" });
  await client.connect(transport);
  const out = {};
  const code = async (name, f) => {
    try {
      const res = await f();
      out[name] = res && res.isError ? "isError" : "ok";
    } catch (e) {
      out[name] = e.code;
    }
  };
  const prompt = (budget) => () => client.getPrompt({ name: "shared_context", arguments: { budget } });
  await code("prompt budget 0", prompt("0"));
  await code("prompt budget 4194304", prompt("4194304"));
  await code("prompt budget -1", prompt("-1"));
  await code("prompt budget 4194305", prompt("4194305"));
  await code("prompt budget 2.5", prompt("2.5"));
  const tool = (budget) => () => client.callTool({ name: "shared_context", arguments: { budget } });
  await code("tool budget 0", tool(0));
  await code("tool budget 4194304", tool(4194304));
  await code("tool budget -1", tool(-1));
  await code("subscribe foreign", () => client.subscribeResource({ uri: "file:///etc/passwd" }));
  await code("subscribe bad name", () => client.subscribeResource({ uri: "pumasi://shared/..%2Fx" }));
  await code("subscribe missing", () => client.subscribeResource({ uri: "pumasi://shared/nope.md" }));
  await code("subscribe ours", () => client.subscribeResource({ uri: "pumasi://shared/spec.md" }));
  console.log(JSON.stringify(out));
  await client.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
