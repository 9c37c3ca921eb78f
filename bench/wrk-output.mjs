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
