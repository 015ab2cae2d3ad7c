// Raw calls in each RPC form, for tests that send what no client library
// would (broken binary, bad base64) and read the answer as it came on the
// wire: HTTP status, the error body's shape, gRPC status trailers.
import { connect as connectHttp2 } from "node:http2";

export interface RawAnswer {
  /** HTTP status (200 for streams and gRPC, whose errors come after it). */
  status: number;
  /** The error as the form carries it: a JSON body, an end-of-stream message or a gRPC status. */
  error?: { code: string; message: string; extraKeys: string[] };
  /** The raw body, for messages about what came back. */
  text: string;
}

const GRPC_CODES = [
  "ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists", "permission_denied",
  "resource_exhausted", "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable", "data_loss", "unauthenticated",
];

/** One message in the envelope every streaming form uses (flags, big-endian length, bytes). */
export function envelope(bytes: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(bytes.byteLength, 1);
  return Buffer.concat([head, bytes]);
}

/** A plain HTTP call whose error, if any, is the JSON body (REST, Connect unary and GET). */
export async function httpCall(url: string, init: RequestInit): Promise<RawAnswer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, error: res.status === 200 ? undefined : jsonError(text) };
}

/** A Connect streaming call: its error is in the end-of-stream message. */
export async function connectStreamCall(url: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  const res = await fetch(url, { method: "POST", headers, body: new Uint8Array(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, text: bytes.toString(), error: jsonError(bytes.toString()) };
  const last = frames(bytes).at(-1);
  const end = last && last.flags & 2 ? (JSON.parse(last.data.toString()) as { error?: unknown }) : {};
  return { status: 200, text: bytes.toString(), error: end.error ? shapeOf(end.error) : undefined };
}

/** A gRPC-Web call: its status is in the trailer frame. */
export async function grpcWebCall(url: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  const res = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/grpc-web+proto" }, body: new Uint8Array(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const trailer = frames(bytes).find((f) => f.flags & 0x80)?.data.toString() ?? "";
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(trailer)?.[1]?.trim();
  const message = field("grpc-message");
  return { status: res.status, text: bytes.toString(), error: grpcError(field("grpc-status"), message === undefined ? undefined : decodeURIComponent(message)) };
}

/** A gRPC call over h2c: its status is in the HTTP/2 trailers. */
export function grpcCall(baseUrl: string, path: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const session = connectHttp2(baseUrl);
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    let status = 0;
    let trailers: Record<string, unknown> = {};
    stream.on("response", (head) => {
      status = Number(head[":status"]);
      trailers = head; // a trailers-only answer carries the status in its headers
    });
    stream.on("trailers", (tail) => (trailers = tail));
    stream.on("data", () => undefined);
    stream.on("end", () => {
      session.close();
      const message = typeof trailers["grpc-message"] === "string" ? decodeURIComponent(trailers["grpc-message"]) : undefined;
      resolve({ status, text: JSON.stringify(trailers), error: grpcError(trailers["grpc-status"] as string | undefined, message) });
    });
    stream.on("error", reject);
    stream.end(body);
  });
}

function grpcError(status: string | undefined, message: string | undefined): RawAnswer["error"] {
  if (status === undefined || status === "0") return undefined;
  return { code: GRPC_CODES[Number(status)] ?? `status ${status}`, message: message ?? "", extraKeys: [] };
}

function jsonError(text: string): RawAnswer["error"] {
  try {
    return shapeOf(JSON.parse(text));
  } catch {
    return { code: "", message: "", extraKeys: ["<not JSON>"] };
  }
}

/** The contract's error shape (§1.1): {code, message, details?} and nothing else. */
function shapeOf(value: unknown): RawAnswer["error"] {
  const body = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const extraKeys = Object.keys(body).filter((k) => !["code", "message", "details"].includes(k));
  if (typeof body.code !== "string" || typeof body.message !== "string") extraKeys.push("<code or message missing>");
  if (body.details !== undefined && !Array.isArray(body.details)) extraKeys.push("<details not a list>");
  return { code: String(body.code ?? ""), message: String(body.message ?? ""), extraKeys };
}

function frames(bytes: Buffer): { flags: number; data: Buffer }[] {
  const found: { flags: number; data: Buffer }[] = [];
  for (let at = 0; at + 5 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at + 1);
    found.push({ flags: bytes[at]!, data: bytes.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return found;
}
