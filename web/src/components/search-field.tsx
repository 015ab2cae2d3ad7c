// A search box that reports its text after the user pauses typing, or at once on Enter.
import { useEffect, useId, useState } from "react";

export function SearchField({ label, onSearch, delayMs = 300 }: { label: string; onSearch(text: string): void; delayMs?: number }) {
  const id = useId();
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs, onSearch]);
  return (
    <form role="search" className="search" onSubmit={(event) => (event.preventDefault(), onSearch(text.trim()))}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input id={id} type="search" placeholder={label} value={text} onChange={(event) => setText(event.target.value)} />
    </form>
  );
}
