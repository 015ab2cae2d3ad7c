// Self-service sign-up (contract §5.1 CreateUser, public unless
// disallow_signup): a new workspace member with a local password, signed in
// at once. The sign-in page links here only while the workspace allows it;
// the server refuses it otherwise, and its message is shown.
import { createClient } from "@connectrpc/connect";
import { UserService, UserType } from "@gen/svc/v1/user_service_pb.js";
import { Link, useSearch } from "wouter";
import { authClient } from "../../api/clients.ts";
import { authTransport } from "../../api/transport.ts";
import { FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { paths, withReturnPath } from "../../routes/paths.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { NewPasswordFields, newPasswordOf } from "./new-password-fields.tsx";
import { useSession } from "./session.tsx";

const users = createClient(UserService, authTransport);

export function SignUpPage() {
  const session = useSession();
  const search = useSearch();
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    const loginId = String(form.get("loginId")).trim();
    const password = newPasswordOf(form);
    const user = { title: String(form.get("title")).trim(), email: String(form.get("email")).trim(), type: UserType.END_USER, password };
    await users.createUser({ loginId, user });
    session.signedIn(await authClient.login({ loginId, password, web: true }));
  });
  return (
    <AuthLayout heading="Create an account">
      <form onSubmit={onSubmit}>
        <FormError message={error} />
        <Field label="Login ID" name="loginId" autoComplete="username" required autoFocus />
        <Field label="Name" name="title" autoComplete="name" required />
        <Field label="E-mail address" name="email" type="email" autoComplete="email" required />
        <NewPasswordFields />
        <SubmitButton pending={pending}>Create the account</SubmitButton>
      </form>
      <p className="form-footer">
        <Link href={withReturnPath(paths.signIn, new URLSearchParams(search).get("redirect") ?? "")}>I have an account</Link>
      </p>
    </AuthLayout>
  );
}
