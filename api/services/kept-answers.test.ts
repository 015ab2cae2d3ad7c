// KeptAnswers: an answer is built once per version and kept frozen, the most
// recently used ones up to the bound.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { ListIssuesResponseSchema, type ListIssuesResponse } from "../../shared/gen/svc/v1/issue_service_pb.js";
import { KeptAnswers } from "./kept-answers.ts";

describe("KeptAnswers", () => {
  const built: string[] = [];
  const page = (version: string) => () => (built.push(version), create(ListIssuesResponseSchema, { nextPageToken: version }));

  it("answers the frozen message built for a version, and builds again for another", () => {
    const kept = new KeptAnswers<ListIssuesResponse>(2);
    const first = kept.answer("a", page("a"));
    assert.ok(Object.isFrozen(first));
    assert.equal(kept.answer("a", page("a")), first);
    assert.notEqual(kept.answer("b", page("b")), first);
    assert.deepEqual(built.splice(0), ["a", "b"]);
  });

  it("forgets the least recently used answer beyond its bound", () => {
    const kept = new KeptAnswers<ListIssuesResponse>(2);
    const a = kept.answer("a", page("a"));
    kept.answer("b", page("b"));
    assert.equal(kept.answer("a", page("a")), a, "a used again: b is now the oldest");
    kept.answer("c", page("c"));
    assert.equal(kept.answer("a", page("a")), a);
    kept.answer("b", page("b"));
    assert.deepEqual(built.splice(0), ["a", "b", "c", "b"]);
  });
});
