import { SessionProvider } from "./features/auth/session.tsx";
import { AppRoutes } from "./routes/app-routes.tsx";

export function App() {
  return (
    <SessionProvider>
      <AppRoutes />
    </SessionProvider>
  );
}
