/**
 * Run by test/young-generation.test.ts in a Node of its own (V8's flags are per process), with
 * --max-semi-space-size=32: governs the young generation as the server does with the number
 * of parked polls given, allocates objects that survive a few scavenges (as parked polls'
 * requests do), starts a worker thread on the way, and prints the largest young generation
 * seen before the worker, when the server hears it runs, and after. Given a script's text too, it then prints that script's code cache made as the server
 * makes its own (withFlagsAsAtStart), and one made without it, for a fresh Node to read.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { flagsForNewWorker, governYoungGeneration, withFlagsAsAtStart } from '../../lib/memory/young-generation';

const parked = Number(process.argv[2]);
governYoungGeneration(() => parked);
const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
const survivors: unknown[] = new Array(60_000);
let next = 0;
/** Allocates for `rounds` turns, and answers the largest young generation seen meanwhile. */
async function allocate(rounds: number): Promise<number> {
  let largest = 0;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 20_000; i++) survivors[next++ % survivors.length] = { round, i, text: `x${i}` };
    largest = Math.max(largest, youngBytes());
    // The governor hears of each collection between turns, as in the server.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return largest;
}
void (async () => {
  const beforeWorker = await allocate(200);
  // A worker thread started, as the server starts its checkpointer (which sets the flags it is
  // given first); the young generation's size once the server has heard that it runs.
  const source = "const { workerData } = require('node:worker_threads'); for (const flag of workerData) require('node:v8').setFlagsFromString(flag); setTimeout(() => {}, 100);";
  const worker = new Worker(source, { eval: true, workerData: flagsForNewWorker() });
  worker.unref();
  let whenRunning = 0;
  worker.once('online', () => (whenRunning = youngBytes()));
  while (!whenRunning) await allocate(1);
  const afterWorker = await allocate(200);
  const text = process.argv[3];
  const script = text === undefined ? undefined : new vm.Script(text);
  const cache = script && {
    asAtStart: withFlagsAsAtStart(() => script.createCachedData()).toString('base64'),
    asNow: script.createCachedData().toString('base64'),
  };
  const mb = (bytes: number) => bytes / 2 ** 20;
  console.log(JSON.stringify({ beforeWorkerMb: mb(beforeWorker), whenWorkerRunsMb: mb(whenRunning), afterWorkerMb: mb(afterWorker), cache }));
})();
