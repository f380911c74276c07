// The soak (not a test; bench/soak.sh sets up the screen and runs it): one ciu-agent MCP server, alive for the
// whole run, doing a task loop on the fixture app while the screen keeps changing around it. Every minute it
// prints one JSON line: the server's resident memory and CPU, the recordings' size on disk, the tasks done,
// and the recordings' frame counters (dropped = the encoder fell behind). At the end a summary with the
// memory trend (least squares over the minutes after the first five, in MB per hour).
//   node soak.mjs /path/to/ciu-agent :DISPLAY MINUTES DATA_DIR
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fs from 'node:fs';
import path from 'node:path';

const [agent, display, minutesArg = '60', dataDir] = process.argv.slice(2);
if (!agent || !display || !dataDir) {
  console.error('usage: node soak.mjs /path/to/ciu-agent :DISPLAY MINUTES DATA_DIR');
  process.exit(2);
}
const minutes = Number(minutesArg);
const env = { ...process.env, XDG_DATA_HOME: dataDir };
const transport = new StdioClientTransport({
  command: agent,
  args: ['mcp', '--display', display, '--execute', '--max-actions-per-minute', '0'],
  env,
  stderr: 'ignore',
});
const client = new Client({ name: 'ciu-soak', version: '1.0.0' }, { capabilities: {} });
await client.connect(transport, { timeout: 120000 });
const pid = transport.pid;

// Warm-up: until the first analysis has mapped the fixture.
for (const t0 = Date.now(); Date.now() - t0 < 120000;) {
  const r = await client.callTool({ name: 'get_zones', arguments: {} });
  if (r.structuredContent?.total > 0)
    break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const ticksPerSecond = 100; // USER_HZ on Linux

function readRssKb() {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

function readCpuTicks() {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function walk(dir, visit) {
  let entries = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory())
      walk(p, visit);
    else if (e.isFile())
      visit(p);
  }
}

function recordings() {
  let bytes = 0;
  const frames = { received: 0, encoded: 0, dropped: 0, unchanged: 0 };
  let sessions = 0;
  walk(dataDir, (file) => {
    bytes += fs.statSync(file).size;
    if (path.basename(file) !== 'metadata.json')
      return;
    try {
      const stats = JSON.parse(fs.readFileSync(file, 'utf8')).recording ?? {};
      ++sessions;
      frames.received += stats.frames_received ?? 0;
      frames.encoded += stats.frames_encoded ?? 0;
      frames.dropped += stats.frames_dropped ?? 0;
      frames.unchanged += stats.frames_unchanged ?? 0;
    } catch {
      // being rewritten: counted at the next sample
    }
  });
  return { bytes, sessions, frames };
}

const tasks = [
  'click Subscribe',
  'type "soak" into Name',
  'click Remember me',
  'click Second',
  'click Main',
];
const outcomes = {};
let done = 0;
let taskMsTotal = 0;
const samples = [];
const start = Date.now();
let lastWall = start;
let lastTicks = readCpuTicks();
let nextSample = start + 60000;

function sample() {
  const now = Date.now();
  const ticks = readCpuTicks();
  const cpuPercent = (100 * (ticks - lastTicks) / ticksPerSecond) / ((now - lastWall) / 1000);
  lastWall = now;
  lastTicks = ticks;
  const s = {
    minute: Math.round((now - start) / 60000),
    rss_mb: Math.round(readRssKb() / 102.4) / 10,
    cpu_percent: Math.round(cpuPercent * 10) / 10,
    tasks: done,
    outcomes: { ...outcomes },
    recordings: recordings(),
  };
  samples.push(s);
  console.log(JSON.stringify(s));
}

while (Date.now() - start < minutes * 60000) {
  const task = tasks[done % tasks.length];
  const t0 = Date.now();
  let outcome;
  try {
    const r = await client.callTool({ name: 'run_task', arguments: { task, provider: 'local' } }, undefined,
                                    { timeout: 240000 });
    outcome = r.structuredContent?.outcome ?? (r.isError ? 'error' : 'unknown');
  } catch (e) {
    outcome = `call failed: ${e.message}`;
  }
  taskMsTotal += Date.now() - t0;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  ++done;
  if (Date.now() >= nextSample) {
    sample();
    nextSample += 60000;
  }
}
if (Date.now() - lastWall > 10000)
  sample(); // the last part minute

// Memory trend after the warm-up (the first five minutes load models, fonts and caches).
const steady = samples.filter((s) => s.minute >= 5);
let slope = null;
if (steady.length >= 2) {
  const n = steady.length;
  const mx = steady.reduce((a, s) => a + s.minute, 0) / n;
  const my = steady.reduce((a, s) => a + s.rss_mb, 0) / n;
  const sxy = steady.reduce((a, s) => a + (s.minute - mx) * (s.rss_mb - my), 0);
  const sxx = steady.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  slope = Math.round((sxy / sxx) * 60 * 10) / 10;
}
const rss = samples.map((s) => s.rss_mb);
const cpu = samples.map((s) => s.cpu_percent);
console.log(JSON.stringify({
  summary: true,
  minutes,
  tasks: done,
  outcomes,
  task_ms_mean: done ? Math.round(taskMsTotal / done) : null,
  rss_mb: { first: rss[0], last: rss[rss.length - 1], max: Math.max(...rss), trend_mb_per_hour: slope },
  cpu_percent_mean: Math.round((cpu.reduce((a, c) => a + c, 0) / cpu.length) * 10) / 10,
  recordings: samples[samples.length - 1].recordings,
}));
await client.close();
