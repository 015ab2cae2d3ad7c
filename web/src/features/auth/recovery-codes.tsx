// The recovery codes, answered once by the server: the user copies or
// downloads them, and confirms before leaving the page.
import { useState } from "react";

export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone(): void }) {
  const [saved, setSaved] = useState(false);
  const text = codes.join("\n");
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`${text}\n`)}`;
  return (
    <div>
      <p>Each code signs you in once when the authenticator app is not at hand. They are not shown again.</p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p className="actions">
        <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
        <a className="button" href={download} download="recovery-codes.txt">
          Download
        </a>
      </p>
      <label className="check">
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} /> I have saved these codes
      </label>
      <button type="button" className="button primary" disabled={!saved} onClick={onDone}>
        Continue
      </button>
    </div>
  );
}
