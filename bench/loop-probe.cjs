/**
 * A measuring aid for bench/day.ts --trace, loaded into the server with `node --require`: once
 * a second it appends one JSON line to the file named by STOA_LOOP_PROBE_FILE with what the
 * server's event loop did in that second: how late its turns ran (perf_hooks'
 * monitorEventLoopDelay: p50, p99, max), the garbage collector's pauses (count, total, longest),
 * connections accepted, requests begun and answered, and the slowest answer's time from its
 * request's first byte to its last byte written, by path. It tells a server that stalls (long
 * turns, long pauses) from one that is merely busy, and both from waits outside the server.
 * Its CPU figure is the whole process's (worker threads included). Not part of the server: it
 * only observes.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const http = require('node:http');
const { monitorEventLoopDelay, PerformanceObserver, performance } = require('node:perf_hooks');

const { isMainThread } = require('node:worker_threads');

const file = process.env.STOA_LOOP_PROBE_FILE;
// `--require` loads this into the server's worker threads too (the checkpointer): only the
// main thread serves requests.
if (file && isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });

  let connections = 0;
  let requests = 0;
  let answered = 0;
  let slowest = { ms: 0, what: '' };
  // Counted where Node's HTTP server emits them, before the application sees anything.
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'connection') connections++;
    else if (event === 'request') {
      requests++;
      const [req, res] = args;
      const began = performance.now();
      res.once('finish', () => {
        answered++;
        const ms = performance.now() - began;
        // A parked long poll is slow by design: it is not a wait.
        if (ms > slowest.ms && !req.url.startsWith('/api/v1/events')) slowest = { ms, what: `${req.method} ${req.url.split('?')[0]}` };
      });
    }
    return emit.call(this, event, ...args);
  };

  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const cpu = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const line = {
      at: Date.now(),
      loopP50: ms(delay.percentile(50)),
      loopP99: ms(delay.percentile(99)),
      loopMax: ms(delay.max),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      gcCount: gc.count,
      gcMs: Math.round(gc.totalMs),
      gcMaxMs: Math.round(gc.maxMs),
      connections,
      requests,
      answered,
      slowestMs: Math.round(slowest.ms),
      slowest: slowest.what,
      heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
    gc = { count: 0, totalMs: 0, maxMs: 0 };
    connections = requests = answered = 0;
    slowest = { ms: 0, what: '' };
  }, 1000).unref();
}
