// GetActuatorInfo (svc.v1.ActuatorService/GetActuatorInfo) through every
// transport of the real server, each against a bare Fastify route that returns
// the same JSON, all measured in one run:
//   REST, Connect JSON, Connect binary — HTTP/1.1 with autocannon, against the
//     bare route over HTTP/1.1 (GET), in rounds alternating with it (means).
//   gRPC — needs HTTP/2, which autocannon lacks: our h2 generator (h2-load.ts)
//     POSTs gRPC-framed empty requests over h2c; its baseline is the bare route
//     requested with GET over h2c by the same generator, with the same sessions
//     and concurrency (a GET needs no body parser in the bare route; the gRPC
//     request body is only 5 bytes).
// Targets: REST ≥ 0.5 of the bare route, the RPC forms (Connect, gRPC) ≥ 0.3.
import { isDeepStrictEqual } from "node:util";
import { fromBinary, toJson } from "@bufbuild/protobuf";
import { ActuatorInfoSchema } from "../../shared/gen/svc/v1/actuator_service_pb.js";
import { startChildServer, type ChildServer } from "../harness/child-server.ts";
import { h2Call, h2Load, openSessions, type H2Target } from "../harness/h2-load.ts";
import { http1Load, type Http1Target } from "../harness/http1-load.ts";
import { alternateLoads, describeLoad, type LoadResult, type LoadTarget, throughputRow } from "../harness/load-result.ts";
import { note, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";

const REST_PATH = "/v1/actuator/info";
const RPC_PATH = "/svc.v1.ActuatorService/GetActuatorInfo";
const GRPC_EMPTY_MESSAGE = Buffer.from([0, 0, 0, 0, 0]); // uncompressed flag + length 0

interface Http1Case {
  name: string;
  target: (port: number) => Http1Target;
  check: (res: Response, expected: unknown) => Promise<boolean>;
  ratioTarget: Target;
}

/** Rounds of the HTTP/1.1 targets, each alternating with the bare route. */
const ROUNDS = 2;

const REST_TARGET: Target = { on: "ratio", min: 0.5 };
const RPC_TARGET: Target = { on: "ratio", min: 0.3 };

const HTTP1_CASES: Http1Case[] = [
  {
    name: "rest",
    target: (port) => ({ url: `http://127.0.0.1:${port}${REST_PATH}`, method: "GET" }),
    check: async (res, expected) => res.ok && isDeepStrictEqual(await res.json(), expected),
    ratioTarget: REST_TARGET,
  },
  {
    name: "connect_json",
    target: (port) => ({
      url: `http://127.0.0.1:${port}${RPC_PATH}`,
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      body: "{}",
    }),
    check: async (res, expected) => res.ok && isDeepStrictEqual(await res.json(), expected),
    ratioTarget: RPC_TARGET,
  },
  {
    name: "connect_proto",
    target: (port) => ({
      url: `http://127.0.0.1:${port}${RPC_PATH}`,
      method: "POST",
      headers: { "content-type": "application/proto", "connect-protocol-version": "1", "content-length": "0" },
    }),
    check: async (res, expected) =>
      res.ok && isDeepStrictEqual(toJson(ActuatorInfoSchema, fromBinary(ActuatorInfoSchema, new Uint8Array(await res.arrayBuffer()))), expected),
    ratioTarget: RPC_TARGET,
  },
];

const grpcTarget = (port: number): H2Target => ({
  origin: `http://127.0.0.1:${port}`,
  headers: { ":method": "POST", ":path": RPC_PATH, "content-type": "application/grpc", te: "trailers" },
  body: GRPC_EMPTY_MESSAGE,
  // A trailers-only response carries grpc-status in its headers.
  accept: (headers, trailers) => Number(headers[":status"]) === 200 && (trailers["grpc-status"] ?? headers["grpc-status"]) === "0",
});

const bareHttp1Target = (port: number): Http1Target => ({ url: `http://127.0.0.1:${port}${REST_PATH}`, method: "GET" });

const bareH2Target = (port: number): H2Target => ({
  origin: `http://127.0.0.1:${port}`,
  headers: { ":method": "GET", ":path": REST_PATH },
  accept: (headers) => Number(headers[":status"]) === 200,
});

export const actuatorFigure: Figure = {
  name: "actuator",
  description: "GetActuatorInfo over REST, Connect JSON, Connect binary (HTTP/1.1) and gRPC (h2c) vs a bare Fastify route",
  async run(context: BenchContext): Promise<Row[]> {
    const servers: ChildServer[] = [];
    try {
      const app = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl }, context.cpuProfDir);
      servers.push(app);
      const expected = (await (await fetch(`http://127.0.0.1:${app.port}${REST_PATH}`)).json()) as unknown;
      note(`GetActuatorInfo answers ${JSON.stringify(expected)}`);
      const bare = await startChildServer("bare-server.ts", { BENCH_BARE_BODY: JSON.stringify(expected) }, context.cpuProfDir);
      servers.push(bare);
      await checkTargets(app.port, bare.port, expected);

      const settings = (server: ChildServer) => ({ ...context, serverPid: server.pid });
      const measure = async (label: string, load: () => Promise<LoadResult>) => {
        note(`measuring ${label}`);
        const result = await load();
        note(describeLoad(label, result));
        return result;
      };
      // The HTTP/1.1 targets alternate with the bare route in rounds, so that slow drift (other work on the machine) cancels.
      const http1 = (label: string, server: ChildServer, target: Http1Target): LoadTarget => ({
        label,
        run: (durationS) => http1Load(target, { ...settings(server), durationS }),
      });
      const { baseline: bareHttp1, targets: results } = await alternateLoads(
        ROUNDS,
        context.durationS,
        http1("bare route, HTTP/1.1", bare, bareHttp1Target(bare.port)),
        HTTP1_CASES.map((c) => http1(c.name, app, c.target(app.port))),
      );
      const drift = bareHttp1.drift > 0.1 ? `baseline runs differ by ${Math.round(bareHttp1.drift * 100)}%` : undefined;
      const rows = HTTP1_CASES.map((c, i) => throughputRow(`actuator.${c.name}`, results[i]!, bareHttp1, c.ratioTarget, drift));
      const bareH2 = await measure("bare route, h2c", () => h2Load(bareH2Target(bare.port), settings(bare)));
      const grpc = await measure("grpc", () => h2Load(grpcTarget(app.port), settings(app)));
      rows.push(throughputRow("actuator.grpc", grpc, bareH2, RPC_TARGET, "vs bare route over h2c"));
      return rows;
    } finally {
      for (const server of servers.reverse()) await server.stop();
    }
  },
};

/** One request to each target before any load: a wrong answer stops the figure. */
async function checkTargets(appPort: number, barePort: number, expected: unknown): Promise<void> {
  const bareOk = isDeepStrictEqual(await (await fetch(`http://127.0.0.1:${barePort}${REST_PATH}`)).json(), expected);
  if (!bareOk) throw new Error("the bare route does not answer the expected JSON");
  for (const c of HTTP1_CASES) {
    const t = c.target(appPort);
    const res = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body === undefined ? undefined : new Uint8Array(Buffer.from(t.body)) });
    if (!(await c.check(res, expected))) throw new Error(`${c.name}: unexpected answer (HTTP ${res.status})`);
  }
  for (const [name, target] of [["grpc", grpcTarget(appPort)], ["bare h2c", bareH2Target(barePort)]] as const) {
    const [session] = await openSessions(target.origin, 1);
    const accepted = await h2Call(session!, target);
    session!.close();
    if (!accepted) throw new Error(`${name}: unexpected answer`);
  }
}

