// Figures for the MCP server (not a test): round-trip times of get_zones and of click on a known zone, and
// the size of get_zones in tokens against a screenshot of the same screen.
//   node roundtrip.mjs /path/to/ciu-agent :DISPLAY TARGET [N]
// Tokens: text ≈ characters / 4; an image ≈ width × height / 750 (Anthropic's estimate for Claude).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [agent, display, target, n = '10'] = process.argv.slice(2);
const runs = Number(n);
const client = new Client({ name: 'ciu-roundtrip', version: '1.0.0' }, { capabilities: {} });
await client.connect(new StdioClientTransport({
  command: agent, args: ['mcp', '--display', display, '--execute', '--no-record', '--max-actions-per-minute', '0'],
  stderr: 'ignore',
}), { timeout: 120000 });

async function time(name, args) {
  const times = [];
  let last = null;
  for (let i = 0; i < runs; ++i) {
    const t0 = process.hrtime.bigint();
    last = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { last, median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
}

// Warm-up: until the first full analysis is in (the engine is ready with its first map, which may be empty).
for (const t0 = Date.now(); Date.now() - t0 < 120000;) {
  const r = await client.callTool({ name: 'get_zones', arguments: {} });
  if (r.structuredContent?.total > 0)
    break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const zones = await time('get_zones', {});
const click = await time('click', { target });
const shot = await client.callTool({ name: 'screenshot', arguments: {} });
const text = zones.last.content.map((c) => c.text ?? '').join('');
const json = JSON.stringify(zones.last.structuredContent);
const { width, height } = shot.structuredContent;
console.log(JSON.stringify({
  runs,
  get_zones_ms: { median: zones.median, min: zones.min, max: zones.max },
  click_ms: { median: click.median, min: click.min, max: click.max, error: click.last.isError },
  zones: zones.last.structuredContent.total,
  get_zones_text_chars: text.length,
  get_zones_text_tokens: Math.round(text.length / 4),
  get_zones_structured_tokens: Math.round(json.length / 4),
  screenshot: { width, height, tokens: Math.round((width * height) / 750) },
}));
await client.close();
