import { Code, ConnectError } from "@connectrpc/connect";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { reconnectDelay, useWatch } from "./use-watch.ts";

afterEach(cleanup);

function Shown({ open, reopen }: { open(signal: AbortSignal): AsyncIterable<string | undefined>; reopen(): Promise<unknown> }) {
  const watched = useWatch(open, reopen, []);
  return <p>{`${watched.value ?? "none"} ${watched.live ? "live" : "down"} ${watched.error ?? ""}`.trim()}</p>;
}

describe("useWatch", () => {
  it("waits longer after each failure, up to a ceiling, with jitter", () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(500);
    expect(reconnectDelay(3, () => 0.5)).toBe(4_000);
    expect(reconnectDelay(20, () => 0.5)).toBe(15_000);
    expect(reconnectDelay(0, () => 0)).toBe(400);
    expect(reconnectDelay(0, () => 1)).toBe(600);
  });

  it("keeps the last state through heartbeats, and reopens after the stream fails, reading once before it", async () => {
    let opened = 0;
    let reopened = 0;
    async function* open() {
      opened++;
      if (opened === 1) {
        yield "first";
        yield undefined;
        throw new ConnectError("stream reset", Code.Unavailable);
      }
      yield "second";
      await new Promise(() => undefined);
    }
    render(<Shown open={open} reopen={async () => reopened++} />);
    await waitFor(() => expect(screen.getByText("first down stream reset")).toBeTruthy());
    await waitFor(() => expect(screen.getByText("second live")).toBeTruthy(), { timeout: 2_000 });
    expect([opened, reopened]).toEqual([2, 1]);
  });

  it("stops on a refusal that would only repeat", async () => {
    let opened = 0;
    async function* open(): AsyncIterable<string> {
      opened++;
      throw new ConnectError("issue not found", Code.NotFound);
    }
    render(<Shown open={open} reopen={async () => undefined} />);
    await waitFor(() => expect(screen.getByText("none down issue not found")).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(opened).toBe(1);
  });
});
