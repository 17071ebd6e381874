/**
 * Run by test/young-generation.test.ts in a Node of its own (V8's flags are per process), with
 * --max-semi-space-size=32: governs the young generation as the server does with the number
 * of parked polls given, allocates objects that survive a few scavenges (as parked polls'
 * requests do), and prints the largest young generation seen. Given a script's text too, it
 * then prints that script's code cache made as the server makes its own (withFlagsAsAtStart),
 * and one made without it, for a fresh Node to read.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { governYoungGeneration, withFlagsAsAtStart } from '../../lib/memory/young-generation';

const parked = Number(process.argv[2]);
governYoungGeneration(() => parked);
const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
let largest = 0;
const survivors: unknown[] = new Array(60_000);
let next = 0;
void (async () => {
  for (let round = 0; round < 200; round++) {
    for (let i = 0; i < 20_000; i++) survivors[next++ % survivors.length] = { round, i, text: `x${i}` };
    largest = Math.max(largest, youngBytes());
    // The governor hears of each collection between turns, as in the server.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const text = process.argv[3];
  const script = text === undefined ? undefined : new vm.Script(text);
  const cache = script && {
    asAtStart: withFlagsAsAtStart(() => script.createCachedData()).toString('base64'),
    asNow: script.createCachedData().toString('base64'),
  };
  console.log(JSON.stringify({ largestMb: largest / 2 ** 20, cache }));
})();
