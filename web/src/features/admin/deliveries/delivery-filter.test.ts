import { describe, expect, it } from "vitest";
import { deliveryFilter } from "./delivery-filter.ts";

describe("deliveryFilter", () => {
  it("joins the chosen terms, quoting the event", () => {
    expect(deliveryFilter({ channel: "MONITORING", event: ' issue."x" ', status: "FAILED" })).toBe('channel=MONITORING AND event="issue.\\"x\\"" AND status=FAILED');
  });
  it("is empty when nothing is chosen", () => {
    expect(deliveryFilter({ channel: "", event: "  ", status: "" })).toBe("");
  });
});
