// A stored statement, read-only: scrollable and reachable by keyboard.
export function StatementText({ label, statement }: { label: string; statement: string }) {
  return (
    <pre className="statement" tabIndex={0} aria-label={label}>
      <code>{statement}</code>
    </pre>
  );
}
