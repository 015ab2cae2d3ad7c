// A form's submission: pending while the call runs, the refusal's message
// afterwards, and nothing left to set once the form is gone.
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { errorMessage } from "../api/errors.ts";

export interface Submission {
  pending: boolean;
  error: string | undefined;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  clearError(): void;
}

export function useSubmit(action: (form: FormData) => Promise<void>): Submission {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (pending) return;
      setPending(true);
      setError(undefined);
      action(new FormData(event.currentTarget))
        .catch((reason: unknown) => mounted.current && setError(errorMessage(reason)))
        .finally(() => mounted.current && setPending(false));
    },
    [action, pending],
  );
  return { pending, error, onSubmit, clearError: useCallback(() => setError(undefined), []) };
}
