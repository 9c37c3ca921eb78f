// What the bench scripts read from wrk's output (`--latency`): requests a second, the 99th
// percentile latency in milliseconds, and how many answers were not 2xx or 3xx.

/** `value` of wrk's `unit` (us, ms, s) in milliseconds. */
function toMs(value, unit) {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);
}

/** `{ rps, p99Ms, errors }` of one wrk run's standard output. */
export function wrkNumbers(stdout) {
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]),
    p99Ms: p99 ? toMs(p99[1], p99[2]) : Number.NaN,
    errors: errors ? Number(errors[1]) : 0,
  };
}

/**
 * `measure(key)` (one wrk run's numbers) for each of `keys` in each of `rounds` rounds, their order
 * reversed every other round, averaged: `{ [key]: { rps, p99Ms, errors } }`, the errors summed.
 */
export function alternatedRounds(keys, rounds, measure) {
  const totals = Object.fromEntries(keys.map((key) => [key, { rps: 0, p99Ms: 0, errors: 0 }]));
  for (let round = 0; round < rounds; round++) {
    for (const key of round % 2 === 0 ? keys : [...keys].reverse()) {
      const r = measure(key);
      totals[key].rps += r.rps / rounds;
      totals[key].p99Ms += r.p99Ms / rounds;
      totals[key].errors += r.errors;
    }
  }
  return totals;
}
