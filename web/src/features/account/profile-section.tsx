// The user's profile: who they are to the workspace, and their name and
// e-mail address, which they may change themselves (contract §5.1).
import { type User, UserService, UserSource } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { useSession } from "../auth/session.tsx";

const SOURCE: Record<UserSource, string> = {
  [UserSource.USER_SOURCE_UNSPECIFIED]: "–",
  [UserSource.LOCAL]: "This workspace",
  [UserSource.OIDC]: "Identity provider (OIDC)",
  [UserSource.SAML]: "Identity provider (SAML)",
  [UserSource.SCIM]: "Directory sync",
};

export function ProfileSection({ user }: { user: User }) {
  const session = useSession();
  const [saved, setSaved] = useState(false);
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    setSaved(false);
    const change = { name: user.name, title: String(form.get("title")).trim(), email: String(form.get("email")).trim() };
    session.updated(await client(UserService).updateUser({ user: change, updateMask: { paths: ["title", "email"] } }));
    setSaved(true);
  });
  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <dl className="facts">
        <dt>Login ID</dt>
        <dd>{user.loginId}</dd>
        <dt>Signs in through</dt>
        <dd>{SOURCE[user.source]}</dd>
        <dt>Groups</dt>
        <dd>{user.groups.length ? user.groups.map((group) => group.replace(/^groups\//, "")).join(", ") : "none"}</dd>
        <dt>Member since</dt>
        <dd>
          <TimeText time={user.createTime} />
        </dd>
        <dt>Last sign-in</dt>
        <dd>
          <TimeText time={user.lastLoginTime} />
        </dd>
      </dl>
      <form onSubmit={onSubmit}>
        {saved && <Alert tone="success">Your profile is saved.</Alert>}
        <FormError message={error} />
        <Field label="Name" name="title" autoComplete="name" defaultValue={user.title} />
        <Field label="E-mail address" name="email" type="email" autoComplete="email" defaultValue={user.email} />
        <SubmitButton pending={pending}>Save the profile</SubmitButton>
      </form>
    </section>
  );
}
