import { useSession } from "./session.tsx";

/** The way out of a page that must be finished before anything else. */
export function SignOutFooter() {
  const session = useSession();
  return (
    <p className="form-footer">
      <button type="button" className="link-button" onClick={() => void session.signOut()}>
        Sign out
      </button>
    </p>
  );
}
