import { Link, useLocation } from "wouter";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { paths } from "../../routes/paths.ts";

export function NotFoundPage() {
  const [location] = useLocation();
  useDocumentTitle("Page not found");
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        The console has no page at <code>{location}</code>. Go to <Link href={paths.issues}>the issues</Link>.
      </p>
    </section>
  );
}
