// The console's routes behind the session guard. The signed-in console is a
// chunk of its own, so that the sign-in page loads only what it needs.
import { lazy, Suspense } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { Loading } from "../components/loading.tsx";
import { ForgotPasswordPage } from "../features/auth/forgot-password-page.tsx";
import { PasswordChangePage } from "../features/auth/password-change-page.tsx";
import { PasswordResetPage } from "../features/auth/password-reset-page.tsx";
import { useSession } from "../features/auth/session.tsx";
import { SignInPage } from "../features/auth/sign-in-page.tsx";
import { SignUpPage } from "../features/auth/sign-up-page.tsx";
import { guard } from "./guard.ts";
import { paths } from "./paths.ts";

const ConsoleRoutes = lazy(() => import("./console-routes.tsx"));
const MfaEnrollmentPage = lazy(() => import("../features/auth/mfa-enrollment-page.tsx").then((m) => ({ default: m.MfaEnrollmentPage })));

export function AppRoutes() {
  const { state } = useSession();
  const [path] = useLocation();
  const search = useSearch();
  const decision = guard(state, path, search ? `?${search}` : "");
  if (decision.kind === "wait") return <Loading label="Opening the console…" />;
  if (decision.kind === "redirect") return <Redirect to={decision.to} replace />;
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path={paths.signIn} component={SignInPage} />
        <Route path={paths.signUp} component={SignUpPage} />
        <Route path={paths.passwordChange} component={PasswordChangePage} />
        <Route path={paths.mfaEnrollment} component={MfaEnrollmentPage} />
        <Route path={paths.forgotPassword} component={ForgotPasswordPage} />
        <Route path={paths.passwordReset} component={PasswordResetPage} />
        <Route>
          <ConsoleRoutes />
        </Route>
      </Switch>
    </Suspense>
  );
}
