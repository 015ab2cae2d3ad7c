import { create } from "@bufbuild/protobuf";
import { Webhook_Type, WebhookSchema } from "@gen/svc/v1/project_webhook_pb.js";
import { describe, expect, it } from "vitest";
import { draftOf, newWebhookOf, updateOf } from "./webhook-draft.ts";

const stored = create(WebhookSchema, {
  name: "projects/p/webhooks/3",
  etag: "e1",
  title: "Builds",
  type: Webhook_Type.GENERIC,
  urlShown: "https://hooks.example.com/in",
  secretSet: true,
  events: ["issue.created", "rollout.done"],
});

describe("a project webhook's draft", () => {
  it("starts with the URL and the secret empty, never read back", () => {
    const draft = draftOf(stored);
    expect([draft.url, draft.secret, draft.title, draft.events]).toEqual(["", "", "Builds", ["issue.created", "rollout.done"]]);
  });

  it("sends nothing when nothing changed, the etag and name always", () => {
    expect(updateOf(stored, draftOf(stored))).toEqual({ webhook: { name: stored.name, etag: "e1" }, paths: [] });
  });

  it("names only the changed fields; events compared as a set", () => {
    const draft = { ...draftOf(stored), title: " Deploys ", url: "https://hooks.example.com/new", events: ["rollout.done", "issue.created"] };
    expect(updateOf(stored, draft)).toEqual({ webhook: { name: stored.name, etag: "e1", title: "Deploys", url: "https://hooks.example.com/new" }, paths: ["title", "url"] });
  });

  it("removes a stored secret when asked or when the new type does not sign", () => {
    expect(updateOf(stored, { ...draftOf(stored), removeSecret: true }).webhook.secret).toBe("");
    const slack = updateOf(stored, { ...draftOf(stored), type: Webhook_Type.SLACK, secret: "typed" });
    expect([slack.paths, slack.webhook.secret]).toEqual([["type", "secret"], ""]);
  });

  it("sends a typed secret for a signing type, and none for a new webhook of another", () => {
    expect(updateOf(stored, { ...draftOf(stored), secret: "s3" }).paths).toEqual(["secret"]);
    const created = newWebhookOf({ ...draftOf(undefined), type: Webhook_Type.SLACK, title: "x", url: "https://hooks.slack.com/a", secret: "typed" });
    expect(created).not.toHaveProperty("secret");
  });
});
