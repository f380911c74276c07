// A scriptable MCP client on the official TypeScript SDK, for tests/e2e/tst_mcp_e2e: it reads one command a
// line (JSON) on stdin and answers each with one JSON line on stdout:
//   {"op":"connect","transport":"stdio","command":"/path/ciu-agent","args":[...],"elicitation":"none|accept|decline"}
//   {"op":"connect","transport":"http","url":"http://127.0.0.1:PORT/mcp","token":"..."}
//   {"op":"info"}  {"op":"listTools"}  {"op":"call","name":"click","arguments":{...}}
//   {"op":"listResources"}  {"op":"readResource","uri":"ciu://sessions/..."}  {"op":"close"}
// Answer: {"ok":true,"result":...} or {"ok":false,"error":"...","code":N}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import readline from 'node:readline';

let client = null;
let transport = null;
const elicitations = [];
const timeout = 240000; // a tool call runs a whole task

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function connect(cmd) {
  const capabilities = cmd.elicitation && cmd.elicitation !== 'none' ? { elicitation: {} } : {};
  client = new Client({ name: 'ciu-e2e-client', version: '1.0.0' }, { capabilities });
  if (cmd.elicitation && cmd.elicitation !== 'none') {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      if (cmd.elicitation === 'accept')
        return { action: 'accept', content: { approve: true } };
      return { action: 'decline' };
    });
  }
  if (cmd.transport === 'http') {
    const headers = cmd.token ? { Authorization: `Bearer ${cmd.token}` } : {};
    transport = new StreamableHTTPClientTransport(new URL(cmd.url), { requestInit: { headers } });
  } else {
    transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, env: process.env, stderr: 'inherit' });
  }
  await client.connect(transport, { timeout });
  return {
    server: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    protocolVersion: transport.protocolVersion ?? null,
  };
}

async function run(cmd) {
  switch (cmd.op) {
    case 'connect':
      return connect(cmd);
    case 'info':
      return { elicitations };
    case 'listTools':
      return client.listTools(undefined, { timeout });
    case 'call':
      return client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, { timeout });
    case 'listResources':
      return client.listResources(undefined, { timeout });
    case 'readResource':
      return client.readResource({ uri: cmd.uri }, { timeout });
    case 'close':
      await client.close();
      return {};
    default:
      throw new Error(`unknown op ${cmd.op}`);
  }
}

const lines = readline.createInterface({ input: process.stdin });
// One command at a time, in order.
let queue = Promise.resolve();
lines.on('line', (line) => {
  if (!line.trim())
    return;
  queue = queue.then(async () => {
    try {
      answer({ ok: true, result: await run(JSON.parse(line)) });
    } catch (e) {
      answer({ ok: false, error: String(e?.message ?? e), code: e?.code ?? null });
    }
  });
});
lines.on('close', () => {
  queue.then(async () => {
    if (client)
      await client.close().catch(() => {});
    process.exit(0);
  });
});
