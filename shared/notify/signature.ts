// The headers of a signed JSON notification (contract §16.3), shared by
// MONITORING and GENERIC project webhooks: X-Svc-Event, X-Svc-Delivery (the
// delivery's id, the same on every attempt, for receivers to drop a repeat)
// and, with a secret, X-Svc-Signature: sha256=<hex HMAC-SHA256 of the exact body>.
import { createHmac } from "node:crypto";

export interface SignedPost {
  event: string;
  deliveryId: string;
  body: string;
}

export function signedHeaders(post: SignedPost, secret: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "x-svc-event": post.event, "x-svc-delivery": post.deliveryId };
  if (secret) headers["x-svc-signature"] = `sha256=${createHmac("sha256", secret).update(post.body).digest("hex")}`;
  return headers;
}
