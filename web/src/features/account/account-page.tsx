// The signed-in user's own account (`/account`): the profile, and for a
// local account the password and the second factor. A user of an identity
// provider signs in there, so neither applies to them (contract §4.8).
import { UserSource } from "@gen/svc/v1/user_service_pb.js";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useSession } from "../auth/session.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { TwoStepSection } from "./two-step-section.tsx";

export function AccountPage() {
  useDocumentTitle("Your account");
  const { state } = useSession();
  if (state.status !== "signed-in") return null;
  const user = state.user;
  const local = user.source === UserSource.LOCAL;
  return (
    <section className="page account">
      <h1>Your account</h1>
      <ProfileSection user={user} />
      {local ? (
        <>
          <PasswordSection user={user} />
          <TwoStepSection user={user} />
        </>
      ) : (
        <p className="hint">You sign in through your identity provider: your password and second factor are kept there.</p>
      )}
    </section>
  );
}
