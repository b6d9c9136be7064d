// SPDX-License-Identifier: GPL-3.0-or-later
//
// A small Node program profiled by the official Pyroscope SDK
// (@pyroscope/nodejs), pushing its wall and heap profiles to the server
// given as its first argument. It spends its time in embersBusyLoop and
// embersHashStrings, which the test then looks for in `embers --top`.
//
//   node node-push.js http://127.0.0.1:PORT SECONDS

'use strict';

const Pyroscope = require('@pyroscope/nodejs');
const crypto = require('node:crypto');

const server = process.argv[2];
const seconds = Number(process.argv[3] || 3);

Pyroscope.init({
  serverAddress: server,
  appName: 'embers-node-sdk',
  flushIntervalMs: 1000,
  tags: { region: 'eu-west-1' },
});
Pyroscope.start();

function embersBusyLoop (ms) {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) {
    x += Math.sqrt(x + 1);
  }
  return x;
}

// As long as the busy loop, whatever the machine's speed: 200 hashes
// took half a millisecond, 1% of the samples, and a busy machine's
// profile could hold none of them
function embersHashStrings (ms) {
  const end = Date.now() + ms;
  let h = '';
  for (let i = 0; Date.now() < end; i++) {
    h = crypto.createHash('sha256').update(h + i).digest('hex');
  }
  return h;
}

async function main () {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    embersBusyLoop(50);
    embersHashStrings(50);
    // let the profiler's timers run
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Pyroscope.stop();
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
