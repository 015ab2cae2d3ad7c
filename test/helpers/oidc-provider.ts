// A real OpenID provider for tests (panva's oidc-provider) on a loopback
// port, with one confidential client registered for the service's callback.
// Its sign-in page is replaced by a programmatic one: the account the test
// sets in `account` signs in and consents at once. Its e-mail address counts
// as verified unless the account says otherwise.
import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  sub: string;
  email: string;
  /** The email_verified claim; true when absent. */
  email_verified?: boolean;
  name: string;
  groups: string[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next sign-in. */
  account: TestAccount;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const self: TestOidcProvider = {
    issuer,
    clientId: "svc",
    clientSecret: "oidc-client-secret",
    account: { sub: "alice", email: "alice@example.com", name: "Alice", groups: [] },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [{ client_id: self.clientId, client_secret: self.clientSecret, redirect_uris: [redirectUri], response_types: ["code"], grant_types: ["authorization_code"] }],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ email_verified: true, ...self.account, sub }) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-key"] },
    jwks: { keys: [{ ...jwk, kid: "test-key", alg: "RS256", use: "sig" } as never] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      await provider.interactionFinished(req, res, { login: { accountId: self.account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params["client_id"] as string });
    grant.addOIDCScope(details.params["scope"] as string);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    } else {
      void callback(req, res);
    }
  });
  return self;
}
