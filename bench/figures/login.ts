// Password sign-in (POST /v1/auth/login) of the real server against raw
// argon2 verification of the same stored hash, in one run (target ≥ 0.9×):
// what the sign-in path costs besides argon2 — rate-limit counter, lockout
// row, user lookup, session and audit inserts, HTTP and JSON.
//   - A user with a known password is inserted into the bench database (no
//     password change pending), so that every sign-in succeeds with 200; any
//     other answer counts as a failure and is reported.
//   - The per-IP sign-in limit (60 per minute, contract §4.5) would refuse
//     almost every request: the load generator connects from 127.0.0.1, a
//     trusted proxy by default (§4.6), and sends a new X-Forwarded-For address
//     with each request, so each one counts for a different client.
//   - The baseline is a bare child process (bench/argon2-verify.ts) pinned to
//     the same core, with the same libuv thread-pool size (UV_THREADPOOL_SIZE,
//     which the server's config reads) and as many verifications in flight as
//     the load has connections. Measured runs alternate, baseline first and
//     last (ROUNDS sign-in runs, ROUNDS + 1 baseline runs, averaged on each
//     side), so that a change in the machine's speed falls on both sides;
//     the server stays up, idle, through the baseline runs.
//   - The sign-ins' warm-up lasts until the server has answered at least
//     WARMUP_SIGN_INS of them, in loads of the run's warm-up length: V8
//     optimises a function after some hundreds of calls, and most of the
//     sign-in path's functions run once per sign-in, about 40 a second: a
//     few seconds' warm-up left the measured window compiling and
//     interpreting them, a start-up cost a running server does not pay
//     (decision 0132).
//   - Both measured windows start with nothing left over from their warm-up:
//     the baseline waits for its warm-up's verifications, and after the
//     sign-ins' last warm-up load the figure waits until the server has
//     finished the sign-ins whose clients that load dropped when it stopped
//     (the server completes them all: up to one per connection, each with
//     its verification). Measured right after the warm-up instead, the
//     window would spend about a second of the core on those.
//   - A second row compares the same per CPU second that the server and the
//     baseline process used, which other work on the machine disturbs less.
//   - The rows' detail gives the main thread's CPU per sign-in and per
//     baseline verification (mainThreadMs, baselineMainThreadMs): the work
//     the sign-in path adds runs there, while argon2 runs on the thread
//     pool, so their difference is what the ratio misses 1.0 by, in a unit
//     that does not move with the machine's argon2 speed. (V8's own CPU
//     profile of the pinned server counts most of that thread's time as
//     idle: its sampler shares the core with the verifications.)
import { setTimeout } from "node:timers/promises";
import { runChildScript, startChildServer, type ChildServer } from "../harness/child-server.ts";
import { stderrLogger } from "../harness/database.ts";
import { http1Load, type Http1Target } from "../harness/http1-load.ts";
import { describeLoad, meanLoad, type LoadResult } from "../harness/load-result.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";
import { loadConfig } from "../../shared/platform/config.ts";
import { createDb } from "../../shared/platform/db.ts";
import { makeUser } from "../../test/helpers/users.ts";

const LOGIN_ID = "bench-login";
const PASSWORD = "Bench-Login-Pass-9";
const TARGET: Target = { on: "ratio", min: 0.9 };
/** Past V8's Maglev threshold (400 calls) for the functions called once per sign-in. */
const WARMUP_SIGN_INS = 600;
/** Measured sign-in runs, each followed by a baseline run (and the first preceded by one). */
const ROUNDS = 3;

