// A new user or service account (contract §5.1 CreateUser). A user's initial
// credentials are the password typed here (to be changed at the first sign-in
// when the password policy asks for it); a service account's are its key,
// answered once and shown once here.
import { type User, UserService, UserType } from "@gen/svc/v1/user_service_pb.js";
import { type FormEvent, useId, useState } from "react";
import { client } from "../../api/clients.ts";
import { Alert } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { WriteRefusal } from "../admin/components/write-refusal.tsx";

export function CreateUserForm({ onCreated }: { onCreated(): void }) {
  const titleId = useId();
  const typeId = useId();
  const [type, setType] = useState(UserType.END_USER);
  const [created, setCreated] = useState<User>();
  const write = useAction();
  const serviceAccount = type === UserType.SERVICE_ACCOUNT;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (field: string) => String(data.get(field) ?? "").trim();
    const done = await write.run(async () => {
      setCreated(undefined);
      const user = { type, title: text("title"), email: text("email"), password: serviceAccount ? "" : String(data.get("password") ?? "") };
      setCreated(await client(UserService).createUser({ loginId: text("loginId"), user }));
    });
    if (done) {
      form.reset();
      onCreated();
    }
  };

  return (
    <form className="admin-card" aria-labelledby={titleId} onSubmit={(event) => void submit(event)}>
      <h2 id={titleId}>Add a user</h2>
      <div className="field">
        <label htmlFor={typeId}>Kind</label>
        <select id={typeId} value={type} onChange={(event) => setType(Number(event.target.value) as UserType)}>
          <option value={UserType.END_USER}>A person</option>
          <option value={UserType.SERVICE_ACCOUNT}>A service account (signs in with a key)</option>
        </select>
      </div>
      <Field label="Login ID" name="loginId" required autoComplete="off" />
      <Field label="Name" name="title" autoComplete="off" />
      <Field label="E-mail" name="email" type="email" required autoComplete="off" />
      {!serviceAccount && (
        <Field
          label="Initial password"
          name="password"
          type="password"
          required
          autoComplete="new-password"
          hint="Tell it to the user; the password policy may make them change it at their first sign-in."
        />
      )}
      <WriteRefusal action={write} onReload={write.dismiss} />
      {created && <CreatedNotice user={created} />}
      <SubmitButton pending={write.pending}>Add</SubmitButton>
    </form>
  );
}

function CreatedNotice({ user }: { user: User }) {
  if (!user.serviceKey) return <Alert tone="success">Added {user.loginId}.</Alert>;
  return (
    <Alert tone="warning">
      Added {user.loginId}. Its key, shown only now: <code className="secret">{user.serviceKey}</code>
    </Alert>
  );
}
