import { create } from "@bufbuild/protobuf";
import { Text } from "@codemirror/state";
import { DatabaseMetadataSchema } from "@gen/svc/v1/database_service_pb.js";
import { PlanCheckRun_Result_Status, PlanCheckRunSchema } from "@gen/svc/v1/plan_check_run_service_pb.js";
import { describe, expect, it } from "vitest";
import { markRange } from "./check-marks.ts";
import { marksOf } from "./plan-draft.ts";
import { completionSchema } from "./schema-completion.ts";

describe("the new change page's parts", () => {
  it("places a check's 1-based line and column on the word there, and drops positions outside the text", () => {
    const doc = Text.of(["select 1;", "create table orders (id int);"]);
    const range = markRange(doc, { line: 2, column: 14 })!;
    expect(doc.sliceString(range.from, range.to)).toBe("orders");
    expect(markRange(doc, { line: 2, column: 99 })).toEqual({ line: 10, from: 39, to: 39 });
    expect(markRange(doc, { line: 3, column: 1 })).toBeUndefined();
    expect(markRange(doc, { line: 0, column: 1 })).toBeUndefined();
  });

  it("marks the warnings and errors that point into the statement, naming their database", () => {
    const run = create(PlanCheckRunSchema, {
      results: [
        { status: PlanCheckRun_Result_Status.ERROR, line: 2, column: 1, target: "instances/i/databases/shop", title: "table requires a primary key" },
        { status: PlanCheckRun_Result_Status.WARNING, line: 0, target: "instances/i/databases/shop", title: "needs review" },
        { status: PlanCheckRun_Result_Status.SUCCESS, line: 1, target: "instances/i/databases/shop", title: "ok" },
      ],
    });
    expect(marksOf(run, (t) => t.split("/").at(-1)!)).toEqual([{ line: 2, column: 1, severity: "error", message: "shop: table requires a primary key" }]);
  });

  it("completes a PostgreSQL schema's tables and a MySQL database's tables at the top level", () => {
    const metadata = create(DatabaseMetadataSchema, {
      schemas: [
        { name: "public", tables: [{ name: "orders", columns: [{ name: "id" }, { name: "total" }] }], views: [{ name: "big_orders" }] },
        { name: "", tables: [{ name: "items", columns: [{ name: "sku" }] }] },
      ],
    });
    expect(completionSchema(metadata)).toEqual({ public: { orders: ["id", "total"], big_orders: [] }, items: ["sku"] });
  });
});