let addressCounter = 0;
/** A new client address per request: 10.0.0.1, 10.0.0.2, … (16 million before one repeats). */
function nextClientAddress(): string {
  const n = ++addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

const LOGIN_BODY = JSON.stringify({ loginId: LOGIN_ID, password: PASSWORD });

const loginTarget = (port: number): Http1Target => ({
  url: `http://127.0.0.1:${port}/v1/auth/login`,
  method: "POST",
  headers: { "content-type": "application/json" },
  body: LOGIN_BODY,
  perRequestHeaders: () => ({ "x-forwarded-for": nextClientAddress() }),
});

export const loginFigure: Figure = {
  name: "login",
  description: "password sign-in over REST vs raw argon2.verify of the same hash, same core, thread pool and concurrency",
  async run(context: BenchContext): Promise<Row[]> {
    const threadPool = String(loadConfig([], { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE }).threadPoolSize);
    const hash = await createBenchUser(context.databaseUrl);
    note(`user ${LOGIN_ID} created; libuv thread pool ${threadPool} in the server and the baseline`);
    const baseline = () =>
      runChildScript<LoadResult>(
        "argon2-verify.ts",
        {
          BENCH_HASH: hash,
          BENCH_PASSWORD: PASSWORD,
          BENCH_CONCURRENCY: String(context.connections),
          // Native code with nothing to compile: a second settles its threads.
          BENCH_WARMUP_S: String(Math.min(context.warmupS, 1)),
          BENCH_DURATION_S: String(context.durationS),
          UV_THREADPOOL_SIZE: threadPool,
        },
        context.cpuProfDir,
      );

    const baselines: LoadResult[] = [];
    const signIns: LoadResult[] = [];
    const measureBaseline = async () => {
      note("measuring argon2.verify alone");
      baselines.push(await baseline());
      note(describeLoad("argon2.verify", baselines.at(-1)!));
    };
    let server: ChildServer | undefined;
    try {
      server = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl, UV_THREADPOOL_SIZE: threadPool }, context.cpuProfDir);
      await checkLogin(server.port);
      const load = (durationS: number) => http1Load(loginTarget(server!.port), { ...context, warmupS: 0, durationS, serverPid: server!.pid });
      if (context.warmupS > 0) await warmUp(context, load);
      await measureBaseline();
      for (let round = 1; round <= ROUNDS; round++) {
        note(`measuring sign-in (round ${round} of ${ROUNDS})`);
        signIns.push(await load(context.durationS));
        note(describeLoad("sign-in", signIns.at(-1)!));
        await leftoversFinished(context, signIns.at(-1)!);
        await measureBaseline();
      }
    } finally {
      await server?.stop();
    }
    const logins = meanLoad(...signIns);
    const verify = meanLoad(...baselines);
    const mainThreadMs = mainThreadMsPer(logins);
    const baselineMainThreadMs = mainThreadMsPer(verify);
    const remarks = [
      "baseline: raw argon2.verify/s",
      mainThreadMs !== undefined ? `main thread ${mainThreadMs} ms per sign-in, ${baselineMainThreadMs ?? "?"} ms per verification` : undefined,
      verify.drift > 0.1 ? `baseline runs differ by ${Math.round(verify.drift * 100)}%` : undefined,
      logins.failed ? `${logins.failed} sign-ins FAILED (not 200)` : undefined,
      verify.failed ? `${verify.failed} verifications failed` : undefined,
    ];
    return [
      {
        name: "login.rest",
        value: round1(logins.rps),
        unit: "logins/s",
        baseline: round1(verify.rps),
        ratio: ratioOf(logins.rps, verify.rps),
        targets: [TARGET],
        detail: {
          p50Ms: logins.p50Ms,
          p99Ms: logins.p99Ms,
          baselineP50Ms: verify.p50Ms,
          baselineP99Ms: verify.p99Ms,
          serverCpu: logins.serverCpu,
          generatorCpu: logins.generatorCpu,
          mainThreadMs,
          baselineMainThreadMs,
          note: remarks.filter(Boolean).join("; "),
        },
      },
      perCoreRow(logins, baselines),
    ];
  },
};

/** Loads of the run's warm-up length until WARMUP_SIGN_INS sign-ins have been answered, then their leftovers. */
async function warmUp(context: BenchContext, load: (durationS: number) => Promise<LoadResult>): Promise<void> {
  let answered = 0;
  let last: LoadResult;
  do {
    note(`warming up the server (${answered} of ${WARMUP_SIGN_INS} sign-ins)`);
    last = await load(context.warmupS);
    answered += last.ok;
  } while (answered < WARMUP_SIGN_INS && last.ok > 0); // a load that answers none would never end it
  await leftoversFinished(context, last);
}

/**
 * Waits for the sign-ins still in the server when a load stopped (their
 * clients are gone, the server completes them): at most one per connection.
 */
function leftoversFinished(context: BenchContext, stopped: LoadResult): Promise<void> {
  return setTimeout((context.connections / Math.max(1, stopped.rps) + 1) * 1000);
}

/**
 * The same comparison per CPU second the server and the baseline used: on a
 * machine where other work takes a share of the server core, this ratio
 * still shows what a sign-in costs besides its verification.
 */
function perCoreRow(logins: LoadResult, baselines: readonly LoadResult[]): Row {
  const perCore = (r: LoadResult) => (r.serverCpu ? r.rps / r.serverCpu : 0);
  const baseline = baselines.reduce((sum, r) => sum + perCore(r), 0) / baselines.length;
  const value = perCore(logins);
  return {
    name: "login.rest_per_core",
    value: round1(value),
    unit: "logins/core-s",
    baseline: round1(baseline),
    ratio: ratioOf(value, baseline),
    targets: [TARGET],
    detail: { serverCpu: logins.serverCpu, note: "per CPU second of the server / of the argon2.verify process" },
  };
}

/** Inserts the bench user with the server's hash parameters; answers its stored hash. */
async function createBenchUser(databaseUrl: string): Promise<string> {
  const db = await createDb(databaseUrl, stderrLogger(), { maxPoolSize: 1 });
  try {
    const user = await makeUser(db, LOGIN_ID, PASSWORD);
    if (!user.passwordHash) throw new Error("the bench user has no password hash");
    return user.passwordHash;
  } finally {
    await db.end();
  }
}

/** One sign-in before the load: anything but a 200 with a token and no pending password change stops the figure. */
async function checkLogin(port: number): Promise<void> {
  const t = loginTarget(port);
  const res = await fetch(t.url, { method: t.method, headers: { ...t.headers, ...t.perRequestHeaders!() }, body: LOGIN_BODY });
  const body = (await res.json()) as { accessToken?: string; requireResetPassword?: boolean };
  if (res.status !== 200 || !body.accessToken || body.requireResetPassword) {
    throw new Error(`sign-in: unexpected answer (HTTP ${res.status}): ${JSON.stringify(body)}`);
  }
}

/** Milliseconds of main-thread CPU per answered request (sign-in or verification). */
function mainThreadMsPer(load: LoadResult): number | undefined {
  return load.serverMainThreadCpu === undefined || load.rps === 0 ? undefined : Math.round((load.serverMainThreadCpu / load.rps) * 1000 * 100) / 100;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
