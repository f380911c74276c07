// A scriptable MCP client on the official TypeScript SDK, for tests/e2e/tst_mcp_e2e: it reads one command a
// line (JSON) on stdin and answers each with one JSON line on stdout:
//   {"op":"connect","transport":"stdio","command":"/path/ciu-agent","args":[...],"elicitation":"none|accept|decline"}
//   {"op":"connect","transport":"http","url":"http://127.0.0.1:PORT/mcp","token":"..."}
//   {"op":"info"}  {"op":"listTools"}  {"op":"call","name":"click","arguments":{...},"progress":true}
//   {"op":"listResources"}  {"op":"readResource","uri":"ciu://sessions/..."}  {"op":"close"}
// A call that runs while other commands go on, and its cancellation (notifications/cancelled):
//   {"op":"start","handle":"h","name":"run_steps","arguments":{...},"progress":true}
//   {"op":"waitProgress","contains":"wait"}   (until a progress notification's message contains the text)
//   {"op":"cancel","handle":"h","reason":"..."}  {"op":"await","handle":"h"}  (the call's own answer)
// Answer: {"ok":true,"result":...} or {"ok":false,"error":"...","code":N}. "info" lists the elicitations and the
// progress notifications received. On connect the tool list is fetched, so that the SDK validates every
// structuredContent against the tool's outputSchema (it does once it knows the tools).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import readline from 'node:readline';

let client = null;
let transport = null;
const elicitations = [];
const progress = [];        // every notifications/progress received, in order
const progressWaiters = []; // {contains, resolve}
const started = new Map();  // handle -> {controller, outcome: Promise}
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
  await client.listTools(undefined, { timeout }); // the SDK caches the output schemas it validates against
  return {
    server: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    instructions: client.getInstructions(),
    protocolVersion: transport.protocolVersion ?? null,
  };
}

function onProgress(p) {
  progress.push(p);
  for (let i = progressWaiters.length - 1; i >= 0; --i) {
    if ((p.message ?? '').includes(progressWaiters[i].contains)) {
      progressWaiters[i].resolve(p);
      progressWaiters.splice(i, 1);
    }
  }
}

function callOptions(cmd, signal) {
  const options = { timeout, signal };
  if (cmd.progress)
    options.onprogress = onProgress;
  return options;
}

async function run(cmd) {
  switch (cmd.op) {
    case 'connect':
      return connect(cmd);
    case 'info':
      return { elicitations, progress };
    case 'listTools':
      return client.listTools(undefined, { timeout });
    case 'call':
      return client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, callOptions(cmd));
    case 'start': {
      const controller = new AbortController();
      const outcome = client
        .callTool({ name: cmd.name, arguments: cmd.arguments ?? {} }, undefined, callOptions(cmd, controller.signal))
        .then((result) => ({ ok: true, result }), (e) => ({ ok: false, error: String(e?.message ?? e), code: e?.code ?? null }));
      started.set(cmd.handle, { controller, outcome });
      return {};
    }
    case 'waitProgress': {
      const seen = progress.find((p) => (p.message ?? '').includes(cmd.contains));
      if (seen)
        return seen;
      return new Promise((resolve) => progressWaiters.push({ contains: cmd.contains, resolve }));
    }
    case 'cancel':
      started.get(cmd.handle).controller.abort(cmd.reason ?? 'cancelled by the test');
      return {};
    case 'await': {
      const { outcome } = started.get(cmd.handle);
      started.delete(cmd.handle);
      return outcome;
    }
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
      const cmd = JSON.parse(line);
      const result = await run(cmd);
      answer(cmd.op === 'await' ? result : { ok: true, result });
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
