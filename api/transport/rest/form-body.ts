// Form-encoded REST bodies (application/x-www-form-urlencoded): what a
// browser's form post sends, e.g. a SAML response to the assertion consumer
// service. Only methods declaring `accept_form_body` take them, their fields
// read like query parameters; any other method answers 415, as for any
// unsupported Content-Type.
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { methodOptions } from "../method-options.ts";

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** A parsed form body: each field's value, or values when repeated. */
export class FormBody {
  readonly fields: Record<string, string | string[]>;

  constructor(text: string) {
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(text)) {
      const seen = fields[key];
      fields[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    this.fields = fields;
  }
}

export function registerFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: "string" }, (_req, body, done) => done(null, new FormBody(body as string)));
}

/** The refusal (HTTP 415) of a form body sent to a method that does not declare accept_form_body. */
export function formBodyRefusal(method: DescMethod, body: unknown): ConnectError | undefined {
  if (!(body instanceof FormBody) || methodOptions(method).acceptFormBody) return undefined;
  return new ConnectError(`unsupported Content-Type "${FORM_CONTENT_TYPE}"; send application/json`, Code.InvalidArgument);
}
