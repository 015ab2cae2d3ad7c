// A new password typed twice. The workspace's policy is the server's to
// check: its refusal lists every unmet rule (contract §5.1).
import { Field } from "../../components/field.tsx";

export function NewPasswordFields() {
  return (
    <>
      <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required />
      <Field label="Repeat the new password" name="repeatPassword" type="password" autoComplete="new-password" required />
    </>
  );
}

/** The new password of the form, or an error when its two copies differ. */
export function newPasswordOf(form: FormData): string {
  const password = String(form.get("newPassword"));
  if (password !== String(form.get("repeatPassword"))) throw new Error("The two new passwords differ.");
  return password;
}
